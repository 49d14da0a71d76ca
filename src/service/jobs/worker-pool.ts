// The in-process JobQueue (one `docdrop serve` on SQLite): runs jobs with bounded concurrency. The queue
// holds request ids only; the jobs table is the truth, so after a crash the ids are rebuilt from the
// table (JobStore.requeueUnfinished) and nothing is lost.
import PQueue from 'p-queue';
import type { Logger } from '../../shared/logger.js';
import type { JobHandlers, JobQueue, ProcessJob, QueueDepth } from './job-queue.js';

export class WorkerPool implements JobQueue {
  private readonly queue: PQueue;
  private readonly stop = new AbortController();
  private readonly queued = new Set<string>();
  private process: ProcessJob | undefined;

  constructor(
    private readonly logger: Logger,
    concurrency: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`job concurrency: expected an integer >= 1, received ${concurrency}`);
    // Paused until consume(): a job submitted before the workers start waits here.
    this.queue = new PQueue({ concurrency, autoStart: false });
  }

  /** Queues a job unless it is queued already or the pool is closing. */
  async enqueue(requestId: string): Promise<void> {
    if (this.stop.signal.aborted || this.queued.has(requestId)) return;
    this.queued.add(requestId);
    void this.queue.add(async () => {
      this.queued.delete(requestId);
      if (this.stop.signal.aborted || !this.process) return;
      try {
        await this.process(requestId, { signal: this.stop.signal, redelivered: false });
      } catch (err) {
        // process() records job-level failures itself; reaching here is a bug or a store failure.
        this.logger.error({ err, requestId }, 'job processing crashed');
      }
    });
  }

  async consume(handlers: JobHandlers): Promise<void> {
    this.process = handlers.run;
    this.queue.start();
  }

  /** False once closing: no job will be taken any more (readiness). */
  get running(): boolean {
    return !this.stop.signal.aborted;
  }

  /** Jobs waiting for a worker and jobs being worked on (metrics). */
  async depth(): Promise<QueueDepth> {
    return { waiting: this.queue.size, running: this.queue.pending };
  }

  /** Resolves when no job is queued or running. */
  async idle(): Promise<void> {
    await this.queue.onIdle();
  }

  /**
   * Stops taking jobs and signals running ones to stop. Queued and interrupted jobs stay pending or
   * processing in the store and are resumed by the next start.
   */
  async close(): Promise<void> {
    this.stop.abort(new Error('service closing'));
    this.queue.clear();
    await this.queue.onIdle();
  }
}
