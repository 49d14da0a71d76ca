// The JobQueue port: where a recorded job waits for a worker. The jobs table stays the truth of what a
// job is and how it ended; a queue only carries request ids to the processes that run them.
// Adapters: worker-pool.ts (in-process, p-queue: one `docdrop serve` on SQLite) and job-queue-pgboss.ts
// (pg-boss on the service's PostgreSQL: several processes, each job handed to one worker at a time).

/** One hand-out of a job to this process. */
export interface JobDelivery {
  /** Aborted when the process is closing: the run stops without recording an end (another start resumes it). */
  signal: AbortSignal;
  /**
   * Aborted when the job has run as long as the queue lets one hand-out run (--job-timeout): the run records
   * an end at once, before the queue would hand the job to another worker. Absent: no time limit.
   */
  deadline?: AbortSignal;
  /**
   * The queue handed this job out before and that hand-out ended without an answer (its worker died, or
   * stopped mid-job): a job left 'processing' may be taken over.
   */
  redelivered: boolean;
}

/**
 * How a run ended: `finished` recorded a final state, `skipped` found nothing to do (deleted, finished or
 * taken already), `interrupted` stopped for closing with the job still unfinished (the queue must hand it out again).
 */
export type JobRunOutcome = 'finished' | 'skipped' | 'interrupted';

export type ProcessJob = (requestId: string, delivery: JobDelivery) => Promise<JobRunOutcome>;

export interface JobHandlers {
  run: ProcessJob;
  /** Ends a job the queue gave up on (its workers kept stopping mid-job); a shared queue calls it. */
  abandon(requestId: string, attempts: number): Promise<void>;
}

export interface QueueDepth {
  /** Jobs waiting for a worker (in every process, for a shared queue). */
  waiting: number;
  /** Jobs this process is working on. */
  running: number;
}

export interface JobQueue {
  /** Queues a recorded pending job; resolves once it is queued durably. Queuing an id twice runs it once. */
  enqueue(requestId: string): Promise<void>;
  /** Starts running queued jobs in this process, at most `concurrency` at once (roles worker and all). */
  consume(handlers: JobHandlers): Promise<void>;
  /** False once closing (readiness). */
  readonly running: boolean;
  depth(): Promise<QueueDepth>;
  /** Resolves when this process has no job queued locally or running (tests). */
  idle(): Promise<void>;
  /** Stops taking jobs, signals running ones to stop and waits for them. */
  close(): Promise<void>;
}
