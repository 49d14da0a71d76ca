// Issue 2 §3: state survives restarts; jobs interrupted by a stop (pending or processing) are resumed
// by the next start on the same data dir and complete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { startTestService } from '../helpers/service.js';
import { invoicePdf, invoiceTemplate, writeFixture } from '../helpers/job-fixtures.js';

test('a job processing and a job pending when the service stops both complete after a restart on the same data dir', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'docdrop-restart-'));
  try {
    // First run: one worker, every job sleeps a minute first, so the service closes mid-job.
    const first = await startTestService({ dataDir, jobConcurrency: 1, faults: { jobDelayMs: 60_000 } });
    const c1 = new ServiceClient({ baseUrl: first.url, apiKey: first.keys[0], retry: false });
    const pdf = await writeFixture(dataDir, 'inv.pdf', await invoicePdf({ number: 'R-1', total: '3.00', date: '2026-03-03' }));
    const doc = (await c1.uploadDocument(pdf)).document_id;
    const t = (await c1.createTemplate(invoiceTemplate('Restart'))).template_id;
    const running = (await c1.runParser(doc, { template_id: t })).request_id;
    const queued = (await c1.extract({ document_id: doc }, { template_id: t })).request_id;
    for (let i = 0; i < 100 && (await c1.getJob(running)).request_status !== 'processing'; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal((await c1.getJob(running)).request_status, 'processing');
    assert.equal((await c1.getJob(queued)).request_status, 'pending');
    await first.close();

    const second = await startTestService({ dataDir, apiKeys: first.keys });
    try {
      const c2 = new ServiceClient({ baseUrl: second.url, apiKey: second.keys[0], retry: false });
      await second.service.context.jobs.idle();
      const a = await c2.getJob(running);
      const b = await c2.getExtractJob(queued);
      assert.equal(a.request_status, 'completed');
      assert.equal((a.response_body?.result_json_data as Record<string, unknown>).invoice_number, 'R-1');
      assert.equal(b.request_status, 'completed');
      assert.equal((b.results?.data as Record<string, unknown>).invoice_number, 'R-1');
    } finally {
      await second.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
