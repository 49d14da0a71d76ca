// Spec rows: POST /v1/documents (multipart), GET /v1/documents (list, paging, search_term),
// GET /v1/documents/{id} (parser_runs, storage_key, Accept: application/xml).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { request } from 'undici';
import type { ServiceClient } from '../../src/api/client.js';
import { specTimestamp } from '../../src/shared/time.js';
import { startTestService, type TestService } from '../helpers/service.js';
import {
  clientFor, errorBody, fileForm, jpeg, pagesPdf, png, raw, tempFiles, tiff, TIMESTAMP_RE, UUID_RE, type TempFiles,
} from '../helpers/service-fixtures.js';

let svc: TestService;
let files: TempFiles;
let client: ServiceClient;

before(async () => {
  svc = await startTestService();
  files = await tempFiles();
  client = clientFor(svc.url, svc.keys[0]);
});
after(async () => {
  await svc.close();
  await files.cleanup();
});

describe('POST /v1/documents (multipart)', () => {
  test('stores a PDF, counts its pages and answers a Document without storage_key', async () => {
    const path = await files.write('three.pdf', await pagesPdf(3));
    const doc = await client.uploadMultipart(path);
    assert.match(doc.document_id, UUID_RE);
    assert.equal(doc.file_name, 'three.pdf');
    assert.equal(doc.file_extension, 'pdf');
    assert.equal(doc.num_pages, 3);
    assert.equal(doc.source_name, 'api');
    assert.deepEqual(doc.meta_tags, {});
    assert.deepEqual(doc.parser_runs, []);
    assert.equal('storage_key' in doc, false);
    assert.match(doc.user_id, /\S/);
    assert.match(doc.created_at, TIMESTAMP_RE);
    assert.match(doc.updated_at, TIMESTAMP_RE);
  });

  test('detects PNG, JPEG and multi-page TIFF from the bytes, whatever the name says', async () => {
    const cases: [Buffer, string, string, number][] = [
      [await png(), 'scan.pdf', 'png', 1],
      [await jpeg(), 'photo.bin', 'jpeg', 1],
      [await tiff(2), 'fax', 'tiff', 2],
    ];
    for (const [bytes, name, ext, pages] of cases) {
      const doc = await client.uploadMultipart(await files.write(name, bytes));
      assert.equal(doc.file_extension, ext, name);
      assert.equal(doc.num_pages, pages, name);
      assert.equal(doc.file_name, name);
    }
  });

  test('accepts a PDF with junk before %PDF- within the first KB', async () => {
    const bytes = Buffer.concat([Buffer.alloc(500, 0x20), Buffer.from('garbage\n'), await pagesPdf(2)]);
    const doc = await client.uploadMultipart(await files.write('junk.pdf', bytes));
    assert.equal(doc.file_extension, 'pdf');
    assert.equal(doc.num_pages, 2);
  });

  test('rejects a text file named .pdf with 400 unsupported_file_type', async () => {
    const res = await raw(`${svc.url}/v1/documents`, { method: 'POST', key: svc.keys[0], body: fileForm(Buffer.from('just some text, not a PDF'), 'notes.pdf') });
    const err = errorBody(res, 400, 'unsupported_file_type');
    assert.match(err.message, /PDF, JPEG, PNG or TIFF/);
  });

  test('rejects a 7 MB multipart file with 400 file_too_large pointing at the pre-signed flow', async () => {
    const big = Buffer.concat([await pagesPdf(1), Buffer.alloc(7 * 1024 * 1024, 0x20)]);
    const res = await raw(`${svc.url}/v1/documents`, { method: 'POST', key: svc.keys[0], body: fileForm(big, 'big.pdf') });
    const err = errorBody(res, 400, 'file_too_large');
    assert.match(err.message, /6 MB/);
    assert.match(err.message, /\/v1\/documents\/upload_url/);
    const list = await client.listDocuments({ search_term: 'big.pdf' });
    assert.equal(list.files.length, 0, 'nothing is stored for a rejected upload');
  });

  test('rejects malformed multipart bodies and empty files with 400', async () => {
    const noBoundary = await raw(`${svc.url}/v1/documents`, { method: 'POST', key: svc.keys[0], body: 'x', headers: { 'content-type': 'multipart/form-data' } });
    assert.match(errorBody(noBoundary, 400, 'invalid_request').message, /multipart/);
    const truncated = await raw(`${svc.url}/v1/documents`, {
      method: 'POST',
      key: svc.keys[0],
      body: '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 cut off',
      headers: { 'content-type': 'multipart/form-data; boundary=abc' },
    });
    assert.match(errorBody(truncated, 400, 'invalid_request').message, /multipart/);
    const empty = await raw(`${svc.url}/v1/documents`, { method: 'POST', key: svc.keys[0], body: fileForm(Buffer.alloc(0), 'empty.pdf') });
    assert.match(errorBody(empty, 400, 'unsupported_file_type').message, /empty file/);
  });

  test('refuses a second file part with 400 and stores neither', async () => {
    const form = fileForm(await pagesPdf(1), 'first-of-two.pdf');
    form.append('file', new Blob([await pagesPdf(1)]), 'second-of-two.pdf');
    const res = await raw(`${svc.url}/v1/documents`, { method: 'POST', key: svc.keys[0], body: form });
    assert.match(errorBody(res, 400, 'invalid_request').message, /exactly one file part/);
    assert.equal((await client.listDocuments({ search_term: 'of-two' })).files.length, 0);
  });

  test('rejects a multipart body whose part is not named file', async () => {
    const res = await raw(`${svc.url}/v1/documents`, { method: 'POST', key: svc.keys[0], body: fileForm(await pagesPdf(1), 'a.pdf', 'document') });
    assert.match(errorBody(res, 400, 'invalid_request').message, /`file`/);
  });
});

