// requests_per_second as the account's total over every daemon sharing a PostgreSQL ledger. The rate is
// one row per account (service base URL + a hash of the API key; never the key) holding the next free
// request slot, in ms on the database's clock, so hosts whose clocks disagree still share one timeline.
// Each request reserves its slot with one atomic upsert (next slot = max(next, now) + 1/rate) and waits
// until it: slots are 1/rate apart across all instances, in arrival order, with no retry loop. Capacity
// is one slot (no bursts): at most `rate` requests start in any second, which a bucket allowing bursts
// could not promise over a sliding window. A lost database fails the request as ledger_unavailable
// (transient), which pauses work like any step that cannot commit.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { LedgerStore } from '../ledger/open-ledger.js';
import { asLedgerError, PgLedger } from '../ledger/pg-ledger.js';
import { createRequestLimiter } from './rate-limit.js';

/** What the service client's limiter is to the daemon: runs each call when the rate allows; depths for metrics. PQueue fits it. */
export interface RequestLimiter {
  add<T>(fn: () => Promise<T>): Promise<T>;
  /** Calls waiting for their turn. */
  readonly size: number;
  /** Calls running. */
  readonly pending: number;
}

/** Makes the limiter for a rate and the service account it counts against. */
export type RequestLimiterFactory = (requestsPerSecond: number, account: { url: string; apiKey: string }) => RequestLimiter;

/** Requests spaced 2% wider than 1/rate: the time between a slot and the request leaving (a round trip, a busy event loop) varies a little per request. */
const SLACK = 1.02;

/** The one statement: reserve the next slot; `wait` is how far it lies ahead of the database's now. */
const NOW_MS = 'extract(epoch FROM statement_timestamp())::float8 * 1000';
const RESERVE = `
  INSERT INTO rate_limits AS r (key, next_at) VALUES ($1, ${NOW_MS} + $2::float8)
  ON CONFLICT (key) DO UPDATE SET next_at = GREATEST(r.next_at + $2::float8, excluded.next_at)
  RETURNING r.next_at - $2::float8 AS slot, r.next_at - $2::float8 - ${NOW_MS} AS wait`;

/** A slot reserved on the shared rate: when it is (ms, database clock). */
export interface Slot {
  slot: number;
}

/**
 * The account's shared request rate in `pool`'s ledger database: `acquire()` resolves at the caller's
 * slot. <= 0 or Infinity lifts the limit, as for the local limiter.
 */
export function sharedRate(pool: pg.Pool, account: { url: string; apiKey: string }, requestsPerSecond: number) {
  const key = `${account.url}#${createHash('sha256').update(account.apiKey).digest('hex').slice(0, 16)}`;
  const unlimited = !Number.isFinite(requestsPerSecond) || requestsPerSecond <= 0;
  const intervalMs = (1000 / requestsPerSecond) * SLACK;
  return {
    key,
    async acquire(): Promise<Slot | null> {
      if (unlimited) return null;
      let row: { slot: number; wait: number };
      try {
        row = (await pool.query<{ slot: number; wait: number }>(RESERVE, [key, intervalMs])).rows[0]!;
      } catch (err) {
        throw asLedgerError(err);
      }
      if (row.wait > 0) await new Promise((resolve) => setTimeout(resolve, row.wait));
      return { slot: row.slot };
    },
  };
}

/** A limiter that lets each call through once `acquire()` resolves: the shared rate in the PQueue-like shape the daemon uses. */
export function gatedLimiter(gate: { acquire(): Promise<unknown> }): RequestLimiter {
  let waiting = 0;
  let running = 0;
  return {
    async add<T>(fn: () => Promise<T>): Promise<T> {
      waiting++;
      try {
        await gate.acquire();
      } finally {
        waiting--;
      }
      running++;
      try {
        return await fn();
      } finally {
        running--;
      }
    },
    get size() {
      return waiting;
    },
    get pending() {
      return running;
    },
  };
}

/** The limiters for a daemon on `ledger`: shared through PostgreSQL when the ledger is there, else this process's own. */
export function requestLimiters(ledger: LedgerStore): RequestLimiterFactory {
  if (ledger instanceof PgLedger) return (perSecond, account) => gatedLimiter(sharedRate(ledger.pool, account, perSecond));
  return (perSecond) => createRequestLimiter(perSecond);
}
