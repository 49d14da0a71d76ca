import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { parseMultipart, sendJson, startServer, type Recorded, type RecordingServer } from './recording-server.js';

// Each operation must hit the spec's method and path with the spec's parameters. The double answers
// every request with a body that satisfies any method, and the test inspects what arrived.
let server: RecordingServer;
let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docdrop-api-ops-'));
  server = await startServer((req, res) => {
    if (req.headers.accept === 'application/xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end('<document><document_id>d1</document_id></document>');
    }
    sendJson(res, 200, { request_id: 'r1', request_status: 'pending', success: true, items: [], pagination_key: null, files: [] });
  });
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const client = () => new ServiceClient({ baseUrl: `${server.baseUrl}/`, apiKey: 'k' });

async function last(call: () => Promise<unknown>): Promise<Recorded> {
  await call();
  return server.requests[server.requests.length - 1];
}

function summary(r: Recorded) {
  return { method: r.method, url: r.url, json: r.body.length && r.headers['content-type'] === 'application/json' ? JSON.parse(r.body.toString()) : undefined };
}

test('runParser sends every query parameter of the spec, booleans as true/false', async () => {
  const r = await last(() =>
    client().runParser('doc-1', {
      template_id: 't1',
      classifier_id: 'c1',
      use_ocr: true,
      query_model: 'model-4o',
      detect_layout: false,
      detect_tables: true,
      page_ranges: '1-3,5',
      chunk_by_pages: 2,
      rolling_window: 3,
      start_regex: '^Invoice',
      end_regex: 'Total$',
      split_regex: '---',
      use_all_matches: true,
    }),
  );
  assert.equal(r.method, 'GET');
  assert.equal(r.path, '/v1/documents/doc-1/run_parser');
  assert.deepEqual(Object.fromEntries(r.query), {
    template_id: 't1',
    classifier_id: 'c1',
    use_ocr: 'true',
    query_model: 'model-4o',
    detect_layout: 'false',
    detect_tables: 'true',
    page_ranges: '1-3,5',
    chunk_by_pages: '2',
    rolling_window: '3',
    start_regex: '^Invoice',
    end_regex: 'Total$',
    split_regex: '---',
    use_all_matches: 'true',
  });
  assert.equal(r.headers.accept, 'application/json');
});

test('getDocument and runParser with accept xml send Accept: application/xml and return the text', async () => {
  const c = client();
  assert.match(await c.getDocument('d1', { accept: 'xml' }), /^<document>/);
  assert.match(await c.runParser('d1', { template_id: 't' }, { accept: 'xml' }), /<document_id>d1/);
  assert.equal(server.requests[server.requests.length - 1].headers.accept, 'application/xml');
});

test('document, job and export operations hit the spec paths', async () => {
  const c = client();
  assert.deepEqual(summary(await last(() => c.getDocument('d 1'))), { method: 'GET', url: '/v1/documents/d%201', json: undefined });
  assert.deepEqual(summary(await last(() => c.getUploadUrl('a b.pdf').catch(() => undefined))), {
    method: 'GET',
    url: '/v1/documents/upload_url?file_name=a+b.pdf',
    json: undefined,
  });
  assert.deepEqual(summary(await last(() => c.confirmUpload('d1', 'big.pdf'))), {
    method: 'POST',
    url: '/v1/documents',
    json: { document_id: 'd1', file_name: 'big.pdf' },
  });
  assert.equal((await last(() => c.listDocuments({ limit: 10, created_at: '2026-01-01T00:00:00.000000' }))).url, '/v1/documents?limit=10&created_at=2026-01-01T00%3A00%3A00.000000');
  assert.equal((await last(() => c.getJob('r1'))).url, '/files?request_id=r1');
  assert.equal((await last(() => c.getExtractJob('r1'))).url, '/v1/extract?request_id=r1');
  assert.deepEqual(summary(await last(() => c.deleteJob('r1'))), { method: 'DELETE', url: '/files?request_id=r1', json: undefined });
  const single = await last(() => c.exportSingle({ request_id: 'r1', file_format: 'csv', data_layout: 'line_items', merge_field: 'items', include_filename: true, include_request_id: false }));
  assert.equal(single.path, '/files/export');
  assert.deepEqual(Object.fromEntries(single.query), { request_id: 'r1', file_format: 'csv', data_layout: 'line_items', merge_field: 'items', include_filename: 'true', include_request_id: 'false' });
  const range = await last(() => c.exportRange({ template_id: 't1', date_range: '7_days', file_format: 'xlsx', data_layout: 'flat', excel_format: 'multi_sheet' }));
  assert.deepEqual(Object.fromEntries(range.query), { template_id: 't1', date_range: '7_days', file_format: 'xlsx', data_layout: 'flat', excel_format: 'multi_sheet' });
});

