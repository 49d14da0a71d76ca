// Delays between retries and polls, and the server's Retry-After. One exponential formula for every
// caller (API client, pipeline polls and retries, one-shot job waits, webhooks, mailbox reconnects); each
// caller keeps its own numbers. Jitter spreads callers that started together so they do not come back in
// lock-step; a Retry-After is a floor (retryDelayMs): we never come back earlier than the server asked.

export type Jitter =
  | 'none'
  /** Uniform between initialMs and the exponential delay (full jitter that never goes below initialMs). */
  | 'full'
  /** The exponential delay times a factor drawn uniformly from [low, high]: { low: 0.8, high: 1.2 } is +-20%. */
  | { low: number; high: number };

export interface BackoffPolicy {
  /** Delay of attempt 0. */
  initialMs: number;
  /** No delay is longer, jitter included. */
  maxMs: number;
  /** Growth per attempt; default 2. */
  factor?: number;
  /** Default 'none'. */
  jitter?: Jitter;
}

/** Delay before retry number `attempt` (0-based): initialMs * factor^attempt, jittered, capped at maxMs; whole ms. */
export function backoffDelayMs(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const { initialMs, maxMs, factor = 2, jitter = 'none' } = policy;
  // The exponent is bounded so a long outage's attempt count cannot overflow to Infinity (0 * Infinity is NaN).
  const base = Math.min(maxMs, initialMs * factor ** Math.min(Math.max(0, attempt), 64));
  let delay = base;
  if (jitter === 'full') delay = initialMs + random() * Math.max(0, base - initialMs);
  else if (jitter !== 'none') delay = base * (jitter.low + (jitter.high - jitter.low) * random());
  return Math.round(Math.min(maxMs, delay));
}

/** backoffDelayMs, but never shorter than the server's Retry-After. */
export function retryDelayMs(attempt: number, policy: BackoffPolicy, retryAfterMs?: number, random?: () => number): number {
  return Math.max(backoffDelayMs(attempt, policy, random), retryAfterMs ?? 0);
}

/**
 * A Retry-After header (RFC 9110 section 10.2.3) as milliseconds from `now`: delay-seconds, or an HTTP-date
 * in any of its three forms (a date in the past is 0). Undefined when absent or not valid.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = parseHttpDate(v, now);
  return at === undefined ? undefined : Math.max(0, at - now);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** Sun, 06 Nov 1994 08:49:37 GMT (the form senders must use). */
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
/** Sunday, 06-Nov-94 08:49:37 GMT (obsolete, still to be accepted). */
const RFC850_DATE = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
/** Sun Nov  6 08:49:37 1994 (obsolete C asctime(), UTC). */
const ASCTIME_DATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** An HTTP-date as epoch milliseconds; undefined when it is not one (or names a day the month lacks). */
function parseHttpDate(text: string, now: number): number | undefined {
  let parts: { day: string; month: string; year: number; time: string[] };
  let m: RegExpExecArray | null;
  if ((m = IMF_FIXDATE.exec(text))) {
    parts = { day: m[1]!, month: m[2]!, year: Number(m[3]), time: m.slice(4) };
  } else if ((m = RFC850_DATE.exec(text))) {
    // RFC 9110: a two-digit year more than 50 years ahead is the most recent past year with those digits.
    const thisYear = new Date(now).getUTCFullYear();
    let year = thisYear - (thisYear % 100) + Number(m[3]);
    if (year > thisYear + 50) year -= 100;
    parts = { day: m[1]!, month: m[2]!, year, time: m.slice(4) };
  } else if ((m = ASCTIME_DATE.exec(text))) {
    parts = { day: m[2]!, month: m[1]!, year: Number(m[6]), time: m.slice(3, 6) };
  } else {
    return undefined;
  }
  const [hour, minute, second] = parts.time.map(Number) as [number, number, number];
  const day = Number(parts.day);
  const month = MONTHS.indexOf(parts.month);
  if (hour > 23 || minute > 59 || second > 60) return undefined; // 60: a leap second
  const at = Date.UTC(parts.year, month, day, hour, minute, second);
  return new Date(at).getUTCDate() === day ? at : undefined;
}
