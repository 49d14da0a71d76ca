import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import PQueue from 'p-queue';
import { ApiError } from '../../src/api/api-error.js';
import { ServiceClient } from '../../src/api/client.js';
import { sendError, sendJson, startServer, type RecordingServer } from './recording-server.js';

const KEY = 'secret-key-123';

function client(server: RecordingServer, extra: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {}) {
  return new ServiceClient({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    retry: { retries: 3, minDelayMs: 1, maxDelayMs: 5 },
    ...extra,
  });
}

const job = { request_id: 'r1', request_status: 'pending', classification: null, confidence_scores: null };

describe('error bodies', () => {
  let server: RecordingServer;
  before(async () => {
    server = await startServer((req, res) => {
      if (req.path === '/v1/templates/missing') return sendError(res, 404, 'not_found', 'no Workflow missing');
      if (req.path === '/v1/documents') return sendError(res, 400, 'invalid_request', 'limit: expected an integer');
      if (req.path === '/html') {
        res.writeHead(502, { 'content-type': 'text/html' });
        return res.end('<html>bad gateway</html>');
      }
      sendJson(res, 200, { ok: true });
    });
  });
  after(() => server.close());

  test('turns the Error body into ApiError with status, code and message naming the path', async () => {
    const err = await client(server).getTemplate('missing').catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 404);
    assert.equal(err.code, 'not_found');
    assert.equal(err.detail, 'no Workflow missing');
    assert.equal(err.method, 'GET');
    assert.equal(err.path, '/v1/templates/missing');
    assert.match(err.message, /GET \/v1\/templates\/missing/);
    assert.match(err.message, /no Workflow missing/);
    assert.equal(err.retryable, false);
    assert.ok(!err.message.includes(KEY));
  });

  test('does not retry 400 or 404', async () => {
    const before = server.requests.length;
    await assert.rejects(client(server).listDocuments({ limit: 5 }), { status: 400, code: 'invalid_request' });
    await assert.rejects(client(server).getTemplate('missing'), { status: 404 });
    assert.equal(server.requests.length - before, 2);
  });

  test('keeps a status-derived code and a preview when the error body is not JSON', async () => {
    const http = client(server, { retry: false });
    // Reach the /html route through the generic getter of a pre-signed download.
    const err = await http.download(`${server.baseUrl}/html`, '/nonexistent/never-written').catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 502);
    assert.equal(err.code, 'http_502');
    assert.match(err.detail, /bad gateway/);
    assert.equal(err.retryable, true);
  });
});

