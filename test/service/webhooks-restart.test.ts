// Issue 13 §1: the webhook ledger survives a restart. Receiver down, a job's delivery fails its first
// attempt and waits; the service stops; the receiver comes back; a new service on the same data dir
// delivers each pending delivery, once per delivery id, with the body and id of the first attempt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import type { WebhookDelivery } from '../../src/service/store/webhook-deliveries-repo.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { invoicePdf, invoiceTemplate, writeFixture } from '../helpers/job-fixtures.js';
import { parseExtractEnvelope, parseRunParserEnvelope, startWebhookReceiver } from '../helpers/webhook-receiver.js';

/** The ledger rows of the requests once each has had its first attempt (the receiver is down, so it fails). */
async function afterFirstAttempt(svc: TestService, requestIds: string[]): Promise<WebhookDelivery[]> {
  const ledger = svc.service.context.jobs.webhooks.ledger;
  const rows = async () => (await Promise.all(requestIds.map((id) => ledger.forRequest(id)))).flat();
  for (let i = 0; i < 3000; i++) {
    const now = await rows();
    if (now.length === requestIds.length && now.every((r) => r.attempts === 1 && r.last_error)) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return rows();
}

test('deliveries pending when the service stops are delivered by the next start on the same data dir, once per delivery id', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'docdrop-webhook-restart-'));
  // The receiver's port, then the receiver goes down: attempts are refused.
  const probe = await startWebhookReceiver();
  await probe.close();
  // First run: a retry waits a minute, so both deliveries are pending when the service stops.
  const first = await startTestService({ dataDir, fetchAllowRanges: ['127.0.0.0/8'], webhooks: { baseDelayMs: 60_000, maxDelayMs: 60_000, maxAttempts: 5 } });
  try {
    const c1 = new ServiceClient({ baseUrl: first.url, apiKey: first.keys[0], retry: false });
    const pdf = await writeFixture(dataDir, 'inv.pdf', await invoicePdf({ number: 'H-7', total: '7.00', date: '2026-07-07' }));
    const doc = (await c1.uploadDocument(pdf)).document_id;
    const t = (await c1.createTemplate(invoiceTemplate('Hooked', { webhook_url: `${probe.base}/hook` }))).template_id;
    const viaRun = (await c1.runParser(doc, { template_id: t })).request_id;
    const viaExtract = (await c1.extract({ document_id: doc }, { template_id: t })).request_id;
    const pending = await afterFirstAttempt(first, [viaRun, viaExtract]);
    assert.deepEqual(
      pending.map((r) => [r.state, r.attempts]),
      [
        ['pending', 1],
        ['pending', 1],
      ],
    );
    await first.close();

    const receiver = await startWebhookReceiver(probe.port);
    const second = await startTestService({ dataDir, apiKeys: first.keys, fetchAllowRanges: ['127.0.0.0/8'], webhooks: { baseDelayMs: 10, maxDelayMs: 50, maxAttempts: 5 } });
    try {
      await second.service.context.jobs.idle();
      const got = receiver.to('/hook');
      assert.equal(got.length, 2, 'each pending delivery sent once after the restart');
      const ids = got.map((r) => r.headers['x-docdrop-delivery']).sort();
      assert.deepEqual(ids, pending.map((r) => r.delivery_id).sort(), 'the delivery ids of the first run');
      assert.deepEqual(
        got.map((r) => r.headers['x-docdrop-attempt']),
        ['2', '2'],
      );
      const byRequest = new Map(got.map((r) => [JSON.parse(r.raw).data.request_id as string, r.raw]));
      assert.equal(parseRunParserEnvelope(byRequest.get(viaRun)!).data.response_body.result_json_data?.invoice_number, 'H-7');
      assert.equal(parseExtractEnvelope(byRequest.get(viaExtract)!).data.results.data?.invoice_number, 'H-7');
      const ledger = second.service.context.jobs.webhooks.ledger;
      assert.deepEqual(
        (await Promise.all([viaRun, viaExtract].map((id) => ledger.forRequest(id)))).flat().map((r) => [r.state, r.attempts, r.last_status]),
        [
          ['delivered', 2, 200],
          ['delivered', 2, 200],
        ],
      );
    } finally {
      await second.close();
      await receiver.close();
    }
  } finally {
    await first.close(); // a no-op once closed; stops it when an assertion failed first
    await rm(dataDir, { recursive: true, force: true });
  }
});
