// bench/pipeline: N files through the daemon (a child process) against `docdrop serve` on loopback, the
// rate limit lifted and the service answering at once (an instant engine, so the figures are the
// daemon's, not the extraction's). Prints files/s, API requests per file, p50/p99 time from stable
// (queued in the ledger) to output (written), and the daemon's peak RSS (VmHWM).
//
//   npm run build && node --import tsx bench/pipeline.ts [--files 2000] [--format csv] [--tsx] [--node-flags "..."] [--health]
//                                                        [--instances N] [--state postgres://user@host:5432/postgres]
//
// --instances N runs N daemon processes on the one inbox and ledger (claims split the work); figures are
// summed over them (CPU, requests) or the largest (RSS). --state postgres://... puts the ledger in a fresh
// database on that server (created, then dropped) instead of a SQLite file, and counts the PostgreSQL
// statements per input: transactions committed in that database (pg_stat_database; every ledger
// statement is its own transaction) minus the ones this bench's progress polls made.
//
// --health turns on the daemon's health listener and metrics (health.listen) and scrapes /metrics and
// /readyz once a second during the run, so their cost shows in the daemon's CPU per file and RSS.
//
// Goals on the 2-core reference machine: >= 100 files/s, <= 4 requests per file, RSS <= 150 MB.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openLedger } from '../src/daemon/ledger/open-ledger.js';
import type { PgLedger } from '../src/daemon/ledger/pg-ledger.js';
import { invoicePdf } from '../test/helpers/job-fixtures.js';
import { startInstantService } from './instant-engine.js';
import { startDaemonProcess, unitRuntime, vmHwmKb } from './daemon-process.js';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '2000' },
    format: { type: 'string', default: 'csv' },
    tsx: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    /** Node flags of the daemon process; default: those of systemd/docdrop.service (whose Environment= it always gets). */
    'node-flags': { type: 'string' },
    /** Write a V8 CPU profile of the daemon into this folder. */
    prof: { type: 'string' },
    health: { type: 'boolean', default: false },
    instances: { type: 'string', default: '1' },
    /** A PostgreSQL server URL: the ledger goes into a fresh database there. Default: a SQLite file. */
    state: { type: 'string' },
  },
});
const N = Number(values.files);
const INSTANCES = Number(values.instances);
if (!Number.isInteger(INSTANCES) || INSTANCES < 1) throw new Error(`--instances: expected a whole number, 1 or more, got ${values.instances}`);
if (values.health && INSTANCES > 1) throw new Error('--health: only with one instance');

