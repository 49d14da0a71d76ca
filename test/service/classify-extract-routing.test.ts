// Spec rows: Classify + extract routing rules 1-5 (mapped label; below min_confidence or unmapped ->
// default_template_id; neither -> failed with the no-template message and the classify credit refunded;
// only saved Classifiers; template_id alone = ordinary extraction with null/0 classification fields),
// classifier_id precedence over template_id, POST /v1/extract sources (JSON document_id, JSON url,
// multipart file) with classifier_id as body field, form field or query parameter.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { ServiceClient } from '../../src/api/client.js';
import type { ExtractionJob } from '../../src/api/types.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { contractPdf, invoicePdf, invoiceTemplate, writeFixture } from '../helpers/job-fixtures.js';

let svc: TestService;
let client: ServiceClient;
let invoiceDoc: string;
let invoicePath: string;
let invoiceT: string;
let contractT: string;
let defaultT: string;
let files: Server;
let invoiceUrl: string;
let invoiceBytes: Buffer;

const classes = (inv?: string, con?: string) => [
  { label: 'invoice', description: 'a bill for goods with an amount due', ...(inv ? { template_id: inv } : {}) },
  { label: 'contract', description: 'an employment agreement between parties', ...(con ? { template_id: con } : {}) },
];

async function finished(requestId: string): Promise<ExtractionJob> {
  await svc.service.context.jobs.idle();
  return client.getJob(requestId);
}

