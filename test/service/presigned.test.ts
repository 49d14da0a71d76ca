// Spec rows: GET /v1/documents/upload_url, the large-file PUT, POST /v1/documents (confirm), and the
// pre-signed URLs' own authorization (no key; tampered -> 403, expired -> 403).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceClient } from '../../src/api/client.js';
import { createPresigner, loadSecret } from '../../src/service/presign.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { clientFor, errorBody, pagesPdf, raw, tempFiles, UUID_RE, type TempFiles } from '../helpers/service-fixtures.js';

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

/** A presigner with the service's own secret whose clock runs `offsetMs` away from now. */
function skewedPresigner(offsetMs: number) {
  return createPresigner({ secret: loadSecret(svc.dataDir), baseUrl: () => svc.url, defaultTtlSeconds: 60, now: () => Date.now() + offsetMs });
}

describe('large-file flow', () => {
  test('upload_url reserves a document id; PUT without key, then confirm returns the Document', async () => {
    // 8 MB: over the multipart limit, so the client takes the pre-signed flow on its own.
    const big = Buffer.concat([await pagesPdf(2), Buffer.alloc(8 * 1024 * 1024, 0x0a)]);
    const path = await files.write('big.pdf', big);
    const doc = await client.uploadDocument(path, { fileName: 'big-report.pdf' });
    assert.match(doc.document_id, UUID_RE);
    assert.equal(doc.file_name, 'big-report.pdf');
    assert.equal(doc.file_extension, 'pdf');
    assert.equal(doc.num_pages, 2);
    assert.ok(doc.storage_key, 'confirm answers a full Document with storage_key');
    const got = await client.getDocument(doc.document_id);
    assert.equal(got.num_pages, 2);
    assert.equal((await stat(join(svc.dataDir, 'files', 'documents', doc.document_id))).size, big.length);
  });

  test('the PUT takes any Content-Type, or none', async () => {
    for (const type of ['application/octet-stream', 'text/plain', undefined]) {
      const { upload_url, document_id } = await client.getUploadUrl('any.pdf');
      const headers: Record<string, string> = type ? { 'content-type': type } : {};
      const put = await raw(upload_url, { method: 'PUT', body: await pagesPdf(1), headers });
      assert.equal(put.status, 200, `${type}: ${put.text}`);
      const doc = await client.confirmUpload(document_id, 'any.pdf');
      assert.equal(doc.num_pages, 1);
    }
  });

  test('a reserved id is not listed or readable until confirmed', async () => {
    const { document_id } = await client.getUploadUrl('pending.pdf');
    errorBody(await raw(`${svc.url}/v1/documents/${document_id}`, { key: svc.keys[0] }), 404, 'not_found');
    const listed = await client.listDocuments({ search_term: 'pending.pdf' });
    assert.equal(listed.files.length, 0);
  });

  test('confirm without a PUT gives 400 upload_missing', async () => {
    const { document_id } = await client.getUploadUrl('never.pdf');
    const res = await raw(`${svc.url}/v1/documents`, { method: 'POST', key: svc.keys[0], json: { document_id, file_name: 'never.pdf' } });
    assert.match(errorBody(res, 400, 'upload_missing').message, /upload_url/);
  });

  test('confirm of an unsupported file gives 400 unsupported_file_type', async () => {
    const { upload_url, document_id } = await client.getUploadUrl('text.pdf');
    assert.equal((await raw(upload_url, { method: 'PUT', body: 'plain text' })).status, 200);
    const res = await raw(`${svc.url}/v1/documents`, { method: 'POST', key: svc.keys[0], json: { document_id, file_name: 'text.pdf' } });
    errorBody(res, 400, 'unsupported_file_type');
  });

  test('confirm checks its body: unknown id 400, missing file_name 400, another account 403', async () => {
    const unknown = await raw(`${svc.url}/v1/documents`, { method: 'POST', key: svc.keys[0], json: { document_id: '11111111-2222-4333-8444-555555555555', file_name: 'x.pdf' } });
    assert.match(errorBody(unknown, 400, 'invalid_request').message, /document_id/);
    const { document_id } = await client.getUploadUrl('mine.pdf');
    const noName = await raw(`${svc.url}/v1/documents`, { method: 'POST', key: svc.keys[0], json: { document_id } });
    assert.match(errorBody(noName, 400, 'invalid_request').message, /file_name/);
    const notUuid = await raw(`${svc.url}/v1/documents`, { method: 'POST', key: svc.keys[0], json: { document_id: 'abc', file_name: 'x.pdf' } });
    assert.match(errorBody(notUuid, 400, 'invalid_request').message, /document_id: expected a UUID/);
    const other = await raw(`${svc.url}/v1/documents`, { method: 'POST', key: svc.keys[1], json: { document_id, file_name: 'mine.pdf' } });
    errorBody(other, 403, 'forbidden');
  });

  test('upload_url requires file_name', async () => {
    const res = await raw(`${svc.url}/v1/documents/upload_url`, { key: svc.keys[0] });
    assert.match(errorBody(res, 400, 'invalid_request').message, /file_name/);
  });

  test('the PUT refuses files over the configured cap with 400 file_too_large', async () => {
    const small = await startTestService({ maxUploadBytes: 1000 });
    try {
      const c = clientFor(small.url, small.keys[0]);
      const { upload_url } = await c.getUploadUrl('a.pdf');
      const res = await raw(upload_url, { method: 'PUT', body: Buffer.alloc(5000, 0x41) });
      assert.match(errorBody(res, 400, 'file_too_large').message, /1000 bytes/);
    } finally {
      await small.close();
    }
  });
});

