// A full disk is a spell, not a verdict: a local step that meets ENOSPC keeps the input's extraction
// result and retries with backoff, however many attempts the spell takes, and the input finishes once
// space is back. A real ENOSPC from a small tmpfs (mounting needs root, as CI runs), a real service and
// SQLite ledger, the pipeline on virtual time.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ServiceClient } from '../../src/api/client.js';
import { createLogger } from '../../src/shared/logger.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, numberedInvoice, readCsvFile, tempTree, waitFor, writeConfig } from './pipeline-fixtures.js';
import { virtualPipeline } from './virtual-pipeline.js';

const isRoot = process.getuid?.() === 0;

let svc: TestService;
before(async () => {
  svc = await startTestService();
  await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
});
after(() => svc.close());

/** Writes until the file system answers ENOSPC. */
async function fill(path: string): Promise<void> {
  await writeFile(path, Buffer.alloc(4 * 1024 * 1024, 1)).then(
    () => assert.fail('the tmpfs did not fill up'),
    (err: NodeJS.ErrnoException) => assert.equal(err.code, 'ENOSPC'),
  );
}

test(
  'a disk-full spell on the outbox, then on processed_dir, holds the input with its result through many retries, and it finishes once space is back',
  { skip: isRoot ? false : 'needs root to mount a small tmpfs for a real ENOSPC (CI runs as root)', timeout: 120_000 },
  async () => {
    const tree = await tempTree();
    // The outbox and processed_dir each on a small disk of their own (so the final move copies across).
    const outbox = join(tree.root, 'outbox');
    const processed = join(tree.root, 'processed');
    for (const dir of [outbox, processed]) {
      await mkdir(dir);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir]);
    }
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({
      level: 'info',
      destination: new Writable({ write: (chunk, _enc, cb) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), cb()) }),
    });
    const { config } = await writeConfig(tree.root, configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]!, rules: [{ layout: 'flat' }] }));
    const rule = config.rules[0]!;
    await mkdir(rule.watch, { recursive: true });
    await mkdir(join(outbox, 'invoices'));
    await mkdir(join(processed, 'invoices'));
    const filler = join(outbox, 'filler');
    await fill(filler);
    await fill(join(processed, 'filler'));

    const { pipeline, ledger, scheduler } = await virtualPipeline({ svc, config, polling: { initialMs: 1000, maxMs: 5000 }, logger });
    try {
      pipeline.start();
      await scheduler.advance(0);
      const file = join(rule.watch, 'inv.pdf');
      await writeFile(file, await numberedInvoice(1));
      const record = (await pipeline.accept(rule.name, file))!;
      assert.ok(record);
      await waitFor('submitted', async () => (await ledger.get(record.id))!.state === 'submitted');
      // Poll until extracted; then the write meets the full disk, again and again: far past the 5 attempts
      // a local step gets for other transient errors, and past a minute of backoff.
      for (let attempts = 1; attempts <= 9; attempts++) {
        await waitFor(`write attempt ${attempts}`, async () => {
          const r = (await ledger.get(record.id))!;
          assert.notEqual(r.state, 'failed', `the input failed: ${r.lastError}`);
          if (r.state === 'extracted' && r.attempts >= attempts) return true;
          await scheduler.advance(5_000);
          return false;
        });
      }
      const held = (await ledger.get(record.id))!;
      assert.equal(held.state, 'extracted');
      assert.ok(held.result, 'the extraction result is kept');
      assert.match(held.lastError ?? '', /ENOSPC/);
      const alerts = lines.filter((l) => l.level === 50 && l.id === record.id && l.state === 'extracted');
      assert.equal(alerts.length, 1, 'one error-level line for the spell');
      assert.match(String(alerts[0]!.msg), /disk full or failing \(ENOSPC\)/);

      await rm(filler);
      // Written now; the final move meets the other full disk and waits the same way, as a move.
      for (let attempts = 1; attempts <= 3; attempts++) {
        await waitFor(`move attempt ${attempts}`, async () => {
          const r = (await ledger.get(record.id))!;
          assert.notEqual(r.state, 'failed', `the input failed: ${r.lastError}`);
          if (r.state === 'written' && r.attempts >= attempts) return true;
          await scheduler.advance(5_000);
          return false;
        });
      }
      assert.equal(lines.filter((l) => l.level === 50 && l.id === record.id && l.state === 'written').length, 1, 'one error-level line for the move');
      await rm(join(processed, 'filler'));
      const done = await waitFor('done once space is back', async () => {
        const r = (await ledger.get(record.id))!;
        if (r.state === 'done') return r;
        await scheduler.advance(10_000);
        return undefined;
      });
      assert.equal(done.lastError, null);
      assert.equal(done.finalPath, join(processed, 'invoices', 'inv.pdf'));
      const kinds = (await ledger.events(record.id)).map((e) => e.kind);
      assert.equal(kinds.filter((k) => k === 'uploaded').length, 1, `uploaded once: ${kinds.join(', ')}`);
      const [csv] = (await readdir(join(outbox, 'invoices'))).filter((n) => n.endsWith('.csv'));
      assert.equal((await readCsvFile(join(outbox, 'invoices', csv!))).rows.length, 1);
    } finally {
      await pipeline.stop();
      await ledger.close();
      for (const dir of [outbox, processed]) execFileSync('umount', [dir]);
      await tree.cleanup();
    }
  },
);
