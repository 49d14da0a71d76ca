// Spec rows: Endpoints > Extraction error statuses: run_parser 400/401/403/404, GET /files 400/401/403/404,
// DELETE /files 400/401/403/404, POST /v1/extract request errors; run_parser query rules (template_id
// required unless classifier_id; use_ocr required by OCR-related options); Errors table (Error body).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { ServiceClient } from '../../src/api/client.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { invoicePdf, invoiceTemplate, writeFixture } from '../helpers/job-fixtures.js';

let svc: TestService;
let a: ServiceClient;
let b: ServiceClient;
let docId: string;
let templateId: string;
let requestId: string;
let otherDocId: string;
let otherTemplateId: string;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function raw(method: 'GET' | 'POST' | 'DELETE', path: string, opts: { key?: string | null; json?: unknown; body?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== null) headers['x-api-key'] = opts.key ?? svc.keys[0];
  let body: string | undefined = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] = 'application/json';
  }
  const res = await request(svc.url + path, { method, headers, body });
  const parsed = (await res.body.json()) as Record<string, unknown>;
  return { status: res.statusCode, body: parsed };
}

function assertError(r: { status: number; body: Record<string, unknown> }, status: number, code: string, message?: RegExp) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.success, false);
  assert.equal(r.body.error, code);
  assert.equal(typeof r.body.message, 'string');
  if (message) assert.match(r.body.message as string, message);
}

before(async () => {
  // The file servers below listen on loopback, which the service refuses to fetch from unless allowed.
  svc = await startTestService({ fetchAllowRanges: ['127.0.0.0/8'] });
  a = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false });
  b = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[1], retry: false });
  const pdf = await writeFixture(svc.dataDir, 'inv.pdf', await invoicePdf({ number: 'E-1', total: '1.00', date: '2026-01-01' }));
  docId = (await a.uploadDocument(pdf)).document_id;
  templateId = (await a.createTemplate(invoiceTemplate('A'))).template_id;
  otherDocId = (await b.uploadDocument(pdf)).document_id;
  otherTemplateId = (await b.createTemplate(invoiceTemplate('B'))).template_id;
  requestId = (await a.runParser(docId, { template_id: templateId })).request_id;
  await svc.service.context.jobs.idle();
});
after(() => svc.close());

const runParser = (doc: string, q: string, key?: string | null) => raw('GET', `/v1/documents/${doc}/run_parser?${q}`, { key });

describe('run_parser errors', () => {
  test('400 when neither template_id nor classifier_id is given', async () => {
    assertError(await runParser(docId, ''), 400, 'invalid_request', /template_id/);
  });
  test('400 for a document id that is not a UUID, and for a template_id that is not one', async () => {
    assertError(await runParser('not-a-uuid', `template_id=${templateId}`), 400, 'invalid_request', /document_id/);
    assertError(await runParser(docId, 'template_id=abc'), 400, 'invalid_request', /template_id/);
  });
  for (const [q, what] of [
    ['detect_layout=true', 'detect_layout'],
    ['detect_tables=true&use_ocr=false', 'detect_tables'],
    ['start_regex=%5EPage', 'start_regex'],
    ['end_regex=END', 'end_regex'],
    ['split_regex=Invoice', 'split_regex'],
    ['use_all_matches=true', 'use_all_matches'],
    ['query_model=model-3.5-turbo', 'model-3.5-turbo'],
  ] as const) {
    test(`400 use_ocr_required when ${what} is sent without use_ocr=true`, async () => {
      assertError(await runParser(docId, `template_id=${templateId}&${q}`), 400, 'use_ocr_required', new RegExp(what));
    });
  }
  test('accepts the OCR-related options together with use_ocr=true', async () => {
    const job = await a.runParser(docId, { template_id: templateId, use_ocr: true, detect_tables: true, split_regex: 'Invoice', use_all_matches: true, query_model: 'model-3.5-turbo' });
    assert.equal(job.request_status, 'pending');
    await svc.service.context.jobs.idle();
  });
  test('400 for malformed option values (page_ranges, booleans, chunk_by_pages, regex)', async () => {
    assertError(await runParser(docId, `template_id=${templateId}&page_ranges=3-1`), 400, 'invalid_request', /page_ranges/);
    assertError(await runParser(docId, `template_id=${templateId}&use_ocr=yes`), 400, 'invalid_request', /use_ocr/);
    assertError(await runParser(docId, `template_id=${templateId}&chunk_by_pages=0`), 400, 'invalid_request', /chunk_by_pages/);
    assertError(await runParser(docId, `template_id=${templateId}&use_ocr=true&split_regex=(`), 400, 'invalid_request', /split_regex/);
  });
  test('401 without x-api-key and with an unknown key', async () => {
    assertError(await runParser(docId, `template_id=${templateId}`, null), 401, 'unauthorized');
    assertError(await runParser(docId, `template_id=${templateId}`, 'wrong-key'), 401, 'unauthorized');
  });
  test("403 for another account's document, Workflow or Classifier", async () => {
    assertError(await runParser(otherDocId, `template_id=${templateId}`), 403, 'forbidden');
    assertError(await runParser(docId, `template_id=${otherTemplateId}`), 403, 'forbidden');
    const cls = await b.createClassifier({ name: 'B', classes: [{ label: 'x', description: 'x' }, { label: 'y', description: 'y' }] });
    assertError(await runParser(docId, `classifier_id=${cls.classifier_id}`), 403, 'forbidden');
  });
  test('404 for an unknown document, Workflow or Classifier', async () => {
    assertError(await runParser(UNKNOWN, `template_id=${templateId}`), 404, 'not_found');
    assertError(await runParser(docId, `template_id=${UNKNOWN}`), 404, 'not_found');
    assertError(await runParser(docId, `classifier_id=${UNKNOWN}&template_id=${templateId}`), 404, 'not_found', /Classifier/);
  });
  test('404 for a deleted Workflow', async () => {
    const t = await a.createTemplate(invoiceTemplate('Deleted soon'));
    await a.deleteTemplate(t.template_id);
    assertError(await runParser(docId, `template_id=${t.template_id}`), 404, 'not_found');
  });
});

