// Deleting a Classifier: the spec refers to it without showing method and path. docdrop serve answers
// DELETE /v1/classifiers/{id}; a service answering 404 or 405 there gets a message saying so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/api-error.js';
import { ServiceClient } from '../../src/api/client.js';
import { startTestService } from '../helpers/service.js';
import { sendError, startServer } from './recording-server.js';

test('deletes a Classifier of docdrop serve', async () => {
  const svc = await startTestService();
  try {
    const client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! });
    const t = await client.createTemplate({ template_title: 'T', template_type: 't', template_schema: { fields: [{ name: 'a', type: 'text' }] } });
    const c = await client.createClassifier({ name: 'C', classes: [{ label: 'a', description: 'x', template_id: t.template_id }, { label: 'b', description: 'y' }] });
    assert.equal((await client.deleteClassifier(c.classifier_id)).success, true);
    await assert.rejects(client.getClassifier(c.classifier_id), (err: unknown) => err instanceof ApiError && err.status === 404);
  } finally {
    await svc.close();
  }
});

test('explains a 405 from a service that does not offer the operation', async () => {
  const server = await startServer((_req, res) => sendError(res, 405, 'method_not_allowed', 'Method Not Allowed'));
  try {
    const client = new ServiceClient({ baseUrl: server.baseUrl, apiKey: 'k', retry: false });
    await assert.rejects(client.deleteClassifier('00000000-0000-4000-8000-000000000000'), (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.status, 405);
      assert.match(err.message, /DELETE \/v1\/classifiers\/0{8}-.* failed: 405 method_not_allowed: Method Not Allowed \(the interface does not show how a Classifier is deleted, and this service may not offer DELETE \/v1\/classifiers\/\{id\}/);
      return true;
    });
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});