describe('retries', () => {
  test('retries a 429 and waits at least its Retry-After', async () => {
    const server = await startServer((_req, res, i) =>
      i === 0 ? sendError(res, 429, 'rate_limited', 'slow down', { 'retry-after': '2' }) : sendJson(res, 200, job),
    );
    const waits: number[] = [];
    try {
      const got = await client(server, { sleep: async (ms) => void waits.push(ms) }).getJob('r1');
      assert.equal(got.request_id, 'r1');
      assert.equal(server.requests.length, 2);
      assert.equal(waits.length, 1);
      assert.ok(waits[0] >= 2000, `waited ${waits[0]} ms, Retry-After asked 2000`);
    } finally {
      await server.close();
    }
  });

  test('gives a 429 whose Retry-After exceeds maxRetryAfterMs to the caller with the wait', async () => {
    const server = await startServer((_req, res) => sendError(res, 429, 'rate_limited', 'later', { 'retry-after': '600' }));
    try {
      const err = await client(server, { retry: { retries: 3, minDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 10_000 } })
        .getJob('r1')
        .catch((e: unknown) => e);
      assert.ok(err instanceof ApiError);
      assert.equal(err.status, 429);
      assert.equal(err.retryAfterMs, 600_000);
      assert.equal(err.retryable, true);
      assert.equal(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });

  test('retries 503 until success', async () => {
    const server = await startServer((_req, res, i) => (i < 2 ? sendError(res, 503, 'internal_error', 'down') : sendJson(res, 200, job)));
    try {
      const got = await client(server).getJob('r1');
      assert.equal(got.request_status, 'pending');
      assert.equal(server.requests.length, 3);
    } finally {
      await server.close();
    }
  });

  test('stops after the configured retries and throws the last error', async () => {
    const server = await startServer((_req, res) => sendError(res, 500, 'internal_error', 'boom'));
    try {
      await assert.rejects(client(server).getJob('r1'), { status: 500, code: 'internal_error' });
      assert.equal(server.requests.length, 4);
    } finally {
      await server.close();
    }
  });

  test('retries a dropped connection (socket destroyed)', async () => {
    const server = await startServer((_req, res, i) => (i === 0 ? res.socket?.destroy() : sendJson(res, 200, job)));
    try {
      const got = await client(server).getJob('r1');
      assert.equal(got.request_id, 'r1');
      assert.equal(server.requests.length, 2);
    } finally {
      await server.close();
    }
  });

  test('reports a dropped connection as a retryable network_error with status 0 when retries are off', async () => {
    const server = await startServer((_req, res) => res.socket?.destroy());
    try {
      const err = await client(server, { retry: false }).getJob('r1').catch((e: unknown) => e);
      assert.ok(err instanceof ApiError);
      assert.equal(err.status, 0);
      assert.equal(err.code, 'network_error');
      assert.equal(err.retryable, true);
      assert.equal(err.path, '/files?request_id=r1');
    } finally {
      await server.close();
    }
  });

  test('times out a request whose response never comes, then retries it', async () => {
    const server = await startServer((_req, res, i) => {
      if (i > 0) sendJson(res, 200, job);
      // first request: never answered; the client's timeout must end it
    });
    try {
      const statuses: number[] = [];
      const got = await client(server, { timeoutMs: 200, onRequest: (info) => statuses.push(info.status) }).getJob('r1');
      assert.equal(got.request_id, 'r1');
      assert.deepEqual(statuses, [0, 200]);
    } finally {
      await server.close();
    }
  });

  test('reports a timeout as code timeout without retries', async () => {
    const server = await startServer(() => {});
    try {
      await assert.rejects(client(server, { timeoutMs: 150, retry: false }).getJob('r1'), { code: 'timeout', status: 0 });
    } finally {
      await server.close();
    }
  });
});

describe('limiter and onRequest', () => {
  test('every attempt passes through the limiter and reaches onRequest', async () => {
    const server = await startServer((req, res, i) => {
      if (req.path === '/files' && i === 0) return sendError(res, 503, 'internal_error', 'once');
      if (req.path === '/files') return sendJson(res, 200, job);
      sendJson(res, 200, { success: true, items: [], pagination_key: null });
    });
    let limited = 0;
    const seen: { method: string; path: string; status: number }[] = [];
    try {
      const c = client(server, {
        limiter: async (fn) => {
          limited++;
          return fn();
        },
        onRequest: (info) => seen.push(info),
      });
      await c.getJob('r1');
      await c.listTemplates();
      await c.deleteTemplate('t1').catch(() => undefined);
      assert.equal(limited, server.requests.length);
      assert.equal(limited, 4);
      assert.deepEqual(seen.slice(0, 3), [
        { method: 'GET', path: '/files', status: 503 },
        { method: 'GET', path: '/files', status: 200 },
        { method: 'GET', path: '/v1/templates', status: 200 },
      ]);
    } finally {
      await server.close();
    }
  });

  test('accepts a p-queue as limiter and lets it bound concurrent requests', async () => {
    let open = 0;
    let maxOpen = 0;
    const server = await startServer((_req, res) => {
      maxOpen = Math.max(maxOpen, ++open);
      setTimeout(() => {
        open--;
        sendJson(res, 200, job);
      }, 20);
    });
    try {
      const queue = new PQueue({ concurrency: 2 });
      const c = client(server, { limiter: (fn) => queue.add(fn) });
      const jobs = await Promise.all(Array.from({ length: 6 }, () => c.getJob('r1')));
      assert.equal(jobs.length, 6);
      assert.equal(server.requests.length, 6);
      assert.equal(maxOpen, 2);
    } finally {
      await server.close();
    }
  });

  test('sends x-api-key on API requests', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, job));
    try {
      await client(server).getJob('r1');
      assert.equal(server.requests[0].headers['x-api-key'], KEY);
    } finally {
      await server.close();
    }
  });
});
