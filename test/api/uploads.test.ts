import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../../src/api/api-error.js';
import { MULTIPART_MAX_BYTES, ServiceClient } from '../../src/api/client.js';
import { parseMultipart, sendError, sendJson, startServer, type RecordingServer } from './recording-server.js';

const KEY = 'upload-key';
let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docdrop-api-uploads-'));
});
after(() => rm(dir, { recursive: true, force: true }));

function pdfBytes(size: number): Buffer {
  const b = randomBytes(size);
  b.write('%PDF-1.7\n', 0, 'latin1');
  return b;
}

const doc = (id: string, name: string) => ({ document_id: id, file_name: name, file_extension: 'pdf', num_pages: 1 });

/** A service double for the upload endpoints: multipart, upload_url, pre-signed PUT, confirm. */
async function uploadServer(opts: { failFirstPut?: boolean } = {}): Promise<RecordingServer> {
  let puts = 0;
  const server: RecordingServer = await startServer((req, res) => {
    if (req.method === 'POST' && req.path === '/v1/documents') {
      if (req.headers['content-type']?.startsWith('multipart/')) {
        const file = parseMultipart(req.body, req.headers['content-type']).find((p) => p.name === 'file');
        return sendJson(res, 200, doc('multi-1', file?.filename ?? '?'));
      }
      const body = JSON.parse(req.body.toString()) as { document_id: string; file_name: string };
      return sendJson(res, 200, { ...doc(body.document_id, body.file_name), storage_key: 'x' });
    }
    if (req.path === '/v1/documents/upload_url') {
      return sendJson(res, 200, { document_id: 'big-1', upload_url: `${server.baseUrl}/presigned/put/big-1?expires=9&sig=TOPSECRET` });
    }
    if (req.method === 'PUT' && req.path.startsWith('/presigned/')) {
      if (opts.failFirstPut && puts++ === 0) return sendError(res, 503, 'internal_error', 'try again');
      res.writeHead(200);
      return res.end();
    }
    sendError(res, 404, 'not_found', `no route ${req.method} ${req.path}`);
  });
  return server;
}

