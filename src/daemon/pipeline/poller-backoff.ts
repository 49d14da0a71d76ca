// Delays between polls and between retries of a failed call. Exponential from the initial delay, doubling,
// capped, with +-20% jitter so inputs submitted together do not poll in lock-step. A server's Retry-After
// is a floor: we never come back earlier than it asked.

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
}

export function backoffDelayMs(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const base = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, Math.min(attempt, 30)));
  const jittered = base * (0.8 + 0.4 * random());
  return Math.round(Math.min(policy.maxMs, jittered));
}

export function retryDelayMs(attempt: number, policy: BackoffPolicy, retryAfterMs?: number, random?: () => number): number {
  const delay = backoffDelayMs(attempt, policy, random);
  return retryAfterMs !== undefined ? Math.max(delay, retryAfterMs) : delay;
}
