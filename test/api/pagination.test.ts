import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client.js';
import { sendError, sendJson, startServer, type RecordingServer } from './recording-server.js';

// Three pages of each list; the service double hands out keys exactly as the spec describes them.
const docs = Array.from({ length: 5 }, (_, i) => ({ document_id: `d${i}`, created_at: `2026-01-0${i + 1}T00:00:00.000000` }));
const templates = Array.from({ length: 5 }, (_, i) => ({ template_id: `t${i}` }));
const classifiers = Array.from({ length: 3 }, (_, i) => ({ classifier_id: `c${i}` }));

function page<T>(items: T[], afterIndex: number, size: number) {
  const slice = items.slice(afterIndex + 1, afterIndex + 1 + size);
  const more = afterIndex + 1 + size < items.length;
  return { slice, more };
}

let server: RecordingServer;
before(async () => {
  server = await startServer((req, res) => {
    if (req.path === '/v1/documents') {
      const limit = Number(req.query.get('limit') ?? 100);
      const key = req.query.get('document_id');
      if (key && !req.query.get('created_at')) return sendError(res, 400, 'invalid_request', 'created_at missing');
      const { slice, more } = page(docs, key ? docs.findIndex((d) => d.document_id === key) : -1, limit);
      const last = slice[slice.length - 1];
      return sendJson(res, 200, { files: slice, ...(more ? { pagination_key: { document_id: last.document_id, created_at: last.created_at } } : {}) });
    }
    if (req.path === '/v1/templates') {
      const key = req.query.get('pagination_key');
      const { slice, more } = page(templates, key ? templates.findIndex((t) => t.template_id === key) : -1, 2);
      return sendJson(res, 200, { success: true, items: slice, pagination_key: more ? slice[slice.length - 1].template_id : null });
    }
    if (req.path === '/v1/classifiers') {
      const key = req.query.get('pagination_key');
      const { slice, more } = page(classifiers, key ? classifiers.findIndex((c) => c.classifier_id === key) : -1, 2);
      return sendJson(res, 200, { success: true, items: slice, pagination_key: more ? slice[slice.length - 1].classifier_id : null });
    }
    sendError(res, 404, 'not_found', req.path);
  });
});
after(() => server.close());

const client = () => new ServiceClient({ baseUrl: server.baseUrl, apiKey: 'k' });

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

test('iterateDocuments passes pagination_key back as document_id and created_at until none is returned', async () => {
  const start = server.requests.length;
  const got = await collect(client().iterateDocuments({ limit: 2, search_term: 'inv' }));
  assert.deepEqual(got.map((d) => d.document_id), ['d0', 'd1', 'd2', 'd3', 'd4']);
  const reqs = server.requests.slice(start);
  assert.equal(reqs.length, 3);
  assert.equal(reqs[0].query.get('document_id'), null);
  assert.equal(reqs[1].query.get('document_id'), 'd1');
  assert.equal(reqs[1].query.get('created_at'), docs[1].created_at);
  assert.equal(reqs[2].query.get('document_id'), 'd3');
  assert.ok(reqs.every((r) => r.query.get('limit') === '2' && r.query.get('search_term') === 'inv'));
});

test('iterateTemplates follows the string pagination_key until it is null', async () => {
  const start = server.requests.length;
  const got = await collect(client().iterateTemplates());
  assert.deepEqual(got.map((t) => t.template_id), ['t0', 't1', 't2', 't3', 't4']);
  assert.deepEqual(server.requests.slice(start).map((r) => r.query.get('pagination_key')), [null, 't1', 't3']);
});

test('iterateClassifiers follows the classifier_id key until it is null', async () => {
  const start = server.requests.length;
  const got = await collect(client().iterateClassifiers());
  assert.deepEqual(got.map((c) => c.classifier_id), ['c0', 'c1', 'c2']);
  assert.deepEqual(server.requests.slice(start).map((r) => r.query.get('pagination_key')), [null, 'c1']);
});