/** A fresh database on the server of `serverUrl` for the ledger, its commit and row counters, and its drop. */
async function benchDatabase(serverUrl: string) {
  // The tests' helper creates (and drops) a database of its own on the server it is given at import.
  process.env.DOCDROP_TEST_PG_URL = serverUrl;
  const db = await (await import('../test/helpers/postgres.js')).createTestDatabase('bench_multi');
  return {
    url: db.url,
    /** Transactions and rows written in the database so far (the statistics lag up to a second). */
    async counters(): Promise<PgCounters> {
      const [r] = await db.query<{ xacts: string; ins: string; upd: string; del: string }>(
        'SELECT xact_commit + xact_rollback AS xacts, tup_inserted AS ins, tup_updated AS upd, tup_deleted AS del FROM pg_stat_database WHERE datname = $1',
        [db.name],
      );
      return { xacts: Number(r!.xacts), ins: Number(r!.ins), upd: Number(r!.upd), del: Number(r!.del) };
    },
    drop: () => db.drop(),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** User + system CPU seconds the process has used (/proc/PID/stat fields 14 and 15, in clock ticks of 1/100 s). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A port free now, for the daemon child's health listener (its log would otherwise have to be read). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

type PgCounters = { xacts: number; ins: number; upd: number; del: number };

/** PostgreSQL statements and rows written per input over the run, the bench's own statements taken out. */
function pgLines(start: PgCounters, end: PgCounters, bench: number): string[] {
  const statements = end.xacts - start.xacts - bench;
  const per = (n: number) => (n / N).toFixed(1);
  return [
    `PostgreSQL statements ${statements} = ${per(statements)} per input (all instances, idle ticks and claims included; ${bench} of the bench's own taken out)`,
    `PostgreSQL rows       ${per(end.ins - start.ins)} inserted, ${per(end.upd - start.upd)} updated, ${per(end.del - start.del)} deleted per input`,
  ];
}

const root = await mkdtemp(join(tmpdir(), 'docdrop-bench-'));
const healthPort = values.health ? await freePort() : 0;
const key = 'bench-key';
const svc = await startInstantService(root, key);
const pgdb = values.state ? await benchDatabase(values.state) : null;
try {
  const inbox = join(root, 'inbox');
  await mkdir(inbox, { recursive: true });
  const configPath = join(root, 'docdrop.yaml');
  await writeFile(
    configPath,
    `log_level: info
service:
  base_url: ${svc.url}
  api_key: ${key}
  requests_per_second: 100000
  upload_concurrency: 8
  poll_concurrency: 32
state: ${pgdb ? `{ url: "${pgdb.url}" }` : `{ path: ${join(root, 'state.db')} }`}
rules:
  - name: bench
    watch: ${inbox}
    stable_ms: 300
    workflow: Invoices
    duplicates: process
    output: { dir: ${join(root, 'outbox')}, format: ${values.format}, layout: line_items }
    after: { success: move, processed_dir: ${join(root, 'processed')}, failed_dir: ${join(root, 'failed')}, duplicates_dir: ${join(root, 'dups')} }
${values.health ? `health: { listen: "127.0.0.1:${healthPort}" }\n` : ''}`,
  );

  const prof = values.prof ? ['--cpu-prof', '--cpu-prof-dir', resolve(values.prof)] : [];
  const unit = await unitRuntime();
  const nodeFlags = [...(values['node-flags']?.split(/\s+/).filter(Boolean) ?? unit.nodeFlags), ...prof];
  const daemons = [];
  for (let i = 0; i < INSTANCES; i++) daemons.push(await startDaemonProcess(configPath, { tsx: values.tsx, nodeFlags, env: unit.env }));
  const pids = daemons.map((d) => d.child.pid!);
  const cpuOf = async () => (await Promise.all(pids.map(cpuSeconds))).reduce((a, b) => a + b, 0);
  const hwmOf = async () => Math.max(...(await Promise.all(pids.map(vmHwmKb))));

  // Unique bytes per file (a comment after %%EOF) from one small text PDF.
  const base = Buffer.from(await invoicePdf({ number: 'INV-1', date: '2026-11-02', total: '25.50' }));
  const ledger = await openLedger({ path: join(root, 'state.db'), synchronous: 'normal', ...(pgdb ? { url: pgdb.url } : {}) });
  // This bench's own statements (progress polls, the events read after), to take out of the database's count.
  let ownStatements = 0;
  if (pgdb) {
    const pool = (ledger as unknown as PgLedger).pool;
    const query = pool.query.bind(pool) as (...a: unknown[]) => unknown;
    (pool as unknown as { query: (...a: unknown[]) => unknown }).query = (...a: unknown[]) => (ownStatements++, query(...a));
  }
  const pgAtStart = await pgdb?.counters();
  const cpuAtStart = await cpuOf();

  const ownCpuAtStart = process.cpuUsage();
  const t0 = Date.now();
  for (let i = 0; i < N; i++) await writeFile(join(inbox, `f-${i}.pdf`), Buffer.concat([base, Buffer.from(`\n%bench-${i}\n`)]));
  const dropped = Date.now();

  // Prometheus-like scrapes, one a second, while the files go through.
  let scrapes = 0;
  const scraper = values.health
    ? setInterval(() => {
        for (const path of ['/metrics', '/readyz']) {
          void fetch(`http://127.0.0.1:${healthPort}${path}`)
            .then((r) => r.text())
            .then(() => void (path === '/metrics' && scrapes++))
            .catch(() => undefined);
        }
      }, 1000)
    : null;
  let hwm = 0;
  let counts;
  for (;;) {
    hwm = Math.max(hwm, await hwmOf());
    counts = await ledger.countByState();
    // With several instances, a file two of them took at once also leaves a `duplicate` input (not a file).
    const active = counts.queued + counts.uploaded + counts.submitted + counts.extracted + counts.written + counts.timed_out;
    if (counts.done + counts.failed >= N && active === 0) break;
    if (Date.now() - t0 > 15 * 60_000) throw new Error(`gave up after 15 min: ${JSON.stringify(counts)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const finished = Date.now();
  if (scraper) clearInterval(scraper);
  hwm = Math.max(hwm, await hwmOf());
  const cpu = (await cpuOf()) - cpuAtStart;
  const ownCpu = process.cpuUsage(ownCpuAtStart);
  const serviceCpu = (ownCpu.user + ownCpu.system) / 1e6;
  for (const d of daemons) d.child.kill('SIGTERM');
  for (const d of daemons) await d.exited;
  // The statistics of a backend reach pg_stat_database when it ends, or within a second.
  await new Promise((r) => setTimeout(r, 1500));
  const pgAtEnd = await pgdb?.counters();
  const statementsOfBench = ownStatements;

  const all = await ledger.list({});
  const latencies: number[] = [];
  let firstQueued = Infinity;
  for (const r of all) {
    const ev = await ledger.events(r.id);
    const queued = ev.find((e) => e.kind === 'queued')?.at;
    const written = ev.find((e) => e.kind === 'written')?.at;
    if (queued !== undefined) firstQueued = Math.min(firstQueued, queued);
    if (queued !== undefined && written !== undefined) latencies.push(written - queued);
  }
  await ledger.close();
  latencies.sort((a, b) => a - b);
  const requests: Record<string, number> = {};
  for (const d of daemons) {
    const stopLine = d.log().split('\n').reverse().find((l) => l.includes('"daemon stopped"'));
    const r = stopLine ? (JSON.parse(stopLine) as { requests: Record<string, number> }).requests : { total: NaN };
    for (const [k, v] of Object.entries(r)) requests[k] = (requests[k] ?? 0) + v;
  }
  const outputs = (await readdir(join(root, 'outbox'))).filter((f) => !f.startsWith('.')).length;

  const lines = [
    `files                 ${N} (${counts.done} done, ${counts.failed} failed), ${outputs} output files, daemon via ${daemons[0]!.via}`,
    `drop time             ${((dropped - t0) / 1000).toFixed(1)} s`,
    `throughput            ${(N / ((finished - firstQueued) / 1000)).toFixed(1)} files/s (first queued to last done); ${(N / ((finished - t0) / 1000)).toFixed(1)} files/s from first drop`,
    `API requests          ${requests.total} = ${(Number(requests.total) / N).toFixed(2)} per file  ${JSON.stringify(requests)}`,
    `stable -> output      p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms`,
    `daemon CPU            ${cpu.toFixed(1)} s = ${((cpu / N) * 1000).toFixed(1)} ms per file (=> ${(N / cpu).toFixed(0)} files/s per core of daemon time)`,
    `service CPU           ${serviceCpu.toFixed(1)} s = ${((serviceCpu / N) * 1000).toFixed(1)} ms per file (this process: the service, the file drops, the progress polls)`,
    `load average          ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')} (other processes on the machine slow both sides)`,
    `daemon peak RSS       ${(hwm / 1024).toFixed(1)} MB (VmHWM)`,
    `instances             ${INSTANCES} daemon process${INSTANCES > 1 ? 'es' : ''} on one inbox; ledger ${pgdb ? 'PostgreSQL' : 'SQLite'}`,
    ...(pgdb && pgAtStart && pgAtEnd ? pgLines(pgAtStart, pgAtEnd, statementsOfBench) : []),
    `health and metrics    ${values.health ? `on, ${scrapes} scrapes of /metrics (and /readyz) during the run` : 'off (--health turns them on)'}`,
  ];
  console.log(lines.join('\n'));
} finally {
  await svc.close();
  await pgdb?.drop();
  if (!values.keep) await rm(root, { recursive: true, force: true });
  else console.log(`kept ${root}`);
}
