// Issue 16 §5-6 end to end: real `docdrop serve` processes sharing one PostgreSQL database (fresh, dropped
// after) and one --files folder. One is SIGKILLed with jobs in flight: every job still ends completed,
// recorded once, and the survivor answers for what was uploaded through the dead one. Roles: a pure
// worker runs the jobs an api process queues, and answers nothing but health paths.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { REPO, docdrop } from '../helpers/cli.js';
import { invoicePdf, invoiceTemplate, writeFixture } from '../helpers/job-fixtures.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

const KEY = 'svcqueue-e2e-key';
let db: TestDatabase;
let root: string;
const children: ChildProcess[] = [];

before(async () => {
  db = await createTestDatabase('svcqueue');
  root = await mkdtemp(join(tmpdir(), 'docdrop-serve-workers-'));
  await mkdir(join(root, 'in'));
});
after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await db.drop();
  await rm(root, { recursive: true, force: true });
});

interface Serve {
  child: ChildProcess;
  url: string;
  /** JSON log lines so far. */
  lines(): Record<string, unknown>[];
}

/** `docdrop serve` from the sources on a free port, sharing the database and the files folder. */
async function serve(name: string, args: string[]): Promise<Serve> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--data-dir', join(root, name), '--database', db.url, '--files', join(root, 'files'), '--log-format', 'json', ...args],
    { cwd: REPO, env: { ...process.env, DOCDROP_API_KEYS: KEY }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(child);
  let log = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (log += c));
  const lines = () => log.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  for (;;) {
    const ready = lines().find((l) => typeof l.msg === 'string' && l.msg.startsWith('docdrop serve listening at'));
    if (ready) return { child, url: (ready.msg as string).split(' at ')[1]!, lines };
    if (child.exitCode !== null) throw new Error(`docdrop serve (${name}) exited:\n${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const events = (s: Serve, msg: string) => s.lines().filter((l) => typeof l.msg === 'string' && (l.msg as string).startsWith(msg)).map((l) => l.requestId as string);

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 100));
}

test('a process SIGKILLed with jobs in flight: every job ends completed, recorded once, and the survivor answers for its uploads', async () => {
  // Short --job-timeout: the dead process's jobs are handed out again ~20 s after they started (long
  // enough for a job on a loaded machine). The delay keeps jobs in flight on B (3 s) to kill B mid-job.
  const a = await serve('a', ['--role', 'all', '--job-timeout', '20', '--job-concurrency', '1', '--fault-job-delay-ms', '500']);
  const b = await serve('b', ['--role', 'all', '--job-timeout', '20', '--job-concurrency', '2', '--fault-job-delay-ms', '3000']);
  const ca = new ServiceClient({ baseUrl: a.url, apiKey: KEY, retry: false });
  const cb = new ServiceClient({ baseUrl: b.url, apiKey: KEY, retry: false });

  const template = (await cb.createTemplate(invoiceTemplate('Kill'))).template_id;
  const uploads: { doc: string; via: ServiceClient; number: string }[] = [];
  for (let i = 0; i < 8; i++) {
    const number = `K-${i}`;
    const pdf = await writeFixture(join(root, 'in'), `${number}.pdf`, await invoicePdf({ number, total: `${i + 1}.00`, date: '2026-11-24' }));
    const via = i % 2 ? ca : cb;
    uploads.push({ doc: (await via.uploadDocument(pdf)).document_id, via, number });
  }
  const jobs = new Map<string, string>();
  for (const u of uploads) jobs.set(((await u.via.runParser(u.doc, { template_id: template })) as { request_id: string }).request_id, u.number);

  await until(() => events(b, 'job started').filter((id) => !events(b, 'job finished').includes(id)).length > 0);
  const inFlightOnB = events(b, 'job started').filter((id) => !events(b, 'job finished').includes(id));
  b.child.kill('SIGKILL');
  await new Promise((r) => b.child.once('exit', r));

  for (const id of jobs.keys()) await until(async () => ['completed', 'failed', 'exception'].includes((await ca.getJob(id)).request_status));
  const finished = [...events(a, 'job finished'), ...events(b, 'job finished')];
  for (const [id, number] of jobs) {
    const job = await ca.getJob(id);
    assert.equal(job.request_status, 'completed', `${id}: ${job.response_body?.user_error_msg ?? ''}`);
    assert.equal((job.response_body?.result_json_data as Record<string, unknown>).invoice_number, number);
    // B's last log lines may die with it (its log is written asynchronously): never twice, and A's are complete.
    assert.ok(finished.filter((f) => f === id).length <= 1, `job ${id} recorded its end at most once`);
    const runs = [...events(a, 'job started'), ...events(b, 'job started')].filter((s) => s === id).length;
    assert.ok(runs >= 1 && runs <= 2, `job ${id} ran at most twice (once more after the kill), ran ${runs}`);
  }
  for (const id of inFlightOnB) {
    assert.ok(events(a, 'job started').includes(id), `A took over ${id}, in flight on B when it died`);
    assert.equal(events(a, 'job finished').filter((f) => f === id).length, 1, `A recorded the end of ${id} once`);
  }

  // Everything uploaded through B is served by A, bytes included.
  for (const u of uploads.filter((u) => u.via === cb)) {
    const doc = await ca.getDocument(u.doc);
    assert.equal(doc.document_id, u.doc);
    const res = await fetch(doc.storage_key!);
    assert.equal(res.status, 200);
    assert.equal(Buffer.from(await res.arrayBuffer()).subarray(0, 5).toString(), '%PDF-');
  }
  a.child.kill('SIGTERM');
  await new Promise((r) => a.child.once('exit', r));
});

test('--role api queues jobs that a --role worker runs; the worker answers only health paths', async () => {
  const api = await serve('api', ['--role', 'api', '--job-timeout', '30']);
  const worker = await serve('worker', ['--role', 'worker', '--job-timeout', '30']);
  const c = new ServiceClient({ baseUrl: api.url, apiKey: KEY, retry: false });
  const template = (await c.createTemplate(invoiceTemplate('Roles'))).template_id;
  const pdf = await writeFixture(join(root, 'in'), 'R-1.pdf', await invoicePdf({ number: 'R-1', total: '5.00', date: '2026-11-24' }));
  const doc = (await c.uploadDocument(pdf)).document_id;
  const id = ((await c.runParser(doc, { template_id: template })) as { request_id: string }).request_id;
  await until(async () => (await c.getJob(id)).request_status === 'completed');
  assert.deepEqual(events(worker, 'job started'), [id]);
  assert.deepEqual(events(api, 'job started'), [], 'the api process runs no job');

  assert.equal((await fetch(`${worker.url}/healthz`)).status, 200);
  assert.equal((await fetch(`${worker.url}/readyz`)).status, 200);
  assert.equal((await fetch(`${worker.url}/v1/documents`, { headers: { 'x-api-key': KEY } })).status, 404);
  for (const s of [api, worker]) {
    s.child.kill('SIGTERM');
    await new Promise((r) => s.child.once('exit', r));
  }
});

test('with SQLite, --role api and --role worker are refused with the reason', async () => {
  const r = await docdrop(['serve', '--data-dir', join(root, 'sqlite'), '--api-key', KEY, '--role', 'worker', '--port', '0']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /--role worker: needs a PostgreSQL --database/);
});
