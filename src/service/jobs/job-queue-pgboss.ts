// The JobQueue on the service's PostgreSQL, with pg-boss (docs/service.md#jobs-on-several-workers says why
// pg-boss). Every `docdrop serve` sharing the database sends to one queue; processes of role worker/all
// take jobs from it, one hand-out at a time per job (FOR UPDATE SKIP LOCKED).
//   - A job is queued once: its pg-boss id is the request id, so a second send is a no-op.
//   - A worker that dies mid-job: pg-boss's maintenance moves a job active for longer than its
//     expireInSeconds (--job-timeout) back to 'retry', and another worker takes it (retryCount > 0:
//     `redelivered`). A live worker never reaches that point: its run's deadline fires a little earlier
//     and the run records an end itself, so a merely slow job is not handed to a second worker.
//   - After RETRY_LIMIT such redeliveries pg-boss fails the job into the dead-letter queue, whose handler
//     ends it 'exception' in the store (a document that kills every worker that reads it must end too).
import PgBoss from 'pg-boss';
import type { Logger } from '../../shared/logger.js';
import type { JobHandlers, JobQueue, ProcessJob, QueueDepth } from './job-queue.js';

export const JOB_QUEUE_NAME = 'docdrop-jobs';
export const ABANDONED_QUEUE_NAME = 'docdrop-jobs-abandoned';
/** Redeliveries after a worker died or stopped mid-job, before the job is given up. */
export const RETRY_LIMIT = 5;
/** How often an idle worker asks for a job; a job sent by this process wakes its own workers at once. */
const POLL_SECONDS = 1;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PgBossQueueOptions {
  connectionString: string;
  /** Jobs this process runs at once (--job-concurrency). */
  concurrency: number;
  /** The longest one hand-out of a job may run (--job-timeout), seconds; also how late a dead worker's job is retried. */
  jobTimeoutSeconds: number;
  logger: Logger;
}

interface JobData {
  requestId: string;
}

/**
 * When this process stops a run itself: before pg-boss's own expiry (its maintenance compares the
 * database's clock with started_on, its worker races the handler with expireInSeconds), by a margin
 * for clock skew and the round trip that recorded the start.
 */
export function runDeadlineMs(expireInSeconds: number): number {
  const ms = expireInSeconds * 1000;
  return Math.max(ms / 2, ms - Math.min(30_000, Math.max(1_000, ms / 10)));
}

export async function startPgBossQueue(o: PgBossQueueOptions): Promise<PgBossJobQueue> {
  if (!Number.isInteger(o.concurrency) || o.concurrency < 1) throw new Error(`job concurrency: expected an integer >= 1, received ${o.concurrency}`);
  if (!(o.jobTimeoutSeconds >= 2 && o.jobTimeoutSeconds < 24 * 3600)) {
    throw new Error(`job timeout (--job-timeout): expected seconds between 2 and 86399 (pg-boss's limit is 24 h), received ${o.jobTimeoutSeconds}`);
  }
  const boss = new PgBoss({
    connectionString: o.connectionString,
    application_name: 'docdrop-serve-queue',
    max: o.concurrency + 2,
    // Maintenance is what retries a dead worker's job: run it often enough that the delay after
    // --job-timeout stays small (one process at a time runs it; pg-boss serialises it in the database).
    maintenanceIntervalSeconds: Math.min(60, Math.max(1, Math.round(o.jobTimeoutSeconds / 10))),
    schedule: false,
  });
  boss.on('error', (err) => o.logger.warn({ err }, 'job queue (pg-boss) error'));
  await boss.start();
  try {
    await createQueues(boss);
  } catch (err) {
    // A started pg-boss holds timers and connections: without stop() the process could not exit.
    await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
    throw err;
  }
  return new PgBossJobQueue(boss, o);
}

/** PostgreSQL's code for a deadlock it broke by aborting one side. */
const DEADLOCK = '40P01';

/**
 * Creates the queues, idempotently. pg-boss creates its schema under an advisory lock, but two processes
 * creating the same queue at once (each adds a partition table) can deadlock in PostgreSQL, which aborts
 * one of them: that one tries again, and then finds the queue there.
 */
async function createQueues(boss: PgBoss): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(ABANDONED_QUEUE_NAME);
      await boss.createQueue(JOB_QUEUE_NAME, { name: JOB_QUEUE_NAME, deadLetter: ABANDONED_QUEUE_NAME, retryLimit: RETRY_LIMIT });
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== DEADLOCK || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 100));
    }
  }
}

export class PgBossJobQueue implements JobQueue {
  private readonly stop = new AbortController();
  private readonly workerIds: string[] = [];
  private inFlight = 0;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly boss: PgBoss,
    private readonly o: PgBossQueueOptions,
  ) {}

  async enqueue(requestId: string): Promise<void> {
    if (!UUID.test(requestId)) throw new Error(`job queue: a request id must be a UUID (the pg-boss job id), received '${requestId}'`);
    await this.boss.send(JOB_QUEUE_NAME, { requestId } satisfies JobData, {
      id: requestId,
      singletonKey: requestId,
      expireInSeconds: this.o.jobTimeoutSeconds,
      retryLimit: RETRY_LIMIT,
    });
    for (const id of this.workerIds) this.boss.notifyWorker(id);
  }

  async consume({ run, abandon }: JobHandlers): Promise<void> {
    const options = { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: POLL_SECONDS };
    // pg-boss 10 runs one job at a time per work() loop: concurrency N is N loops.
    for (let i = 0; i < this.o.concurrency; i++) {
      this.workerIds.push(await this.boss.work<JobData>(JOB_QUEUE_NAME, options, ([job]) => this.run(run, job!)));
    }
    await this.boss.work<JobData>(ABANDONED_QUEUE_NAME, options, async ([job]) => {
      this.o.logger.warn({ requestId: job!.data.requestId }, 'job given up: its workers stopped mid-job too often');
      await abandon(job!.data.requestId, RETRY_LIMIT + 1);
    });
  }

  private async run(process: ProcessJob, job: PgBoss.JobWithMetadata<JobData>): Promise<void> {
    const { requestId } = job.data;
    this.inFlight++;
    try {
      const deadline = AbortSignal.timeout(runDeadlineMs(job.expireInSeconds));
      const outcome = await process(requestId, { signal: this.stop.signal, deadline, redelivered: job.retryCount > 0 });
      // Thrown, pg-boss fails this hand-out and hands the job out again (to a live worker).
      if (outcome === 'interrupted') throw new Error('the worker stopped before the job ended');
    } finally {
      this.inFlight--;
    }
  }

  get running(): boolean {
    return !this.stop.signal.aborted;
  }

  async depth(): Promise<QueueDepth> {
    return { waiting: await this.boss.getQueueSize(JOB_QUEUE_NAME), running: this.inFlight };
  }

  /** Resolves when no job of the shared queue waits or runs anywhere (tests, benches). */
  async idle(): Promise<void> {
    while ((await this.boss.getQueueSize(JOB_QUEUE_NAME, { before: 'completed' })) > 0 || this.inFlight > 0) {
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  close(): Promise<void> {
    return (this.closing ??= (async () => {
      this.stop.abort(new Error('service closing'));
      // Graceful: waits for running hand-outs (they return 'interrupted' or finish), then fails what is
      // still active so another worker takes it now rather than after --job-timeout.
      await this.boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    })());
  }
}
