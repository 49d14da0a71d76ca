// Spec row: Events 1 (Workflow webhook) with the choices of docs/webhooks.md and issue 13 §1: the hosted
// service's envelope { event, timestamp, data } with the finished job as GET /files shows it (plus
// document_id/template_id) in `data`, parsed by a real receiver; signed with HMAC-SHA256
// (X-Docdrop-Signature), retried with backoff on 5xx, not on other 4xx, bounded attempts, every
// outcome in the ledger.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { ServiceClient } from '../../src/api/client.js';
import { webhookSecret } from '../../src/service/jobs/webhooks.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { invoicePdf, invoiceTemplate, writeFixture } from '../helpers/job-fixtures.js';
import { parseExtractEnvelope, parseRunParserEnvelope, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

let svc: TestService;
let client: ServiceClient;
let hooks: WebhookReceiver;
let docId: string;

before(async () => {
  hooks = await startWebhookReceiver();
  // Loopback receivers are allowed the way URL fetches allow them (--fetch-allow-range).
  svc = await startTestService({ fetchAllowRanges: ['127.0.0.0/8'], webhooks: { baseDelayMs: 10, maxDelayMs: 50, maxAttempts: 3 } });
  client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false });
  const pdf = await writeFixture(svc.dataDir, 'inv.pdf', await invoicePdf({ number: 'W-9', total: '9.99', date: '2026-09-09' }));
  docId = (await client.uploadDocument(pdf)).document_id;
});
after(async () => {
  await svc.close();
  await hooks.close();
});

const to = (path: string) => hooks.to(path);
const ledger = () => svc.service.context.jobs.webhooks.ledger;

async function runWith(path: string, statuses: number[], via: 'run_parser' | 'extract' = 'run_parser', params: Record<string, string> = {}) {
  hooks.plan.set(path, statuses);
  const t = await client.createTemplate(invoiceTemplate(`hook ${path}`, { webhook_url: hooks.base + path }));
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
    assert.equal(first.headers['x-docdrop-attempt'], '1');
    assert.equal(second.headers['x-docdrop-attempt'], '2');
    const envelope = parseRunParserEnvelope(second.raw);
    const { data } = envelope;
    const job = await client.getJob(requestId);
    assert.equal(data.request_id, requestId);
    assert.equal(data.document_id, docId);
    assert.equal(data.template_id, templateId);
    assert.equal(data.request_status, 'completed');
    // `data` is the job as GET /files returns it (the pre-signed URL is signed afresh on each read).
    const { document_id: _d, template_id: _t, ...asPolled } = data;
    assert.deepEqual({ ...asPolled, response_body: { ...asPolled.response_body, file_presigned_url: null } }, {
      ...job,
      response_body: { ...job.response_body, file_presigned_url: null },
    });
    assert.equal(data.response_body.result_json_data?.invoice_number, 'W-9');
    assert.ok(envelope.timestamp >= data.updated_at, 'the event is stamped when the job finished');
    const [row] = await ledger().forRequest(requestId);
    assert.deepEqual([row.state, row.attempts, row.last_status, row.delivery_id], ['delivered', 2, 200, first.headers['x-docdrop-delivery']]);
  });

  test('a job from POST /v1/extract is delivered with its results envelope', async () => {
    await runWith('/extract', [], 'extract');
    const [only] = to('/extract');
    const { data } = parseExtractEnvelope(only.raw);
    assert.equal(data.results.data?.invoice_number, 'W-9');
    assert.deepEqual(data.results, (await client.getExtractJob(data.request_id)).results);
  });

  test('a failed job is delivered too, with user_error_msg', async () => {
    await runWith('/failed', [], 'run_parser', { page_ranges: '5' });
    const { data } = parseRunParserEnvelope(to('/failed')[0].raw);
    assert.equal(data.request_status, 'failed');
    assert.equal(data.response_body.result_json_data, null);
    assert.match(data.response_body.user_error_msg ?? '', /selects no page/);
  });

  test('retries after a 429', async () => {
    await runWith('/busy', [429]);
    const got = to('/busy');
    assert.equal(got.length, 2);
    assert.equal(parseRunParserEnvelope(got[1].raw).data.request_status, 'completed');
  });

  test('gives up after maxAttempts on persistent 503, and does not retry a 400', async () => {
    const down = await runWith('/down', [503, 503, 503, 503]);
    assert.equal(to('/down').length, 3);
    const [failed] = await ledger().forRequest(down.requestId);
    assert.deepEqual([failed.state, failed.attempts, failed.last_status, failed.last_error], ['failed', 3, 503, 'HTTP 503']);
    const bad = await runWith('/bad', [400]);
    assert.equal(to('/bad').length, 1);
    assert.deepEqual(
      (await ledger().forRequest(bad.requestId)).map((r) => [r.state, r.attempts]),
      [['failed', 1]],
    );
  });

  test('no webhook is sent for a Workflow without webhook_url', async () => {
    const before = hooks.received.length;
    const t = await client.createTemplate(invoiceTemplate('no hook'));
    await client.runParser(docId, { template_id: t.template_id });
    await svc.service.context.jobs.idle();
    assert.equal(hooks.received.length, before);
  });
});

test('a receiver on a loopback address is refused without --fetch-allow-range: nothing sent, failed in the ledger with the reason', async () => {
  const strict = await startTestService();
  try {
    const c = new ServiceClient({ baseUrl: strict.url, apiKey: strict.keys[0], retry: false });
    const pdf = await writeFixture(strict.dataDir, 'inv.pdf', await invoicePdf({ number: 'P-1', total: '1.00', date: '2026-01-01' }));
    const doc = (await c.uploadDocument(pdf)).document_id;
    const byIp = await c.createTemplate(invoiceTemplate('to an IP', { webhook_url: `${hooks.base}/private-ip` }));
    const byName = await c.createTemplate(invoiceTemplate('to a name', { webhook_url: `http://localhost:${hooks.port}/private-name` }));
    const ids = [(await c.runParser(doc, { template_id: byIp.template_id })).request_id, (await c.runParser(doc, { template_id: byName.template_id })).request_id];
    await strict.service.context.jobs.idle();
    assert.equal(to('/private-ip').length + to('/private-name').length, 0);
    for (const id of ids) {
      const [row] = await strict.service.context.jobs.webhooks.ledger.forRequest(id);
      assert.deepEqual([row.state, row.attempts], ['failed', 1]);
      assert.match(row.last_error ?? '', /not public .*--fetch-allow-range/);
    }
  } finally {
    await strict.close();
  }
});