before(async () => {
  // The file servers below listen on loopback, which the service refuses to fetch from unless allowed.
  svc = await startTestService({ fetchAllowRanges: ['127.0.0.0/8'] });
  client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false });
  invoiceBytes = await invoicePdf({ number: 'INV-77', total: '77.00', date: '2026-10-10' });
  invoicePath = await writeFixture(svc.dataDir, 'invoice-77.pdf', invoiceBytes);
  invoiceDoc = (await client.uploadDocument(invoicePath)).document_id;
  invoiceT = (await client.createTemplate(invoiceTemplate('Invoice T'))).template_id;
  contractT = (await client.createTemplate({ template_title: 'Contract T', template_type: 'contract', template_schema: { fields: [{ name: 'employer', type: 'text' }] } })).template_id;
  defaultT = (await client.createTemplate(invoiceTemplate('Default T'))).template_id;
  files = createServer((req, res) => {
    if (req.url === '/docs/invoice-77.pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end(invoiceBytes);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  invoiceUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/docs/invoice-77.pdf`;
});
after(async () => {
  await new Promise<void>((r) => files.close(() => r()));
  await svc.close();
});

describe('classify + extract routing', () => {
  test('rule 3: runs the Workflow mapped to the winning label; classify_credits 1, total = 1 + extraction credits', async () => {
    const c = await client.createClassifier({ name: 'mapped', classes: classes(invoiceT, contractT), use_ocr: false });
    const job = await client.runParser(invoiceDoc, { classifier_id: c.classifier_id });
    assert.equal(job.request_status, 'pending');
    const done = await finished(job.request_id);
    assert.equal(done.request_status, 'completed');
    assert.equal(done.classification, 'invoice');
    assert.ok(done.confidence_scores && done.confidence_scores.invoice > done.confidence_scores.contract);
    assert.equal(done.response_body?.template_id, invoiceT, 'the template auto-selected by the Classifier');
    assert.equal(done.response_body?.template_title, 'Invoice T');
    assert.equal((done.response_body?.result_json_data as Record<string, unknown>).invoice_number, 'INV-77');
    assert.equal(done.classify_credits, 1);
    assert.equal(done.credits_used, 1);
    assert.equal(done.total_credits, 2);
    const doc = await client.getDocument(invoiceDoc);
    assert.ok(doc.parser_runs.some((r) => r.request_id === job.request_id && r.template_id === invoiceT), 'the routed run is in parser_runs');
  });

  test('rule 3: below min_confidence the default_template_id runs instead', async () => {
    const c = await client.createClassifier({ name: 'strict', classes: classes(invoiceT, contractT), min_confidence: 0.999, default_template_id: defaultT, use_ocr: false });
    const done = await finished((await client.runParser(invoiceDoc, { classifier_id: c.classifier_id })).request_id);
    assert.equal(done.request_status, 'completed');
    assert.equal(done.classification, 'invoice');
    assert.equal(done.response_body?.template_id, defaultT);
    assert.equal(done.classify_credits, 1);
  });

  test('rule 3: a label without template_id falls back to default_template_id', async () => {
    const c = await client.createClassifier({ name: 'unmapped+default', classes: classes(undefined, contractT), default_template_id: defaultT, use_ocr: false });
    const done = await finished((await client.runParser(invoiceDoc, { classifier_id: c.classifier_id })).request_id);
    assert.equal(done.request_status, 'completed');
    assert.equal(done.response_body?.template_id, defaultT);
  });

  test('rule 4: no mapped template and no default -> failed, message names the label, classify credit refunded', async () => {
    const c = await client.createClassifier({ name: 'unmapped', classes: classes(undefined, contractT), use_ocr: false });
    const done = await finished((await client.runParser(invoiceDoc, { classifier_id: c.classifier_id })).request_id);
    assert.equal(done.request_status, 'failed');
    assert.match(done.response_body?.user_error_msg ?? '', /no extraction template is mapped to label 'invoice'/);
    assert.equal(done.classification, 'invoice');
    assert.equal(done.classify_credits, 0);
    assert.equal(done.credits_used, 0);
    assert.equal(done.total_credits, 0);
    assert.equal(done.response_body?.result_json_data, null);
  });

  test('rule 4 also when the mapped label is below min_confidence and there is no default', async () => {
    const c = await client.createClassifier({ name: 'strict no default', classes: classes(invoiceT, contractT), min_confidence: 0.999, use_ocr: false });
    const done = await finished((await client.runParser(invoiceDoc, { classifier_id: c.classifier_id })).request_id);
    assert.equal(done.request_status, 'failed');
    assert.match(done.response_body?.user_error_msg ?? '', /below min_confidence/);
    assert.equal(done.classify_credits, 0);
  });

  test('classifier_id takes precedence over template_id', async () => {
    const c = await client.createClassifier({ name: 'wins', classes: classes(invoiceT, contractT), use_ocr: false });
    const done = await finished((await client.runParser(invoiceDoc, { classifier_id: c.classifier_id, template_id: defaultT })).request_id);
    assert.equal(done.response_body?.template_id, invoiceT);
    assert.equal(done.classify_credits, 1);
  });

  test('rule 5: template_id without classifier_id is an ordinary extraction (classification null, classify_credits 0)', async () => {
    const done = await finished((await client.runParser(invoiceDoc, { template_id: invoiceT })).request_id);
    assert.equal(done.classification, null);
    assert.equal(done.confidence_scores, null);
    assert.equal(done.classify_credits, 0);
    assert.equal(done.total_credits, done.credits_used);
  });

  test('rule 2: an inline classification_schema is refused on extraction (400)', async () => {
    const res = await request(`${svc.url}/v1/extract`, {
      method: 'POST',
      headers: { 'x-api-key': svc.keys[0], 'content-type': 'application/json' },
      body: JSON.stringify({ document_id: invoiceDoc, classification_schema: classes() }),
    });
    const body = (await res.body.json()) as { error: string; message: string };
    assert.equal(res.statusCode, 400);
    assert.equal(body.error, 'invalid_request');
    assert.match(body.message, /classifier_id/);
  });
});

describe('POST /v1/extract sources and where classifier_id goes', () => {
  let classifierId: string;
  before(async () => {
    classifierId = (await client.createClassifier({ name: 'extract sources', classes: classes(invoiceT, contractT), use_ocr: false })).classifier_id;
  });

  const check = async (requestId: string) => {
    const done = await finished(requestId);
    assert.equal(done.request_status, 'completed');
    assert.equal(done.classification, 'invoice');
    assert.equal(done.classify_credits, 1);
    assert.equal(done.response_body, undefined, 'extract jobs carry results, not response_body');
    assert.equal((done.results?.data as Record<string, unknown>).invoice_number, 'INV-77');
    assert.equal(done.results?.num_pages, 1);
  };

  test('JSON document_id with classifier_id in the body', async () => {
    await check((await client.extract({ document_id: invoiceDoc }, { classifier_id: classifierId, classifierVia: 'body' })).request_id);
  });
  test('JSON document_id with classifier_id as a query parameter', async () => {
    await check((await client.extract({ document_id: invoiceDoc }, { classifier_id: classifierId, classifierVia: 'query' })).request_id);
  });
  test('JSON url: the service fetches the file and stores it as a new document', async () => {
    const before = (await client.listDocuments()).files.length;
    await check((await client.extract({ url: invoiceUrl }, { classifier_id: classifierId })).request_id);
    const docs = (await client.listDocuments()).files;
    assert.equal(docs.length, before + 1);
    assert.equal(docs[0].file_name, 'invoice-77.pdf');
  });
  test('multipart file with classifier_id as a form field', async () => {
    await check((await client.extract({ filePath: invoicePath }, { classifier_id: classifierId, classifierVia: 'form' })).request_id);
  });
  test('multipart file with template_id as a form field runs that Workflow', async () => {
    const { request_id } = await client.extract({ filePath: invoicePath }, { template_id: invoiceT });
    const done = await finished(request_id);
    assert.equal(done.request_status, 'completed');
    assert.equal(done.classification, null);
    assert.equal((done.results?.data as Record<string, unknown>).total_due, 77);
  });
});