describe('multipart upload', () => {
  test('streams the exact file bytes in the form field `file` with its name and type', async () => {
    const server = await uploadServer();
    try {
      const bytes = pdfBytes(300_000);
      const path = join(dir, 'invoice.pdf');
      await writeFile(path, bytes);
      const got = await new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY }).uploadMultipart(path);
      assert.equal(got.document_id, 'multi-1');
      const req = server.requests[0];
      assert.equal(req.headers['x-api-key'], KEY);
      const parts = parseMultipart(req.body, req.headers['content-type']);
      assert.deepEqual(parts.map((p) => p.name), ['file']);
      assert.equal(parts[0].filename, 'invoice.pdf');
      assert.equal(parts[0].type, 'application/pdf');
      assert.ok(parts[0].data.equals(bytes), 'server received the exact file bytes');
      assert.equal(Number(req.headers['content-length']), req.body.length);
    } finally {
      await server.close();
    }
  });

  test('uploadDocument sends files up to 6 MB as multipart, under the given fileName', async () => {
    const server = await uploadServer();
    try {
      const path = join(dir, 'exact.pdf');
      await writeFile(path, pdfBytes(MULTIPART_MAX_BYTES));
      const got = await new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY }).uploadDocument(path, { fileName: 'renamed.pdf' });
      assert.equal(got.file_name, 'renamed.pdf');
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.path}`), ['POST /v1/documents']);
    } finally {
      await server.close();
    }
  });
});

test('re-opens the file when a multipart upload is retried after a dropped connection', async () => {
  const bytes = pdfBytes(100_000);
  const path = join(dir, 'dropped.pdf');
  await writeFile(path, bytes);
  const server = await startServer((req, res, i) => {
    if (i === 0) return res.socket?.destroy();
    const file = parseMultipart(req.body, req.headers['content-type']).find((p) => p.name === 'file');
    sendJson(res, 200, doc('d2', file?.filename ?? '?'));
  });
  try {
    const c = new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY, retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2 } });
    assert.equal((await c.uploadMultipart(path)).document_id, 'd2');
    assert.equal(server.requests.length, 2);
    assert.ok(parseMultipart(server.requests[1].body, server.requests[1].headers['content-type'])[0].data.equals(bytes));
  } finally {
    await server.close();
  }
});

describe('pre-signed upload', () => {
  test('uploadDocument takes the pre-signed flow above 6 MB: upload_url, PUT without key, confirm', async () => {
    const server = await uploadServer();
    try {
      const bytes = pdfBytes(7 * 1024 * 1024);
      const path = join(dir, 'big.pdf');
      await writeFile(path, bytes);
      const got = await new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY }).uploadDocument(path);
      assert.equal(got.document_id, 'big-1');
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.path}`), [
        'GET /v1/documents/upload_url',
        'PUT /presigned/put/big-1',
        'POST /v1/documents',
      ]);
      const [urlReq, put, confirm] = server.requests;
      assert.equal(urlReq.query.get('file_name'), 'big.pdf');
      assert.equal(put.headers['x-api-key'], undefined);
      assert.equal(put.headers['content-type'], 'application/pdf');
      assert.equal(Number(put.headers['content-length']), bytes.length);
      assert.ok(put.body.equals(bytes), 'PUT carried the exact file bytes');
      assert.equal(confirm.headers['x-api-key'], KEY);
      assert.deepEqual(JSON.parse(confirm.body.toString()), { document_id: 'big-1', file_name: 'big.pdf' });
    } finally {
      await server.close();
    }
  });

  test('uploadDocument PUTs a large PDF with junk before its %PDF- header and no extension as application/pdf', async () => {
    const server = await uploadServer();
    try {
      const bytes = Buffer.concat([Buffer.from('From scanner 7\r\n\r\n', 'latin1'), pdfBytes(7 * 1024 * 1024)]);
      const path = join(dir, 'scanned-invoice');
      await writeFile(path, bytes);
      await new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY }).uploadDocument(path);
      const put = server.requests.find((r) => r.method === 'PUT');
      assert.equal(put?.headers['content-type'], 'application/pdf');
    } finally {
      await server.close();
    }
  });

  test('putUpload sends the Content-Type of the file type, sniffed from the bytes before the extension', async () => {
    const server = await uploadServer();
    try {
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
      const tiff = Buffer.from([0x49, 0x49, 0x2a, 0x00, 9, 9]);
      const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]);
      await writeFile(join(dir, 'scan.png'), png);
      await writeFile(join(dir, 'scan.tif'), tiff);
      await writeFile(join(dir, 'photo.pdf'), jpeg); // mislabelled: the bytes say JPEG
      const c = new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY });
      const url = `${server.baseUrl}/presigned/put/x?sig=1`;
      await c.putUpload(url, join(dir, 'scan.png'));
      await c.putUpload(url, join(dir, 'scan.tif'));
      await c.putUpload(url, join(dir, 'photo.pdf'));
      assert.deepEqual(server.requests.map((r) => r.headers['content-type']), ['image/png', 'image/tiff', 'image/jpeg']);
      assert.ok(server.requests[0].body.equals(png));
    } finally {
      await server.close();
    }
  });

  test('re-opens the file stream when a PUT is retried, sending the whole file again', async () => {
    const server = await uploadServer({ failFirstPut: true });
    try {
      const bytes = pdfBytes(200_000);
      const path = join(dir, 'retry.pdf');
      await writeFile(path, bytes);
      const c = new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY, retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2 } });
      await c.putUpload(`${server.baseUrl}/presigned/put/r?sig=1`, path, 'application/pdf');
      assert.equal(server.requests.length, 2);
      assert.ok(server.requests[1].body.equals(bytes));
    } finally {
      await server.close();
    }
  });

  test('never puts the pre-signed query string into an error message', async () => {
    const server = await startServer((_req, res) => sendError(res, 403, 'url_expired', 'pre-signed URL expired'));
    try {
      const path = join(dir, 'x.pdf');
      await writeFile(path, pdfBytes(10));
      const err = await new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY })
        .putUpload(`${server.baseUrl}/presigned/put/x?expires=1&sig=TOPSECRET`, path)
        .catch((e: unknown) => e);
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, 'url_expired');
      assert.ok(!err.message.includes('TOPSECRET'));
      assert.match(err.message, /PUT http:\/\/127\.0\.0\.1:\d+\/presigned\/put\/x/);
    } finally {
      await server.close();
    }
  });
});

describe('download', () => {
  test('streams a pre-signed URL to disk without the API key', async () => {
    const bytes = randomBytes(1_500_000);
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(bytes);
    });
    try {
      const dest = join(dir, 'out.bin');
      const n = await new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY }).download(`${server.baseUrl}/dl/out?sig=s`, dest);
      assert.equal(n, bytes.length);
      assert.ok((await readFile(dest)).equals(bytes));
      assert.equal(server.requests[0].headers['x-api-key'], undefined);
      await assert.rejects(stat(`${dest}.part`), { code: 'ENOENT' });
    } finally {
      await server.close();
    }
  });

  test('starts a download over when the connection drops mid-body', async () => {
    const bytes = randomBytes(400_000);
    const server = await startServer((_req, res, i) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(bytes.length) });
      if (i === 0) return res.write(bytes.subarray(0, 100_000), () => res.destroy());
      res.end(bytes);
    });
    try {
      const dest = join(dir, 'resumed.pdf');
      const c = new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY, retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2 } });
      assert.equal(await c.download(`${server.baseUrl}/dl/r?sig=s`, dest), bytes.length);
      assert.ok((await readFile(dest)).equals(bytes));
      assert.equal(server.requests.length, 2);
    } finally {
      await server.close();
    }
  });

  test('leaves no file behind when the download fails', async () => {
    const server = await startServer((_req, res) => sendError(res, 403, 'invalid_signature', 'bad signature'));
    try {
      const dest = join(dir, 'never.bin');
      await assert.rejects(new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY }).download(`${server.baseUrl}/dl?sig=x`, dest), {
        status: 403,
        code: 'invalid_signature',
      });
      await assert.rejects(stat(dest), { code: 'ENOENT' });
    } finally {
      await server.close();
    }
  });
});
