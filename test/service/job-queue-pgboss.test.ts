// The pg-boss JobQueue adapter on a real PostgreSQL (a fresh database for this file): a job is queued
// once, runs at most --job-concurrency at a time per process, is handed out again (marked redelivered)
// when its hand-out ends without an answer, and is given up (abandoned) after RETRY_LIMIT redeliveries.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { silentLogger } from '../../src/shared/logger.js';
import type { JobDelivery, JobHandlers, JobRunOutcome } from '../../src/service/jobs/job-queue.js';
import { RETRY_LIMIT, startPgBossQueue, type PgBossJobQueue } from '../../src/service/jobs/job-queue-pgboss.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

let db: TestDatabase;
const open: PgBossJobQueue[] = [];

before(async () => {
  db = await createTestDatabase('svcqueue');
});
// The tests share one queue (one database): each closes its processes, so none takes the next one's jobs.
afterEach(async () => {
  for (const q of open.splice(0)) await q.close();
});
after(async () => {
  await db.drop();
});

async function queue(concurrency = 2, jobTimeoutSeconds = 60): Promise<PgBossJobQueue> {
  const q = await startPgBossQueue({ connectionString: db.url, concurrency, jobTimeoutSeconds, logger: silentLogger });
  open.push(q);
  return q;
}

/** Handlers that record every hand-out; `run` decides each outcome. */
function recorder(run: (id: string, d: JobDelivery) => Promise<JobRunOutcome> = async () => 'finished') {
  const deliveries: { id: string; redelivered: boolean }[] = [];
  const abandoned: string[] = [];
  const handlers: JobHandlers = {
    run: async (id, d) => {
      deliveries.push({ id, redelivered: d.redelivered });
      return run(id, d);
    },
    abandon: async (id) => void abandoned.push(id),
  };
  return { handlers, deliveries, abandoned };
}

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 100));
}

test('a request id queued twice (and by two processes) runs once', async () => {
  const [a, b] = [await queue(), await queue()];
  const id = randomUUID();
  await a.enqueue(id);
  await a.enqueue(id);
  await b.enqueue(id);
  const r = recorder();
  await a.consume(r.handlers);
  await a.idle();
  assert.deepEqual(r.deliveries, [{ id, redelivered: false }]);
});

test('one process runs at most --job-concurrency jobs at once, and every queued job runs', async () => {
  const q = await queue(2);
  const ids = Array.from({ length: 6 }, () => randomUUID());
  for (const id of ids) await q.enqueue(id);
  assert.equal((await q.depth()).waiting, 6, 'waiting counts the shared queue before anyone consumes');
  let now = 0;
  let most = 0;
  const r = recorder(async () => {
    most = Math.max(most, ++now);
    await new Promise((res) => setTimeout(res, 150));
    now--;
    return 'finished';
  });
  await q.consume(r.handlers);
  await q.idle();
  assert.deepEqual(r.deliveries.map((d) => d.id).sort(), [...ids].sort());
  assert.ok(most <= 2, `at most 2 at once, saw ${most}`);
});

test('a hand-out that ends without an answer is handed out again, marked redelivered', async () => {
  const q = await queue(1);
  const id = randomUUID();
  let first = true;
  // The first hand-out stops mid-job (as a closing worker does); pg-boss hands the job out again.
  const r = recorder(async () => (first ? ((first = false), 'interrupted') : 'finished'));
  await q.enqueue(id);
  await q.consume(r.handlers);
  await until(() => r.deliveries.length === 2);
  await q.idle();
  assert.deepEqual(r.deliveries, [
    { id, redelivered: false },
    { id, redelivered: true },
  ]);
});

test('a run gets a deadline before the hand-out expires', async () => {
  const q = await queue(1, 4);
  const id = randomUUID();
  let sawDeadline = false;
  const r = recorder(async (_id, d) => {
    await new Promise<void>((res) => d.deadline!.addEventListener('abort', () => res(), { once: true }));
    sawDeadline = true;
    return 'finished';
  });
  await q.enqueue(id);
  await q.consume(r.handlers);
  await q.idle();
  assert.ok(sawDeadline);
  assert.deepEqual(r.deliveries, [{ id, redelivered: false }], 'a run that answers by its deadline is not handed out again');
});

test(`a job interrupted ${RETRY_LIMIT + 1} times is given up and abandoned once`, async () => {
  const q = await queue(1);
  const id = randomUUID();
  const r = recorder(async () => 'interrupted');
  await q.enqueue(id);
  await q.consume(r.handlers);
  await until(() => r.abandoned.length === 1);
  await q.idle();
  assert.equal(r.deliveries.length, RETRY_LIMIT + 1);
  assert.deepEqual(r.abandoned, [id]);
});

test('processes starting together on a new database all open the queue (creating it at once can deadlock in PostgreSQL)', async () => {
  for (let round = 0; round < 3; round++) {
    const fresh = await createTestDatabase('svcqueue');
    try {
      const started = await Promise.all(
        Array.from({ length: 4 }, () => startPgBossQueue({ connectionString: fresh.url, concurrency: 1, jobTimeoutSeconds: 60, logger: silentLogger })),
      );
      assert.equal(started.length, 4);
      for (const q of started) await q.close();
    } finally {
      await fresh.drop();
    }
  }
});
