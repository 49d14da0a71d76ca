// Picks the JobQueue adapter once at start: in-process with SQLite (one process), pg-boss with a
// PostgreSQL store (several processes share the queue); checks --role against it.
import type { Logger } from '../../shared/logger.js';
import type { ServeRole } from '../serve-options.js';
import type { JobQueue } from './job-queue.js';
import { startPgBossQueue } from './job-queue-pgboss.js';
import { WorkerPool } from './worker-pool.js';

export interface JobQueueSettings {
  /** postgres:// URL of the shared store; absent = SQLite, one process. */
  postgresUrl?: string;
  role: ServeRole;
  concurrency: number;
  jobTimeoutSeconds: number;
  logger: Logger;
}

export async function openJobQueue(s: JobQueueSettings): Promise<{ queue: JobQueue; shared: boolean }> {
  if (!s.postgresUrl) {
    if (s.role !== 'all') {
      throw new Error(`--role ${s.role}: needs a PostgreSQL --database (processes share jobs only through PostgreSQL); with SQLite the one process has --role all`);
    }
    return { queue: new WorkerPool(s.logger, s.concurrency), shared: false };
  }
  const queue = await startPgBossQueue({ connectionString: s.postgresUrl, concurrency: s.concurrency, jobTimeoutSeconds: s.jobTimeoutSeconds, logger: s.logger });
  return { queue, shared: true };
}