test('extract sends document_id or url as JSON, with classifier_id in the body or the query', async () => {
  const c = client();
  assert.deepEqual(await c.extract({ document_id: 'd1' }, { classifier_id: 'c1' }), { request_id: 'r1' });
  assert.deepEqual(summary(server.requests[server.requests.length - 1]), { method: 'POST', url: '/v1/extract', json: { document_id: 'd1', classifier_id: 'c1' } });
  const viaQuery = await last(() => c.extract({ url: 'https://files.example/a.pdf' }, { classifier_id: 'c1', classifierVia: 'query' }));
  assert.deepEqual(summary(viaQuery), { method: 'POST', url: '/v1/extract?classifier_id=c1', json: { url: 'https://files.example/a.pdf' } });
  const withTemplate = await last(() => c.extract({ document_id: 'd1' }, { template_id: 't1' }));
  assert.deepEqual(summary(withTemplate).json, { document_id: 'd1', template_id: 't1' });
  await assert.rejects(c.extract({ document_id: 'd1' }, { classifierVia: 'form' }), /needs source.filePath/);
});

test('extract sends a file as multipart with classifier_id as a form field', async () => {
  const path = join(dir, 'a.pdf');
  await writeFile(path, '%PDF-1.4 tiny');
  const r = await last(() => client().extract({ filePath: path }, { classifier_id: 'c1' }));
  assert.equal(r.url, '/v1/extract');
  const parts = parseMultipart(r.body, r.headers['content-type']);
  assert.deepEqual(parts.map((p) => [p.name, p.filename ?? p.data.toString()]), [['file', 'a.pdf'], ['classifier_id', 'c1']]);
  assert.equal(parts[0].data.toString(), '%PDF-1.4 tiny');
});

test('template operations hit the spec paths with JSON bodies', async () => {
  const c = client();
  const schema = { fields: [{ name: 'total', type: 'number' as const }] };
  assert.deepEqual(summary(await last(() => c.createTemplate({ template_title: 'Inv', template_type: 'invoice', template_schema: schema }))), {
    method: 'POST',
    url: '/v1/templates',
    json: { template_title: 'Inv', template_type: 'invoice', template_schema: schema },
  });
  assert.equal((await last(() => c.listTemplates({ pagination_key: 't9', limit: 50 }))).url, '/v1/templates?pagination_key=t9&limit=50');
  assert.equal((await last(() => c.getTemplate('t1'))).url, '/v1/templates/t1');
  assert.deepEqual(summary(await last(() => c.updateTemplate('t1', { parser_config: { ocr_config: { detect_tables: true } } }))), {
    method: 'PUT',
    url: '/v1/templates/t1',
    json: { parser_config: { ocr_config: { detect_tables: true } } },
  });
  assert.deepEqual(summary(await last(() => c.deleteTemplate('t1'))), { method: 'DELETE', url: '/v1/templates/t1', json: undefined });
});

test('classification operations hit the spec paths with flat JSON bodies', async () => {
  const c = client();
  const classes = [
    { label: 'invoice', description: 'a bill', template_id: 't1' },
    { label: 'receipt', description: 'a till slip' },
  ];
  const schema = classes.map(({ label, description }) => ({ label, description }));
  assert.deepEqual(summary(await last(() => c.classify({ document_id: 'd1', classification_schema: schema, page_range: '1-2' }))), {
    method: 'POST',
    url: '/v1/classify',
    json: { document_id: 'd1', classification_schema: schema, page_range: '1-2' },
  });
  assert.deepEqual(summary(await last(() => c.createClassifier({ name: 'kinds', classes, min_confidence: 0.6 }))), {
    method: 'POST',
    url: '/v1/classifiers',
    json: { name: 'kinds', classes, min_confidence: 0.6 },
  });
  assert.equal((await last(() => c.listClassifiers({ pagination_key: 'c9' }))).url, '/v1/classifiers?pagination_key=c9');
  assert.equal((await last(() => c.getClassifier('c1'))).url, '/v1/classifiers/c1');
  assert.deepEqual(summary(await last(() => c.updateClassifier('c1', { query_model: 'model-4o' }))), {
    method: 'PUT',
    url: '/v1/classifiers/c1',
    json: { query_model: 'model-4o' },
  });
  assert.deepEqual(summary(await last(() => c.classifyWithClassifier('c1', { document_id: 'd1', query_model: 'model-4o' }))), {
    method: 'POST',
    url: '/v1/classifiers/c1/classify',
    json: { document_id: 'd1', query_model: 'model-4o' },
  });
});

test('keeps a path prefix of the base URL', async () => {
  const c = new ServiceClient({ baseUrl: `${server.baseUrl}/api`, apiKey: 'k' });
  assert.equal((await last(() => c.getJob('r1'))).url, '/api/files?request_id=r1');
});
