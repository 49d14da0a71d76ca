// bench/ledger-scale: the daemon with a big ledger. Fills a state.db with N finished inputs (default
// 100,000) plus a few timed_out ones waiting for their slow re-check, then starts the daemon (child
// process) and prints its start time, peak RSS, the time one new file then takes to be done, and how
// long `docdrop status` takes on that ledger.
//
//   npm run build && node --import tsx bench/ledger-scale.ts [--inputs 100000]
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openLedger } from '../src/daemon/ledger/open-ledger.js';
import { invoicePdf } from '../test/helpers/job-fixtures.js';
import { startInstantService } from './instant-engine.js';
import { docdropCli, startDaemonProcess, vmHwmKb } from './daemon-process.js';

const REPO = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { inputs: { type: 'string', default: '100000' }, tsx: { type: 'boolean', default: false } } });
const N = Number(values.inputs);

const vmHwmMb = async (pid: number) => (await vmHwmKb(pid)) / 1024;

const root = await mkdtemp(join(tmpdir(), 'docdrop-ledger-scale-'));
const key = 'bench-key';
const svc = await startInstantService(root, key);
try {
  const inbox = join(root, 'inbox');
  await mkdir(inbox, { recursive: true });
  const statePath = join(root, 'state.db');

  // Filling is not what is measured: commits without fsync (synchronous normal, WAL) make 100k inputs
  // take seconds, not minutes.
  const t0 = Date.now();
  const ledger = await openLedger({ path: statePath, synchronous: 'normal' });
  const far = Date.now() + 3600_000;
  for (let i = 0; i < N; i++) {
    const { record } = await ledger.addInput({ rule: 'bench', path: join(inbox, `old-${i}.pdf`), size: 1000, mtimeMs: 0, sha256: i.toString(16).padStart(64, '0') });
    if (i % 100 === 0) {
      await ledger.transition(record.id, 'queued', 'timed_out', { requestId: '00000000-0000-4000-8000-000000000000', nextAttemptAt: far });
    } else {
      await ledger.transition(record.id, 'queued', 'done', { finalPath: join(root, 'processed', `old-${i}.pdf`) });
    }
  }
  await ledger.close();
  const fillS = (Date.now() - t0) / 1000;

  const configPath = join(root, 'docdrop.yaml');
  await writeFile(
    configPath,
    `log_level: info
service: { base_url: ${svc.url}, api_key: ${key}, requests_per_second: 100000 }
state: { path: ${statePath} }
rules:
  - name: bench
    watch: ${inbox}
    stable_ms: 300
    workflow: Invoices
    duplicates: process
    output: { dir: ${join(root, 'outbox')}, format: csv }
    after: { success: move, processed_dir: ${join(root, 'processed')}, failed_dir: ${join(root, 'failed')}, duplicates_dir: ${join(root, 'dups')} }
`,
  );
  const spawnedAt = Date.now();
  const daemon = await startDaemonProcess(configPath, { tsx: values.tsx });
  const child = daemon.child;
  const startMs = Date.now() - spawnedAt;
  await new Promise((r) => setTimeout(r, 3000)); // a few scheduler ticks over the big ledger
  const idleRss = await vmHwmMb(child.pid!);

  const dropAt = Date.now();
  await writeFile(join(inbox, 'new.pdf'), Buffer.from(await invoicePdf({ number: 'NEW-1', date: '2026-11-02', total: '1.00' })));
  const reader = await openLedger({ path: statePath, synchronous: 'normal' });
  for (;;) {
    const [r] = await reader.list({ state: 'done', offset: N - N / 100 });
    if (r && r.path.endsWith('new.pdf')) break;
    if (Date.now() - dropAt > 120_000) throw new Error('the new file was not done within 2 minutes');
    await new Promise((res) => setTimeout(res, 50));
  }
  const newFileMs = Date.now() - dropAt;
  await reader.close();
  const rss = await vmHwmMb(child.pid!);
  child.kill('SIGTERM');
  await daemon.exited;

  const st = Date.now();
  const status = spawnSync(process.execPath, [...docdropCli(values.tsx), 'status', '--config', configPath], { cwd: REPO, encoding: 'utf8' });
  const statusMs = Date.now() - st;

  console.log(
    [
      `ledger                ${N} inputs (${N / 100} timed_out, rest done), filled in ${fillS.toFixed(1)} s`,
      `daemon start          ${startMs} ms from spawn to "daemon started" (includes Node start and module loading)`,
      `daemon peak RSS       ${idleRss.toFixed(1)} MB after 3 s idle; ${rss.toFixed(1)} MB after one more file`,
      `one new file          ${newFileMs} ms from drop to done (stable_ms 300 included)`,
      `docdrop status        ${statusMs} ms (exit ${status.status}): ${status.stdout.split('\n')[0]}`,
    ].join('\n'),
  );
} finally {
  await svc.close();
  await rm(root, { recursive: true, force: true });
}