describe('GET /files, GET /v1/extract and DELETE /files errors', () => {
  for (const [method, path] of [
    ['GET', '/files'],
    ['GET', '/v1/extract'],
    ['DELETE', '/files'],
  ] as const) {
    test(`${method} ${path}: 400 without request_id or with a malformed one`, async () => {
      assertError(await raw(method, path), 400, 'invalid_request', /request_id/);
      assertError(await raw(method, `${path}?request_id=123`), 400, 'invalid_request', /request_id/);
    });
    test(`${method} ${path}: 401 without a valid key`, async () => {
      assertError(await raw(method, `${path}?request_id=${requestId}`, { key: null }), 401, 'unauthorized');
      assertError(await raw(method, `${path}?request_id=${requestId}`, { key: 'nope' }), 401, 'unauthorized');
    });
    test(`${method} ${path}: 403 for another account's job`, async () => {
      assertError(await raw(method, `${path}?request_id=${requestId}`, { key: svc.keys[1] }), 403, 'forbidden');
    });
    test(`${method} ${path}: 404 for an unknown request_id`, async () => {
      assertError(await raw(method, `${path}?request_id=${UNKNOWN}`), 404, 'not_found');
    });
  }
});

describe('POST /v1/extract request errors', () => {
  let files: Server;
  let filesUrl: string;
  before(async () => {
    files = createServer((req, res) => {
      if (req.url === '/text.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('not a document');
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => files.close(() => r())));

  test('400 when the body names no document source, or both', async () => {
    assertError(await raw('POST', '/v1/extract', { json: { template_id: templateId } }), 400, 'invalid_request', /document_id|url/);
    assertError(await raw('POST', '/v1/extract', { json: { template_id: templateId, document_id: docId, url: 'http://x/y.pdf' } }), 400, 'invalid_request');
  });
  test('400 for malformed JSON', async () => {
    assertError(await raw('POST', '/v1/extract', { body: '{"document_id":', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
  });
  test('400 when neither template_id nor classifier_id is given', async () => {
    assertError(await raw('POST', '/v1/extract', { json: { document_id: docId } }), 400, 'invalid_request', /template_id/);
  });
  test('400 for a url that is not http(s), cannot be fetched, or is not an accepted file type', async () => {
    assertError(await raw('POST', '/v1/extract', { json: { url: 'file:///etc/passwd', template_id: templateId } }), 400, 'invalid_request', /http/);
    assertError(await raw('POST', '/v1/extract', { json: { url: `${filesUrl}/missing.pdf`, template_id: templateId } }), 400, 'invalid_request', /HTTP 404/);
    assertError(await raw('POST', '/v1/extract', { json: { url: `${filesUrl}/text.txt`, template_id: templateId } }), 400, 'unsupported_file_type');
  });
  test('401, 403 and 404 as for run_parser', async () => {
    assertError(await raw('POST', '/v1/extract', { key: null, json: { document_id: docId, template_id: templateId } }), 401, 'unauthorized');
    assertError(await raw('POST', '/v1/extract', { json: { document_id: otherDocId, template_id: templateId } }), 403, 'forbidden');
    assertError(await raw('POST', '/v1/extract', { json: { document_id: UNKNOWN, template_id: templateId } }), 404, 'not_found');
    assertError(await raw('POST', '/v1/extract', { json: { document_id: docId, template_id: UNKNOWN } }), 404, 'not_found');
  });
});