describe('pre-signed URL authorization', () => {
  test('a tampered signature gives 403 invalid_signature', async () => {
    const { upload_url } = await client.getUploadUrl('t.pdf');
    const u = new URL(upload_url);
    const sig = u.searchParams.get('signature')!;
    u.searchParams.set('signature', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    errorBody(await raw(u.toString(), { method: 'PUT', body: await pagesPdf(1) }), 403, 'invalid_signature');
  });

  test('a signature is bound to its path, method and expiry', async () => {
    const a = new URL((await client.getUploadUrl('a.pdf')).upload_url);
    const b = new URL((await client.getUploadUrl('b.pdf')).upload_url);
    // a's signature on b's path
    errorBody(await raw(`${b.origin}${b.pathname}${a.search}`, { method: 'PUT', body: 'x' }), 403, 'invalid_signature');
    // a PUT URL used for GET
    const getRes = await raw(`${svc.url}/presigned/documents/${a.pathname.split('/').at(-1)}/a.pdf${a.search}`);
    errorBody(getRes, 403, 'invalid_signature');
    // stretched expiry
    const later = new URL(a);
    later.searchParams.set('expires', String(Number(a.searchParams.get('expires')) + 3600));
    errorBody(await raw(later.toString(), { method: 'PUT', body: 'x' }), 403, 'invalid_signature');
    // no signature at all
    errorBody(await raw(`${a.origin}${a.pathname}`, { method: 'PUT', body: 'x' }), 403, 'invalid_signature');
  });

  test('an expired upload URL gives 403 url_expired', async () => {
    const { document_id } = await client.getUploadUrl('late.pdf');
    const expired = skewedPresigner(-2 * 3600 * 1000).url('PUT', `/presigned/uploads/${document_id}`, 60);
    const res = await raw(expired, { method: 'PUT', body: await pagesPdf(1) });
    assert.match(errorBody(res, 403, 'url_expired').message, /expired/);
  });

  test('an expired storage_key gives 403 url_expired; a fresh one downloads without the key', async () => {
    const doc = await client.uploadMultipart(await files.write('k.pdf', await pagesPdf(1)));
    const path = `/presigned/documents/${doc.document_id}/k.pdf`;
    errorBody(await raw(skewedPresigner(-2 * 3600 * 1000).url('GET', path, 60)), 403, 'url_expired');
    const fresh = await raw(skewedPresigner(0).url('GET', path, 60));
    assert.equal(fresh.status, 200);
  });

  test('storage_key URLs expire after the documented hour by default', async () => {
    const doc = await client.getDocument((await client.uploadMultipart(await files.write('h.pdf', await pagesPdf(1)))).document_id);
    const expires = Number(new URL(doc.storage_key!).searchParams.get('expires'));
    const ttl = expires - Math.floor(Date.now() / 1000);
    assert.ok(ttl > 3500 && ttl <= 3600, `ttl ${ttl}`);
    const up = await client.getUploadUrl('u.pdf');
    const upTtl = Number(new URL(up.upload_url).searchParams.get('expires')) - Math.floor(Date.now() / 1000);
    assert.ok(upTtl > 850 && upTtl <= 900, `upload ttl ${upTtl}`);
  });

  test('the presign secret lives in the data dir with mode 600', async () => {
    const st = await stat(join(svc.dataDir, 'presign.key'));
    assert.equal(st.mode & 0o777, 0o600);
  });
});
