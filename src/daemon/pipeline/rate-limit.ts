// One request limiter shared by every API call of the daemon (uploads, submits, polls, start-up lookups),
// plus separate concurrency limits per kind of step. The limiter caps calls per second; the step queues cap
// how many uploads and polls are open at once, so a burst of polls cannot starve uploads or the reverse.
import PQueue from 'p-queue';

/** requests_per_second <= 0 or Infinity lifts the limit (benchmarks against a local service). */
export function createRequestLimiter(requestsPerSecond: number): PQueue {
  if (!Number.isFinite(requestsPerSecond) || requestsPerSecond <= 0) return new PQueue();
  // intervalCap must be an integer >= 1; a fractional rate (0.5/s) becomes 1 per 1/rate seconds.
  if (requestsPerSecond < 1) return new PQueue({ intervalCap: 1, interval: Math.round(1000 / requestsPerSecond) });
  return new PQueue({ intervalCap: Math.floor(requestsPerSecond), interval: 1000 });
}

export interface StepQueues {
  /** upload + submit: each holds a file stream open, so they share upload_concurrency. */
  upload: PQueue;
  /** job polls (submitted and timed_out inputs). */
  poll: PQueue;
  /** local work: hashing, output writes, moves. */
  local: PQueue;
}

export function createStepQueues(limits: { uploadConcurrency: number; pollConcurrency: number; localConcurrency?: number }): StepQueues {
  return {
    upload: new PQueue({ concurrency: limits.uploadConcurrency }),
    poll: new PQueue({ concurrency: limits.pollConcurrency }),
    local: new PQueue({ concurrency: limits.localConcurrency ?? 8 }),
  };
}
