// The pipeline on virtual time: stop() cancels every timer it holds (the scheduler tick, a poll's backoff
// kept in memory, the recheck of an incomplete file). Real service, real SQLite ledger, real folders.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, numberedInvoice, tempTree, waitFor, writeConfig } from './pipeline-fixtures.js';
import { virtualPipeline } from './virtual-pipeline.js';

let svc: TestService;
before(async () => {
  svc = await startTestService();
  await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
});
after(() => svc.close());

test('stop() leaves no timer behind: tick, poll backoff and the recheck of an incomplete file are all cancelled', { timeout: 60_000 }, async () => {
  const tree = await tempTree();
  const { config } = await writeConfig(tree.root, configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]! }));
  // The first poll comes 10 s after submitting: a wait the pipeline holds in memory.
  const { pipeline, ledger, scheduler, rule } = await virtualPipeline({ svc, config, polling: { initialMs: 10_000, maxMs: 30_000 } });
  await mkdir(rule.watch, { recursive: true });
  try {
    pipeline.start();
    await scheduler.advance(0); // the first tick runs and arms the next one

    const complete = join(rule.watch, 'a.pdf');
    await writeFile(complete, await numberedInvoice(1));
    const record = await pipeline.accept(rule.name, complete);
    assert.ok(record);

    // A PDF whose end is not written yet (no %%EOF): checked again later.
    const pdf = await numberedInvoice(2);
    const partial = join(rule.watch, 'b.pdf');
    await writeFile(partial, pdf.subarray(0, pdf.lastIndexOf('%%EOF')));
    assert.equal(await pipeline.accept(rule.name, partial), null);

    await waitFor('a.pdf submitted', async () => (await ledger.get(record.id))!.state === 'submitted');
    await scheduler.whenPending(4); // next tick, a.pdf's first poll, b.pdf's recheck, the renewal of a.pdf's claim
    assert.equal(scheduler.pendingTimers, 4);
  } finally {
    await pipeline.stop();
    await ledger.close();
    await tree.cleanup();
  }
  assert.equal(scheduler.pendingTimers, 0);
});
