// Time to result of `docdrop try` on a small text PDF against the embedded service (startService in this
// process, as `docdrop run` embeds it): the requests one try makes, the job's own time on the service,
// the wait the polling adds on top, and the wall time of the CLI as a person runs it (a child process).
// Run: npx tsx bench/try-latency.ts [runs=5]
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../src/api/client.js';
import type { RequestInfo } from '../src/api/http.js';
import { tryFile } from '../src/cli/try-command.js';
import { startService } from '../src/service/index.js';
import { invoiceTemplate, numberedInvoice } from '../test/daemon/pipeline-fixtures.js';
import { docdropCli } from './daemon-process.js';

const runs = Number(process.argv[2] ?? 5);
const run = promisify(execFile);
const dir = await mkdtemp(join(tmpdir(), 'docdrop-bench-try-'));
const key = 'bench-try-key';
const svc = await startService({ port: 0, dataDir: join(dir, 'service'), apiKeys: [key] });
const file = join(dir, 'invoice.pdf');
await writeFile(file, await numberedInvoice(1001));
const requests: string[] = [];
const client = new ServiceClient({ baseUrl: svc.url, apiKey: key, onRequest: (i: RequestInfo) => requests.push(`${i.method} ${i.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, ':id')}`) });
await client.createTemplate(invoiceTemplate('Invoices'));
const ms = (a: number, b: number) => `${Math.round(b - a)} ms`;

try {
  // Warm-up: the engine's first document loads pdf.js and its workers.
  await tryFile(client, 'run_parser', file, { workflow: 'Invoices' }, 60_000);
  console.log(`in-process tryFile, ${runs} runs (warm):`);
  for (let i = 0; i < runs; i++) {
    requests.length = 0;
    const t0 = performance.now();
    const r = await tryFile(client, 'run_parser', file, { workflow: 'Invoices' }, 60_000);
    const t1 = performance.now();
    const made = [...requests];
    const job = await client.getJob(r.requestId);
    const jobMs = Date.parse(`${job.updated_at}Z`) - Date.parse(`${job.created_at}Z`);
    console.log(`  ${r.outcome.status}: result after ${ms(t0, t1)} (job on the service ${jobMs} ms); ${made.length} requests: ${made.join(', ')}`);
  }
  const cli = docdropCli();
  console.log(`CLI \`docdrop try\` (${cli.length > 1 ? 'tsx' : 'dist'}), ${runs} runs, wall time including Node start:`);
  const walls: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    // Not spawnSync: the service answers from this process's event loop.
    await run(process.execPath, [...cli, 'try', file, '--workflow', 'Invoices', '--base-url', svc.url], { env: { ...process.env, DOCDROP_API_KEY: key } });
    walls.push(performance.now() - t0);
  }
  await run(process.execPath, [...cli, '--version']);
  const t0 = performance.now();
  await run(process.execPath, [...cli, '--version']);
  const startMs = performance.now() - t0;
  walls.sort((a, b) => a - b);
  console.log(`  median ${Math.round(walls[Math.floor(walls.length / 2)]!)} ms, min ${Math.round(walls[0]!)} ms, max ${Math.round(walls.at(-1)!)} ms (\`docdrop --version\` alone: ${Math.round(startMs)} ms)`);
} finally {
  await svc.close();
  await rm(dir, { recursive: true, force: true });
}
