// Crash safety: the daemon runs as a child process and is killed with SIGKILL at random moments while
// 200+ files flow, then restarted until every file is done. Afterwards every input must have exactly one
// output row and sit in processed exactly once: nothing lost, nothing written or moved twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { openLedger } from '../../src/daemon/ledger/open-ledger.js';
import { startTestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, listFiles, numberedInvoice, readCsvFile, tempTree, waitFor, writeConfig } from './pipeline-fixtures.js';

const REPO = resolve(import.meta.dirname, '../..');
const FIRST_BATCH = 150;
const SECOND_BATCH = 60;
const KILLS = 6;

interface Child {
  proc: ChildProcess;
  started: Promise<void>;
  exited: Promise<number | null>;
  tail: () => string;
}

function spawnDaemon(configPath: string): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'run', '--config', configPath], {
    cwd: REPO,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let buf = '';
  let onStarted: () => void = () => {};
  const started = new Promise<void>((res) => (onStarted = res));
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (chunk: string) => {
    buf = (buf + chunk).slice(-8000);
    if (buf.includes('"daemon started"')) onStarted();
  });
  const exited = new Promise<number | null>((res) => proc.once('exit', (code) => res(code)));
  return { proc, started, exited, tail: () => buf };
}

/** Unique bytes per file from one template PDF: a comment after %%EOF, which PDF readers ignore. */
function unique(base: Buffer, i: number): Buffer {
  return Buffer.concat([base, Buffer.from(`\n%crash-test-${i}\n`)]);
}

test('after SIGKILL at random moments and restarts, every file has exactly one output row and is processed exactly once', { timeout: 300_000 }, async (t) => {
  const t0 = Date.now();
  const svc = await startTestService();
  const tree = await tempTree('docdrop-crash-');
  const children: Child[] = [];
  try {
    const client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! });
    await client.createTemplate(invoiceTemplate('Invoices'));
    // Daily group: one file upserted by request id, the harder case for "never written twice".
    const { path: configPath, config } = await writeConfig(
      tree.root,
      configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]!, rules: [{ group: 'daily', layout: 'flat' }], requestsPerSecond: 1000, logLevel: 'info' }),
    );
    const inbox = config.rules[0]!.watch;
    await mkdir(inbox, { recursive: true });
    const base = await numberedInvoice(1);
    const names: string[] = [];
    const drop = async (from: number, count: number) => {
      for (let i = from; i < from + count; i++) {
        const name = `f-${String(i).padStart(4, '0')}.pdf`;
        names.push(name);
        await writeFile(join(inbox, name), unique(base, i));
      }
    };
    await drop(0, FIRST_BATCH);

    const ledger = await openLedger(config.state);
    const killedAt: number[] = [];
    try {
      for (let k = 0; k < KILLS; k++) {
        const child = spawnDaemon(configPath);
        children.push(child);
        await Promise.race([child.started, child.exited]);
        if (k === 1) void drop(FIRST_BATCH, SECOND_BATCH); // files keep arriving while the daemon is killed
        await new Promise((r) => setTimeout(r, 200 + Math.random() * 1300));
        child.proc.kill('SIGKILL');
        await child.exited;
        killedAt.push((await ledger.countByState()).done);
      }
      const before = await ledger.countByState();
      t.diagnostic(`${KILLS} kills after ${Math.round((Date.now() - t0) / 1000)} s; inputs done at each kill: ${killedAt.join(', ')}; done so far: ${before.done}`);
      const last = spawnDaemon(configPath);
      children.push(last);
      await waitFor(
        'every file done',
        async () => {
          const c = await ledger.countByState();
          return c.done === FIRST_BATCH + SECOND_BATCH ? c : undefined;
        },
        120_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}\nlast daemon stderr:\n${last.tail()}`);
      });
      t.diagnostic(`all done after ${Math.round((Date.now() - t0) / 1000)} s`);
      await Promise.race([last.started, last.exited]);
      last.proc.kill('SIGTERM');
      assert.equal(await last.exited, 0, 'SIGTERM stops the daemon cleanly');

      const counts = await ledger.countByState();
      assert.equal(counts.failed, 0);
      assert.equal(counts.duplicate, 0);
      assert.deepEqual(await listFiles(inbox), [], 'inbox is empty');
    } finally {
      await ledger.close();
    }

    const processed = await readdir(join(tree.root, 'processed', 'invoices'));
    assert.deepEqual(processed.filter((n) => !n.startsWith('.')).sort(), [...names].sort(), 'each input in processed exactly once');

    const outDir = join(tree.root, 'outbox', 'invoices');
    const rows: Record<string, string>[] = [];
    for (const f of (await listFiles(outDir)).filter((n) => n.endsWith('.csv'))) rows.push(...(await readCsvFile(join(outDir, f))).rows);
    const perFile = new Map<string, number>();
    for (const r of rows) perFile.set(r.file_name!, (perFile.get(r.file_name!) ?? 0) + 1);
    const twice = [...perFile].filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], 'no input has two output rows');
    assert.deepEqual([...perFile.keys()].sort(), [...names].sort(), 'every input has its output row');
    assert.equal(new Set(rows.map((r) => r.request_id)).size, rows.length);
  } finally {
    for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    await svc.close();
    await tree.cleanup();
  }
});
