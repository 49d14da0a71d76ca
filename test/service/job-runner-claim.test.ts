// The job runner's claim as the queues use it, on a real SQLite store: a 'processing' job is taken over
// only when the queue hands it out again (redelivered); an ended job is never run again; a run past its
// deadline records 'exception' at once and its late work records nothing.
// (Jobs here name a document that does not exist: the run claims, then ends 'failed' without the engine.)
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDocumentEngine } from '../../src/engine/index.js';
import { silentLogger } from '../../src/shared/logger.js';
import { FaultInjector } from '../../src/service/faults.js';
import { createJobRunner } from '../../src/service/jobs/job-runner.js';
import { FileStore } from '../../src/service/store/file-store.js';
import { openSqliteStore } from '../../src/service/store/sqlite-store.js';

const dir = await mkdtemp(join(tmpdir(), 'docdrop-runner-claim-'));
const store = openSqliteStore(dir);
const files = new FileStore(join(dir, 'files'));
await files.init();
const engine = createDocumentEngine();
after(async () => {
  await store.close();
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

function runner(faults = new FaultInjector()) {
  const ended: string[] = [];
  const r = createJobRunner({
    documents: store.documents,
    templates: store.templates,
    classifiers: store.classifiers,
    files,
    logger: silentLogger,
    store: store.jobs,
    engine,
    faults,
    onFinished: async (job) => void ended.push(job.request_id),
  });
  return { ...r, ended };
}

async function job(): Promise<string> {
  const id = randomUUID();
  await store.jobs.insert({ request_id: id, account: 'acct_test', document_id: randomUUID(), template_id: randomUUID(), classifier_id: null, submitted_via: 'run_parser', params: {} });
  return id;
}

const live = () => ({ signal: new AbortController().signal });

test('a processing job is taken over only when the queue hands it out again', async () => {
  const r = runner();
  const id = await job();
  assert.equal(await store.jobs.claim(id), true); // a worker took it, then died
  assert.equal(await r.run(id, { ...live(), redelivered: false }), 'skipped', 'a first hand-out never takes a processing job');
  assert.equal((await store.jobs.get(id))?.status, 'processing');
  assert.equal(await r.run(id, { ...live(), redelivered: true }), 'finished');
  assert.equal((await store.jobs.get(id))?.status, 'failed');
  assert.deepEqual(r.ended, [id]);
});

test('an ended job is never run again, redelivered or not', async () => {
  const r = runner();
  const id = await job();
  assert.equal(await r.run(id, { ...live(), redelivered: false }), 'finished');
  const endedAt = await store.jobs.get(id);
  for (const redelivered of [false, true]) assert.equal(await r.run(id, { ...live(), redelivered }), 'skipped');
  assert.deepEqual(await store.jobs.get(id), endedAt);
  assert.deepEqual(r.ended, [id]);
});

test('a run past its deadline ends exception at once; its late work records nothing', async () => {
  const faults = new FaultInjector({ jobDelayMs: 60_000 }); // the work is still "running" at the deadline
  const r = runner(faults);
  const id = await job();
  const deadline = new AbortController();
  const running = r.run(id, { ...live(), deadline: deadline.signal, redelivered: false });
  deadline.abort();
  assert.equal(await running, 'finished');
  const ended = await store.jobs.get(id);
  assert.equal(ended?.status, 'exception');
  assert.match(ended!.user_error_msg!, /--job-timeout/);
  faults.close(); // the work's delay ends now; it must not record an end over the deadline's
  await new Promise((res) => setTimeout(res, 50));
  assert.deepEqual(await store.jobs.get(id), ended);
  assert.deepEqual(r.ended, [id]);
});

test('abandon ends an unfinished job exception once, and leaves an ended one alone', async () => {
  const r = runner();
  const id = await job();
  await store.jobs.claim(id);
  await r.abandon(id, 6);
  assert.equal((await store.jobs.get(id))?.status, 'exception');
  assert.match((await store.jobs.get(id))!.user_error_msg!, /interrupted 6 times/);
  await r.abandon(id, 6);
  assert.deepEqual(r.ended, [id]);
});
