// Spec rows: Classification > POST /v1/classify (200 result with classifier_id null; 400 fewer than 2
// classes, bad query_model, not OCR-processed; 403; 404) and POST /v1/classifiers/{id}/classify (200 with
// classifier_id; per-call overrides leave the Classifier unchanged; 400/403/404); Classification result
// fields (credits_used 1 flat, num_pages of page_range, duration); standalone classify prerequisite.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/api-error.js';
import type { ClassifyRequest } from '../../src/api/types.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { contractPdf, invoicePdf, invoiceTemplate, writeFixture } from '../helpers/job-fixtures.js';

let svc: TestService;
let a: ServiceClient;
let b: ServiceClient;
let processedDoc: string;
let freshDoc: string;
let otherDoc: string;
let classifierId: string;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const schema: ClassifyRequest['classification_schema'] = [
  { label: 'invoice', description: 'a bill for goods with an amount due' },
  { label: 'contract', description: 'an employment agreement between parties' },
];

const rejects = (p: Promise<unknown>, status: number, code: string) =>
  assert.rejects(p, (e: unknown) => e instanceof ApiError && e.status === status && e.code === code);

before(async () => {
  svc = await startTestService();
  a = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false });
  b = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[1], retry: false });
  const contract = await writeFixture(svc.dataDir, 'contract.pdf', await contractPdf());
  const invoice = await writeFixture(svc.dataDir, 'inv.pdf', await invoicePdf({ number: 'C-1', total: '9.00', date: '2026-02-03', extraPages: 2 }));
  processedDoc = (await a.uploadDocument(contract)).document_id;
  freshDoc = (await a.uploadDocument(invoice)).document_id;
  otherDoc = (await b.uploadDocument(contract)).document_id;
  const t = await a.createTemplate(invoiceTemplate('Any'));
  // An earlier extraction OCR-processes the document (the prerequisite of standalone classify).
  await a.runParser(processedDoc, { template_id: t.template_id });
  await svc.service.context.jobs.idle();
  classifierId = (await a.createClassifier({ name: 'docs', classes: schema, use_ocr: false, page_range: '1' })).classifier_id;
});
after(() => svc.close());

describe('POST /v1/classify', () => {
  test('classifies a processed document synchronously: label, scores summing to 1, 1 credit, classifier_id null', async () => {
    const r = await a.classify({ document_id: processedDoc, classification_schema: schema });
    assert.equal(r.request_status, 'completed');
    assert.equal(r.classification, 'contract');
    assert.equal(r.classifier_id, null);
    assert.equal(r.document_id, processedDoc);
    assert.match(r.request_id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(Object.keys(r.confidence_scores).sort(), ['contract', 'invoice']);
    const sum = Object.values(r.confidence_scores).reduce((x, y) => x + y, 0);
    assert.ok(Math.abs(sum - 1) < 0.01);
    assert.equal(r.credits_used, 1);
    assert.equal(r.num_pages, 1);
    assert.equal(typeof r.duration, 'number');
  });

  test('400 document_not_processed for a document no extraction has read yet', async () => {
    await rejects(a.classify({ document_id: freshDoc, classification_schema: schema }), 400, 'document_not_processed');
  });

  test('400 for fewer than 2 classes, an unknown query_model, a bad page_range or a missing document_id', async () => {
    await rejects(a.classify({ document_id: processedDoc, classification_schema: schema.slice(0, 1) }), 400, 'invalid_request');
    await rejects(a.classify({ document_id: processedDoc, classification_schema: schema, query_model: 'model-9' as never }), 400, 'invalid_request');
    await rejects(a.classify({ document_id: processedDoc, classification_schema: schema, page_range: 'x' }), 400, 'invalid_request');
    await rejects(a.classify({ classification_schema: schema } as never), 400, 'invalid_request');
  });

  test("403 for another account's document, 404 for an unknown one", async () => {
    await rejects(a.classify({ document_id: otherDoc, classification_schema: schema }), 403, 'forbidden');
    await rejects(a.classify({ document_id: UNKNOWN, classification_schema: schema }), 404, 'not_found');
  });

  test('num_pages counts the page_range; the price stays 1 credit', async () => {
    const t = await a.createTemplate(invoiceTemplate('Three pages'));
    await a.runParser(freshDoc, { template_id: t.template_id });
    await svc.service.context.jobs.idle();
    const r = await a.classify({ document_id: freshDoc, classification_schema: schema, page_range: '1-2' });
    assert.equal(r.num_pages, 2);
    assert.equal(r.credits_used, 1);
    assert.equal(r.classification, 'invoice');
  });
});

describe('classification request_status', () => {
  test("a document-level failure answers 200 with request_status 'failed' and no credit", async () => {
    const r = await a.classify({ document_id: processedDoc, classification_schema: schema, page_range: '5-6' });
    assert.equal(r.request_status, 'failed');
    assert.equal(r.credits_used, 0);
    assert.equal(r.classifier_id, null);
  });
});

describe('POST /v1/classifiers/{id}/classify', () => {
  test('classifies with the saved Classifier and sets classifier_id', async () => {
    const r = await a.classifyWithClassifier(classifierId, { document_id: processedDoc });
    assert.equal(r.classifier_id, classifierId);
    assert.equal(r.classification, 'contract');
    assert.equal(r.credits_used, 1);
    assert.equal(r.num_pages, 1, "the Classifier's page_range '1'");
  });

  test('per-call page_range and query_model apply to that call only; the Classifier is unchanged', async () => {
    const before = await a.getClassifier(classifierId);
    const r = await a.classifyWithClassifier(classifierId, { document_id: freshDoc, page_range: '1-3', query_model: 'model-4o' });
    assert.equal(r.num_pages, 3);
    const after = await a.getClassifier(classifierId);
    assert.deepEqual(after, before);
    assert.equal(after.configs.page_range, '1');
    assert.equal(after.configs.query_model, 'model-4o-mini');
  });

  test('400 for a document not processed, a bad override, or a malformed id', async () => {
    const unprocessed = await writeFixture(svc.dataDir, 'unprocessed.pdf', await contractPdf());
    const doc = (await a.uploadDocument(unprocessed)).document_id;
    await rejects(a.classifyWithClassifier(classifierId, { document_id: doc }), 400, 'document_not_processed');
    await rejects(a.classifyWithClassifier(classifierId, { document_id: processedDoc, query_model: 'gpt' as never }), 400, 'invalid_request');
    await rejects(a.classifyWithClassifier('not-a-uuid', { document_id: processedDoc }), 400, 'invalid_request');
  });

  test("403 for another account's Classifier or document, 404 for unknown ones", async () => {
    await rejects(b.classifyWithClassifier(classifierId, { document_id: otherDoc }), 403, 'forbidden');
    await rejects(a.classifyWithClassifier(classifierId, { document_id: otherDoc }), 403, 'forbidden');
    await rejects(a.classifyWithClassifier(UNKNOWN, { document_id: processedDoc }), 404, 'not_found');
    await rejects(a.classifyWithClassifier(classifierId, { document_id: UNKNOWN }), 404, 'not_found');
  });
});