describe('GET /v1/documents/{document_id}', () => {
  test('returns parser_runs and a storage_key that downloads the stored bytes without a key', async () => {
    const bytes = await pagesPdf(1, 'Download me');
    const up = await client.uploadMultipart(await files.write('dl.pdf', bytes));
    svc.service.context.repos.documents.addParserRun({
      document_id: up.document_id,
      template_id: '11111111-2222-4333-8444-555555555555',
      template_title: 'Invoices',
      request_id: '66666666-7777-4888-9999-000000000000',
      params: { use_ocr: false, query_model: 'model-4o-mini' },
      datetime: specTimestamp(),
    });
    const doc = await client.getDocument(up.document_id);
    assert.equal(doc.parser_runs.length, 1);
    assert.equal(doc.parser_runs[0].template_title, 'Invoices');
    assert.deepEqual(doc.parser_runs[0].params, { use_ocr: false, query_model: 'model-4o-mini' });
    assert.ok(doc.storage_key);
    const res = await request(doc.storage_key);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.deepEqual(Buffer.from(await res.body.arrayBuffer()), bytes);
  });

  test('answers XML for Accept: application/xml', async () => {
    const up = await client.uploadMultipart(await files.write('x&y.pdf', await pagesPdf(1)));
    const res = await raw(`${svc.url}/v1/documents/${up.document_id}`, { key: svc.keys[0], headers: { accept: 'application/xml' } });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/xml/);
    assert.match(res.text, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<document>/);
    assert.ok(res.text.includes(`<document_id>${up.document_id}</document_id>`));
    assert.ok(res.text.includes('<file_name>x&amp;y.pdf</file_name>'));
    assert.ok(res.text.includes('<meta_tags></meta_tags>'));
    assert.ok(res.text.includes('<parser_runs></parser_runs>'));
    assert.ok(res.text.includes('<storage_key>http://'));
  });

  test('answers JSON by default and for Accept: application/json', async () => {
    const up = await client.uploadMultipart(await files.write('j.pdf', await pagesPdf(1)));
    const res = await raw(`${svc.url}/v1/documents/${up.document_id}`, { key: svc.keys[0], headers: { accept: 'application/json' } });
    assert.equal(res.json.document_id, up.document_id);
  });
});

