// One-shot polling of a job until it finishes (e.g. `docdrop process`); the daemon has its own
// scheduler. Follows the spec's guidance: never faster than once a second, exponential backoff from
// 1 s capped at 15 s, give up after a couple of minutes.
import { backoffDelayMs } from '../shared/backoff.js';
import { sleep as defaultSleep } from '../shared/scheduler.js';
import { ApiError, ClientErrorCodes } from './api-error.js';
import type { ServiceClient } from './client.js';
import { isFinal, normaliseStatus } from './job-status.js';
import type { ExtractionJob } from './types.js';

export interface WaitForJobOptions {
  initialMs?: number;
  maxMs?: number;
  giveUpMs?: number;
  /** Wait this long before the first poll: a job just submitted is seldom done at once (`docdrop try`). */
  firstPollAfterMs?: number;
  signal?: AbortSignal;
  /** Poll GET /files (default) or GET /v1/extract. */
  via?: 'files' | 'extract';
  /** Injected for tests on virtual time. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  random?: () => number;
}

const MIN_INTERVAL_MS = 1000;

export async function waitForJob(
  client: Pick<ServiceClient, 'getJob' | 'getExtractJob'>,
  requestId: string,
  opts: WaitForJobOptions = {},
): Promise<ExtractionJob> {
  const { initialMs = 1000, maxMs = 15_000, giveUpMs = 120_000, signal, via = 'files' } = opts;
  const sleep = opts.sleep ?? defaultSleep;
  const now = opts.now ?? Date.now;
  const random = opts.random ?? Math.random;
  const deadline = now() + giveUpMs;
  const poll = via === 'extract' ? (id: string) => client.getExtractJob(id) : (id: string) => client.getJob(id);
  if (opts.firstPollAfterMs) await sleep(Math.min(opts.firstPollAfterMs, giveUpMs), signal);

  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const job = await poll(requestId);
    if (isFinal(normaliseStatus(job.request_status))) return job;
    const remaining = deadline - now();
    if (remaining <= 0) {
      throw new ApiError({
        status: 0,
        code: ClientErrorCodes.pollTimeout,
        message: `job ${requestId} still ${job.request_status} after ${Math.round(giveUpMs / 1000)} s`,
        method: 'GET',
        path: via === 'extract' ? '/v1/extract' : '/files',
      });
    }
    // Jitter of +-20% spreads pollers started together; the floor keeps us at most once a second.
    const delay = Math.max(MIN_INTERVAL_MS, backoffDelayMs(attempt, { initialMs, maxMs, jitter: { low: 0.8, high: 1.2 } }, random));
    // The last wait is cut short so one final poll happens right at the deadline.
    await sleep(Math.max(MIN_INTERVAL_MS, Math.min(delay, remaining)), signal);
  }
}
