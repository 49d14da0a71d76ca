// Spec row: Events 1 (Workflow webhook) with the choices of docs/webhooks.md: the finished job POSTed
// as GET /files shows it plus document_id/template_id, signed with HMAC-SHA256 (X-Docdrop-Signature),
// retried with backoff on 5xx, not on other 4xx, with bounded attempts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../src/api/client.js';
import { webhookSecret } from '../../src/service/jobs/webhooks.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { invoicePdf, invoiceTemplate, writeFixture } from '../helpers/job-fixtures.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

let svc: TestService;
let client: ServiceClient;
let hooks: Server;
let hookBase: string;
let docId: string;
const received: Received[] = [];
/** Status codes the receiver answers per path, in order; 200 once exhausted. */
const plan = new Map<string, number[]>();

const to = (path: string) => received.filter((r) => r.path === path);

before(async () => {
  hooks = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      const status = plan.get(path)?.shift() ?? 200;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
  hookBase = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
  svc = await startTestService({ webhooks: { baseDelayMs: 10, maxDelayMs: 50, maxAttempts: 3 } });
  client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false });
  const pdf = await writeFixture(svc.dataDir, 'inv.pdf', await invoicePdf({ number: 'W-9', total: '9.99', date: '2026-09-09' }));
  docId = (await client.uploadDocument(pdf)).document_id;
});
after(async () => {
  await svc.close();
  await new Promise<void>((r) => hooks.close(() => r()));
});

async function runWith(path: string, statuses: number[], via: 'run_parser' | 'extract' = 'run_parser', params: Record<string, string> = {}) {
  plan.set(path, statuses);
  const t = await client.createTemplate(invoiceTemplate(`hook ${path}`, { webhook_url: hookBase + path }));
  const requestId =
    via === 'run_parser'
      ? (await client.runParser(docId, { template_id: t.template_id, ...params })).request_id
      : (await client.extract({ document_id: docId }, { template_id: t.template_id })).request_id;
  await svc.service.context.jobs.idle();
  return { requestId, templateId: t.template_id };
}

describe('webhooks', () => {
  test('POSTs the finished job, signed, and retries after a 500 with the same delivery id', async () => {
    const { requestId, templateId } = await runWith('/retry', [500]);
    const got = to('/retry');
    assert.equal(got.length, 2, 'one failed attempt, one delivered');
    const [first, second] = got;
    assert.equal(first.headers['x-docdrop-delivery'], second.headers['x-docdrop-delivery']);
    assert.match(String(second.headers['x-docdrop-timestamp']), /^\d+$/);
    assert.equal(second.headers['content-type'], 'application/json');
    const secret = createHmac('sha256', svc.keys[0]).update('docdrop-webhook-v1').digest('hex');
    assert.equal(secret, webhookSecret(svc.keys[0]));
    const expected = 'sha256=' + createHmac('sha256', secret).update(second.raw).digest('hex');
    assert.equal(second.headers['x-docdrop-signature'], expected);
    const payload = JSON.parse(second.raw);
    const job = await client.getJob(requestId);
    assert.equal(payload.request_id, requestId);
    assert.equal(payload.document_id, docId);
    assert.equal(payload.template_id, templateId);
    assert.equal(payload.request_status, 'completed');
    assert.deepEqual(payload.response_body.result_json_data, job.response_body?.result_json_data);
    assert.equal(payload.response_body.result_json_data.invoice_number, 'W-9');
  });

  test('a job from POST /v1/extract is delivered with its results envelope', async () => {
    await runWith('/extract', [], 'extract');
    const [only] = to('/extract');
    const payload = JSON.parse(only.raw);
    assert.equal(payload.results.data.invoice_number, 'W-9');
    assert.equal(payload.response_body, undefined);
  });

  test('a failed job is delivered too, with user_error_msg', async () => {
    await runWith('/failed', [], 'run_parser', { page_ranges: '5' });
    const payload = JSON.parse(to('/failed')[0].raw);
    assert.equal(payload.request_status, 'failed');
    assert.match(payload.response_body.user_error_msg, /selects no page/);
  });

  test('retries after a 429', async () => {
    await runWith('/busy', [429]);
    const got = to('/busy');
    assert.equal(got.length, 2);
    assert.equal(JSON.parse(got[1].raw).request_status, 'completed');
  });

  test('gives up after maxAttempts on persistent 503, and does not retry a 400', async () => {
    await runWith('/down', [503, 503, 503, 503]);
    assert.equal(to('/down').length, 3);
    await runWith('/bad', [400]);
    assert.equal(to('/bad').length, 1);
  });

  test('no webhook is sent for a Workflow without webhook_url', async () => {
    const before = received.length;
    const t = await client.createTemplate(invoiceTemplate('no hook'));
    await client.runParser(docId, { template_id: t.template_id });
    await svc.service.context.jobs.idle();
    assert.equal(received.length, before);
  });
});
