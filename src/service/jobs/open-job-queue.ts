// Picks the JobQueue adapter once at start: in-process with SQLite (one process), pg-boss with a
// PostgreSQL store (several processes share the queue).
import type { Logger } from '../../shared/logger.js';
import type { JobQueue } from './job-queue.js';
import { startPgBossQueue } from './job-queue-pgboss.js';
import { WorkerPool } from './worker-pool.js';

export interface JobQueueSettings {
  /** postgres:// URL of the shared store; absent = SQLite, one process (--role all: resolveOptions checks). */
  postgresUrl?: string;
  concurrency: number;
  jobTimeoutSeconds: number;
  logger: Logger;
}

export async function openJobQueue(s: JobQueueSettings): Promise<{ queue: JobQueue; shared: boolean }> {
  if (!s.postgresUrl) {
    return { queue: new WorkerPool(s.logger, s.concurrency), shared: false };
  }
  const queue = await startPgBossQueue({ connectionString: s.postgresUrl, concurrency: s.concurrency, jobTimeoutSeconds: s.jobTimeoutSeconds, logger: s.logger });
  return { queue, shared: true };
}