describe('GET /v1/documents', () => {
  test('pages with limit and pagination_key, newest first, the key present only while more exist', async () => {
    const other = await startTestService();
    try {
      const c = clientFor(other.url, other.keys[0]);
      const ids: string[] = [];
      const pdf = await files.write('page.pdf', await pagesPdf(1));
      for (let i = 0; i < 5; i++) ids.push((await c.uploadMultipart(pdf, { fileName: `doc-${i}.pdf` })).document_id);
      const first = await c.listDocuments({ limit: 2 });
      assert.equal(first.files.length, 2);
      assert.ok(first.pagination_key);
      const lastOfPage = first.files[1];
      assert.deepEqual(first.pagination_key, { document_id: lastOfPage.document_id, created_at: lastOfPage.created_at });
      assert.ok(first.files.every((f) => typeof f.storage_key === 'string'));
      const seen: string[] = [];
      for await (const d of c.iterateDocuments({ limit: 2 })) seen.push(d.document_id);
      assert.deepEqual(seen, [...ids].reverse());
      const tail = await c.listDocuments({ limit: 2, document_id: seen[3], created_at: (await c.getDocument(seen[3])).created_at });
      assert.deepEqual(tail.files.map((f) => f.document_id), [seen[4]]);
      assert.equal('pagination_key' in tail, false);
      const all = await c.listDocuments();
      assert.equal(all.files.length, 5, 'default limit 100 covers all');
      assert.equal('pagination_key' in all, false);
    } finally {
      await other.close();
    }
  });

  test('search_term matches the file name or the text an extraction stored', async () => {
    const pdf = await files.write('s.pdf', await pagesPdf(1));
    const byName = await client.uploadMultipart(pdf, { fileName: 'Quarterly-REPORT-2026.pdf' });
    const byContent = await client.uploadMultipart(pdf, { fileName: 'scan-0001.pdf' });
    svc.service.context.repos.documents.setContent(byContent.document_id, 'Invoice from Zebracorp Ltd', specTimestamp());
    assert.deepEqual((await client.listDocuments({ search_term: 'quarterly-report' })).files.map((f) => f.document_id), [byName.document_id]);
    assert.deepEqual((await client.listDocuments({ search_term: 'zebracorp' })).files.map((f) => f.document_id), [byContent.document_id]);
    assert.deepEqual((await client.listDocuments({ search_term: 'no-such-thing-anywhere' })).files, []);
  });

  test('lists only the documents of the calling account', async () => {
    const mine = await client.uploadMultipart(await files.write('mine.pdf', await pagesPdf(1)), { fileName: 'account-a-only.pdf' });
    const theirs = clientFor(svc.url, svc.keys[1]);
    assert.deepEqual((await theirs.listDocuments({ search_term: 'account-a-only' })).files, []);
    assert.equal((await client.listDocuments({ search_term: 'account-a-only' })).files[0].document_id, mine.document_id);
  });

  test('rejects a bad limit and a half pagination key with 400 naming the parameter', async () => {
    const bad = await raw(`${svc.url}/v1/documents?limit=zero`, { key: svc.keys[0] });
    assert.match(errorBody(bad, 400, 'invalid_request').message, /limit/);
    const neg = await raw(`${svc.url}/v1/documents?limit=0`, { key: svc.keys[0] });
    assert.match(errorBody(neg, 400, 'invalid_request').message, /limit/);
    const huge = await raw(`${svc.url}/v1/documents?limit=99999999999`, { key: svc.keys[0] });
    assert.match(errorBody(huge, 400, 'invalid_request').message, /query limit: expected an integer from 1 to 1000, received "99999999999"/);
    const half = await raw(`${svc.url}/v1/documents?document_id=11111111-2222-4333-8444-555555555555`, { key: svc.keys[0] });
    assert.match(errorBody(half, 400, 'invalid_request').message, /created_at/);
  });

  test('the stored bytes equal the uploaded ones', async () => {
    const bytes = await png(64, 64);
    const path = await files.write('same.png', bytes);
    const doc = await client.getDocument((await client.uploadMultipart(path)).document_id);
    const res = await request(doc.storage_key!);
    assert.equal(res.headers['content-type'], 'image/png');
    assert.deepEqual(Buffer.from(await res.body.arrayBuffer()), await readFile(path));
  });
});
