// `docdrop retry` of a failed input: the same ledger row goes back into the flow (one input, one row,
// whatever its history), and an input whose outputs were written before its final move failed is only
// moved on, never written twice. Real service, real daemon, real folders and SQLite ledger.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { retryInput } from '../../src/daemon/pipeline/retry-inputs.js';
import { silentLogger } from '../../src/shared/logger.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, listFiles, numberedInvoice, readCsvFile, tempTree, waitFor, writeConfig } from './pipeline-fixtures.js';

describe('retry of a failed input', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
  });
  after(() => svc.close());

  test('an input whose final move failed after its rows were written is only moved on by retry: its rows are written once', async () => {
    const tree = await tempTree();
    const yaml = configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]!, rules: [{ group: 'daily', layout: 'flat' }] });
    const { config } = await writeConfig(tree.root, yaml);
    const inbox = config.rules[0]!.watch;
    await mkdir(inbox, { recursive: true });
    // processed_dir cannot be made (a file where its folder should be): the final move fails after the write.
    await mkdir(join(tree.root, 'processed'));
    await writeFile(join(tree.root, 'processed', 'invoices'), 'in the way');
    const daemon = await startDaemon(config, { logger: silentLogger });
    try {
      await writeFile(join(inbox, 'inv.pdf'), await numberedInvoice(1));
      // A long wait: the service's first upload is slow on a loaded machine.
      const failed = await waitFor('the input failed', async () => (await daemon.ledger.list({ state: 'failed' }))[0], 180_000);
      assert.match(failed.lastError ?? '', /^file_refused/);
      const outbox = join(tree.root, 'outbox', 'invoices');
      const [csv] = await listFiles(outbox);
      assert.equal((await readCsvFile(join(outbox, csv!))).rows.length, 1, 'the rows were written before the move failed');

      await rm(join(tree.root, 'processed', 'invoices'));
      const outcome = await retryInput(daemon.ledger, failed);
      assert.equal(outcome.ok, true, outcome.message);
      const done = await waitFor('the input done', async () => (await daemon.ledger.list({ state: 'done' }))[0]);

      assert.deepEqual(await listFiles(outbox), [csv], 'the same output file');
      assert.equal((await readCsvFile(join(outbox, csv!))).rows.length, 1, 'its rows are not written twice');
      assert.equal(done.id, failed.id, 'the same row');
      assert.equal(done.requestId, failed.requestId, 'not extracted again');
      assert.equal((await daemon.ledger.list({})).length, 1, 'one input, one row');
      assert.deepEqual(await listFiles(join(tree.root, 'processed', 'invoices')), ['inv.pdf']);
      assert.deepEqual(await listFiles(join(tree.root, 'failed', 'invoices')), []);
      assert.deepEqual(await listFiles(inbox), []);
    } finally {
      await daemon.stop();
      await tree.cleanup();
    }
  });

  test('an input whose output write failed keeps its extraction result: retry writes it without extracting again', async () => {
    const tree = await tempTree();
    const { config } = await writeConfig(tree.root, configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]!, rules: [{ layout: 'flat' }] }));
    const inbox = config.rules[0]!.watch;
    await mkdir(inbox, { recursive: true });
    await mkdir(join(tree.root, 'outbox'));
    await writeFile(join(tree.root, 'outbox', 'invoices'), 'in the way');
    const daemon = await startDaemon(config, { logger: silentLogger });
    try {
      await writeFile(join(inbox, 'inv.pdf'), await numberedInvoice(2));
      const failed = await waitFor('the input failed', async () => (await daemon.ledger.list({ state: 'failed' }))[0], 180_000);
      await rm(join(tree.root, 'outbox', 'invoices'));
      assert.equal((await retryInput(daemon.ledger, failed)).ok, true);
      const done = await waitFor('the input done', async () => (await daemon.ledger.list({ state: 'done' }))[0]);
      assert.equal(done.id, failed.id);
      assert.equal(done.requestId, failed.requestId, 'not extracted again');
      const kinds = (await daemon.ledger.events(done.id)).map((e) => e.kind);
      assert.equal(kinds.filter((k) => k === 'uploaded').length, 1, kinds.join(', '));
      assert.equal((await listFiles(join(tree.root, 'outbox', 'invoices'))).length, 1);
    } finally {
      await daemon.stop();
      await tree.cleanup();
    }
  });

  test('an input retried and failing again keeps one row, counted once, and can be retried again', async () => {
    const tree = await tempTree();
    const { config } = await writeConfig(tree.root, configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]!, rules: [{ duplicates: 'process' }] }));
    const inbox = config.rules[0]!.watch;
    await mkdir(inbox, { recursive: true });
    const daemon = await startDaemon(config, { logger: silentLogger });
    try {
      await writeFile(join(inbox, 'junk.pdf'), 'not a pdf at all');
      const first = await waitFor('the input failed', async () => (await daemon.ledger.list({ state: 'failed' }))[0]);
      for (let round = 1; round <= 2; round++) {
        const current = (await daemon.ledger.get(first.id))!;
        const outcome = await retryInput(daemon.ledger, current);
        assert.equal(outcome.ok, true, outcome.message);
        await waitFor(`failed again (round ${round})`, async () => {
          const r = (await daemon.ledger.get(first.id))!;
          return r.state === 'failed' && r.updatedAt > current.updatedAt && (await listFiles(join(tree.root, 'failed', 'invoices'))).length === 2;
        });
        const all = await daemon.ledger.list({});
        assert.deepEqual(all.map((r) => r.id), [first.id], `one input, one row after ${round} retries`);
        assert.equal((await daemon.ledger.countByState()).failed, 1, 'status counts the failure once');
      }
      const kinds = (await daemon.ledger.events(first.id)).map((e) => e.kind);
      assert.equal(kinds.filter((k) => k === 'failed').length, 3, `the history is in the events: ${kinds.join(', ')}`);
      assert.deepEqual((await readdir(join(tree.root, 'failed', 'invoices'))).sort(), ['junk.pdf', 'junk.pdf.error.json']);
    } finally {
      await daemon.stop();
      await tree.cleanup();
    }
  });
});
