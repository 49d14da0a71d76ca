// requests_per_second shared through PostgreSQL: two daemons' limiters on one account's bucket together
// never start more than the rate in any one-second window (counted on the slots the database hands out).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPgLedger, type PgLedger } from '../../src/daemon/ledger/pg-ledger.js';
import { openSqliteLedger } from '../../src/daemon/ledger/sqlite-ledger.js';
import { gatedLimiter, requestLimiters, sharedRate } from '../../src/daemon/pipeline/shared-rate-limit.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

let db: TestDatabase;
let ledgers: PgLedger[] = [];
before(async () => {
  db = await createTestDatabase('pgledger');
  const url = await db.freshSchema();
  ledgers = [await openPgLedger(url), await openPgLedger(url)];
});
after(async () => {
  await Promise.all(ledgers.map((l) => l.close()));
  await db?.drop();
});

/** The most slots in any window of `windowMs` (half open), sliding over every slot. */
function busiestWindow(slots: number[], windowMs: number): number {
  const sorted = [...slots].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

test('two limiters on one account at 5/s start at most 5 calls in any second together', async () => {
  const account = { url: 'https://docs.example.com', apiKey: 'key-of-the-account' };
  const slots: number[] = [];
  const limiters = ledgers.map((l) => {
    const rate = sharedRate(l.pool, account, 5);
    return gatedLimiter({ acquire: async () => slots.push((await rate.acquire())!.slot) });
  });
  const ran: number[] = [];
  // 8 calls each, all asked for at once: ~3 s at 5/s.
  await Promise.all(limiters.flatMap((limiter) => Array.from({ length: 8 }, () => limiter.add(async () => void ran.push(Date.now())))));
  assert.equal(ran.length, 16);
  assert.equal(slots.length, 16);
  assert.ok(busiestWindow(slots, 1000) <= 5, `busiest second held ${busiestWindow(slots, 1000)} calls`);
  const { rows } = await ledgers[0]!.pool.query<{ key: string }>('SELECT key FROM rate_limits');
  assert.equal(rows.length, 1, 'one bucket for the account');
  assert.ok(rows[0]!.key.startsWith('https://docs.example.com#'));
  assert.ok(!rows[0]!.key.includes(account.apiKey), 'the bucket is keyed by a hash, never the key');
});

test('another account, or another service, has its own bucket; limits <= 0 lift the limit', async () => {
  const a = sharedRate(ledgers[0]!.pool, { url: 'https://a', apiKey: 'k1' }, 1);
  const b = sharedRate(ledgers[0]!.pool, { url: 'https://a', apiKey: 'k2' }, 1);
  const c = sharedRate(ledgers[0]!.pool, { url: 'https://c', apiKey: 'k1' }, 1);
  assert.equal(new Set([a.key, b.key, c.key]).size, 3);
  // Each fresh bucket grants its first slot at once; at 1/s a second one on the same bucket would wait.
  const first = await Promise.all([a.acquire(), b.acquire(), c.acquire()]);
  assert.ok(first.every((s) => s !== null));
  assert.equal(await sharedRate(ledgers[0]!.pool, { url: 'https://a', apiKey: 'k1' }, 0).acquire(), null);
});

test('a daemon on SQLite keeps its own limiter (a PQueue); on PostgreSQL it gets the shared one', async () => {
  const sqlite = await openSqliteLedger(':memory:');
  try {
    assert.equal(requestLimiters(sqlite)(5, { url: 'u', apiKey: 'k' }).constructor.name, 'PQueue');
  } finally {
    await sqlite.close();
  }
  const shared = requestLimiters(ledgers[0]!)(5, { url: 'https://shared', apiKey: 'k' });
  assert.equal(await shared.add(async () => 42), 42);
  assert.deepEqual([shared.size, shared.pending], [0, 0]);
});
