import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelayMs, parseRetryAfter, retryDelayMs } from '../../src/shared/backoff.js';

const at = (r: number) => () => r;

describe('backoffDelayMs', () => {
  test('grows by the factor from initialMs and stops at maxMs', () => {
    const policy = { initialMs: 1000, maxMs: 10_000 };
    assert.deepEqual([0, 1, 2, 3, 4, 40].map((n) => backoffDelayMs(n, policy)), [1000, 2000, 4000, 8000, 10_000, 10_000]);
    assert.deepEqual([0, 1, 2].map((n) => backoffDelayMs(n, { ...policy, factor: 3 })), [1000, 3000, 9000]);
  });

  test('stays finite after a very long run of attempts, even from 0 ms', () => {
    assert.equal(backoffDelayMs(10_000, { initialMs: 500, maxMs: 60_000 }), 60_000);
    assert.equal(backoffDelayMs(10_000, { initialMs: 0, maxMs: 60_000 }), 0);
  });

  test('full jitter draws between initialMs and the exponential delay', () => {
    const policy = { initialMs: 500, maxMs: 15_000, jitter: 'full' } as const;
    assert.equal(backoffDelayMs(3, policy, at(0)), 500);
    assert.equal(backoffDelayMs(3, policy, at(0.5)), 2250);
    assert.equal(backoffDelayMs(3, policy, at(1)), 4000);
  });

  test('a [low, high] jitter multiplies the delay and never passes maxMs', () => {
    const policy = { initialMs: 1000, maxMs: 15_000, jitter: { low: 0.8, high: 1.2 } };
    assert.equal(backoffDelayMs(1, policy, at(0)), 1600);
    assert.equal(backoffDelayMs(1, policy, at(1)), 2400);
    assert.equal(backoffDelayMs(10, policy, at(0)), 12_000);
    assert.equal(backoffDelayMs(10, policy, at(1)), 15_000, 'capped, jitter included');
  });

  test('is the same for the same random source', () => {
    const policy = { initialMs: 100, maxMs: 5000, jitter: 'full' } as const;
    const seq = () => {
      let x = 0.1;
      return () => (x = (x * 7.13) % 1);
    };
    const a = seq();
    const b = seq();
    const delays = (r: () => number) => [0, 1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, policy, r));
    assert.deepEqual(delays(a), delays(b));
  });
});

describe('retryDelayMs', () => {
  test('never comes back before the Retry-After, and keeps the backoff when it is longer', () => {
    const policy = { initialMs: 1000, maxMs: 60_000 };
    assert.equal(retryDelayMs(0, policy, 30_000), 30_000);
    assert.equal(retryDelayMs(3, policy, 10), 8000);
    assert.equal(retryDelayMs(3, policy), 8000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  test('reads delay-seconds as milliseconds', () => {
    assert.equal(parseRetryAfter('3'), 3000);
    assert.equal(parseRetryAfter(' 120 '), 120_000);
    assert.equal(parseRetryAfter('0'), 0);
  });

  test('reads an IMF-fixdate as the time left until it, and a past date as 0', () => {
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now), 0);
  });

  test('reads the obsolete RFC 850 and asctime forms as UTC', () => {
    assert.equal(parseRetryAfter('Thursday, 01-Jan-26 00:01:00 GMT', now), 60_000);
    assert.equal(parseRetryAfter('Thu Jan  1 00:00:30 2026', now), 30_000);
    assert.equal(parseRetryAfter('Sat Jan 10 00:00:00 2026', now), 9 * 86_400_000);
  });

  test('takes a two-digit year more than 50 years ahead as the last century', () => {
    // '77' would be 2077, 51 years after 2026: it is 1977, long past. '76' (2076) is not more than 50.
    assert.equal(parseRetryAfter('Saturday, 01-Jan-77 00:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('Wednesday, 01-Jan-76 00:00:00 GMT', now), Date.UTC(2076, 0, 1) - now);
    assert.equal(parseRetryAfter('Friday, 01-Jan-27 00:00:00 GMT', now), 365 * 86_400_000);
  });

  test('takes the first of repeated headers', () => {
    assert.equal(parseRetryAfter(['2', '9']), 2000);
  });

  test('ignores what is not delay-seconds or an HTTP-date', () => {
    for (const v of [undefined, '', '  ', 'soon', '-1', '1.5', '1e3', '0x10', '2026-01-01T00:00:05Z', 'Thu, 30 Feb 2026 00:00:00 GMT', 'Thu, 01 Jan 2026 25:00:00 GMT']) {
      assert.equal(parseRetryAfter(v, now), undefined, `${JSON.stringify(v)}`);
    }
  });
});
