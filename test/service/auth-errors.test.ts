// Spec rows: Authentication 1-3 and 6, Errors 400/401/403/404/500 with the Error body, on every
// endpoint this side serves.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../helpers/service.js';
import { clientFor, errorBody, fileForm, pagesPdf, raw } from '../helpers/service-fixtures.js';
import { ApiError } from '../../src/api/api-error.js';

let svc: TestService;
const UNKNOWN = '11111111-2222-4333-8444-555555555555';

before(async () => {
  svc = await startTestService();
});
after(() => svc.close());

const endpoints: [string, string][] = [
  ['POST', '/v1/documents'],
  ['GET', '/v1/documents/upload_url?file_name=a.pdf'],
  ['GET', '/v1/documents'],
  ['GET', `/v1/documents/${UNKNOWN}`],
  ['POST', '/v1/templates'],
  ['GET', '/v1/templates'],
  ['GET', `/v1/templates/${UNKNOWN}`],
  ['PUT', `/v1/templates/${UNKNOWN}`],
  ['DELETE', `/v1/templates/${UNKNOWN}`],
  ['POST', '/v1/classifiers'],
  ['GET', '/v1/classifiers'],
  ['GET', `/v1/classifiers/${UNKNOWN}`],
  ['PUT', `/v1/classifiers/${UNKNOWN}`],
  ['DELETE', `/v1/classifiers/${UNKNOWN}`],
];

describe('401', () => {
  test('every endpoint returns 401 unauthorized without x-api-key', async () => {
    for (const [method, path] of endpoints) {
      const res = await raw(`${svc.url}${path}`, { method, json: method === 'GET' || method === 'DELETE' ? undefined : {} });
      assert.match(errorBody(res, 401, 'unauthorized').message, /x-api-key/, `${method} ${path}`);
    }
  });

  test('every endpoint returns 401 with a key that is not configured', async () => {
    for (const [method, path] of endpoints) {
      const res = await raw(`${svc.url}${path}`, { method, key: 'not-a-key', json: method === 'GET' || method === 'DELETE' ? undefined : {} });
      errorBody(res, 401, 'unauthorized');
    }
  });

  test('the client surfaces 401 as ApiError with status and code', async () => {
    await assert.rejects(clientFor(svc.url, 'wrong').listTemplates(), (e: unknown) => e instanceof ApiError && e.status === 401 && e.code === 'unauthorized');
  });

  test('each configured key is its own account with a stable user_id', async () => {
    const a = await clientFor(svc.url, svc.keys[0]).createClassifier({ name: 'a', classes: [{ label: 'x', description: 'x' }, { label: 'y', description: 'y' }] });
    const b = await clientFor(svc.url, svc.keys[1]).createClassifier({ name: 'b', classes: [{ label: 'x', description: 'x' }, { label: 'y', description: 'y' }] });
    assert.notEqual(a.user_id, b.user_id);
    assert.ok(!a.user_id.includes(svc.keys[0]), 'the key is not exposed as the id');
  });
});

describe('403 and 404', () => {
  test("another account's document gives 403; an unknown one 404; a non-UUID 400", async () => {
    const doc = await raw(`${svc.url}/v1/documents`, { method: 'POST', key: svc.keys[0], body: fileForm(await pagesPdf(1), 'a.pdf') });
    assert.equal(doc.status, 200);
    errorBody(await raw(`${svc.url}/v1/documents/${doc.json.document_id}`, { key: svc.keys[1] }), 403, 'forbidden');
    errorBody(await raw(`${svc.url}/v1/documents/${UNKNOWN}`, { key: svc.keys[0] }), 404, 'not_found');
    const bad = await raw(`${svc.url}/v1/documents/not-a-uuid`, { key: svc.keys[0] });
    assert.match(errorBody(bad, 400, 'invalid_request').message, /document_id: expected a UUID/);
  });

  test('an unknown route gives 404 with the Error body', async () => {
    errorBody(await raw(`${svc.url}/v2/documents`, { key: svc.keys[0] }), 404, 'not_found');
    errorBody(await raw(`${svc.url}/v1/templates`, { method: 'PATCH', key: svc.keys[0], json: {} }), 404, 'not_found');
  });
});

describe('400', () => {
  test('bad JSON, an empty JSON body and an unsupported Content-Type give 400 with the Error body', async () => {
    const badJson = await raw(`${svc.url}/v1/templates`, { method: 'POST', key: svc.keys[0], body: '{"template_title": ', headers: { 'content-type': 'application/json' } });
    assert.match(errorBody(badJson, 400, 'invalid_json').message, /JSON/);
    const empty = await raw(`${svc.url}/v1/classifiers`, { method: 'POST', key: svc.keys[0], body: '', headers: { 'content-type': 'application/json' } });
    errorBody(empty, 400, 'invalid_json');
    const xml = await raw(`${svc.url}/v1/templates`, { method: 'POST', key: svc.keys[0], body: '<a/>', headers: { 'content-type': 'application/xml' } });
    assert.match(errorBody(xml, 400, 'invalid_request').message, /Content-Type/);
    const none = await raw(`${svc.url}/v1/templates`, { method: 'POST', key: svc.keys[0] });
    assert.match(errorBody(none, 400, 'invalid_request').message, /expected a JSON object/);
  });

  test('a JSON body over 1 MB gives 400', async () => {
    const res = await raw(`${svc.url}/v1/templates`, { method: 'POST', key: svc.keys[0], json: { template_title: 'x'.repeat(1_100_000) } });
    assert.match(errorBody(res, 400, 'invalid_request').message, /larger/);
  });

  test('wrong types name the field, the expected and the received type', async () => {
    const res = await raw(`${svc.url}/v1/classifiers`, { method: 'POST', key: svc.keys[0], json: { name: 'x', classes: 'invoice,receipt' } });
    const msg = errorBody(res, 400, 'invalid_request').message;
    assert.match(msg, /classes/);
    assert.match(msg, /array/);
  });
});

describe('500', () => {
  test('a server-side failure answers 500 internal_error without internals', async () => {
    const broken = await startTestService();
    try {
      broken.service.context.db.close(); // the store fails under the running server
      const res = await raw(`${broken.url}/v1/templates`, { key: broken.keys[0] });
      const err = errorBody(res, 500, 'internal_error');
      assert.doesNotMatch(err.message, /database|sqlite|stack/i);
    } finally {
      await broken.close().catch(() => {});
    }
  });
});
