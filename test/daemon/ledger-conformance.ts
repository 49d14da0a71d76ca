// The behaviour every Ledger (and MailLedger) adapter must have: SQLite and PostgreSQL. An adapter's test
// file calls ledgerConformance with a function opening a fresh, empty ledger (with the given clock, if
// any), and one opening two instances on one fresh store, as two daemons sharing a ledger would.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InputRecord, NewInput } from '../../src/daemon/ledger/ledger.js';
import type { LedgerStore as Ledger } from '../../src/daemon/ledger/open-ledger.js';

let counter = 0;
function input(over: Partial<NewInput> = {}): NewInput {
  counter += 1;
  return { rule: 'invoices', path: `/in/invoices/f${counter}.pdf`, size: 1000 + counter, mtimeMs: 1700000000000.5, sha256: `sha-${counter}`, ...over };
}

export type OpenFreshLedger = (opts: { clock?: () => number }) => Promise<Ledger>;
/** Two instances on the same fresh store (two processes' worth: separate connections), with one clock. */
export type OpenLedgerPair = (opts: { clock?: () => number }) => Promise<[Ledger, Ledger]>;

export function ledgerConformance(name: string, open: OpenFreshLedger, openPair: OpenLedgerPair): void {
  describe(`Ledger conformance: ${name}`, () => {
    async function withLedger(fn: (l: Ledger) => Promise<void>, clock?: () => number): Promise<void> {
      const l = await open(clock ? { clock } : {});
      try {
        await fn(l);
      } finally {
        await l.close();
      }
    }

    test('addInput records a queued input with every field and a queued event', () =>
      withLedger(async (l) => {
        const before = Date.now();
        const n = input();
        const { record, created } = await l.addInput(n);
        assert.equal(created, true);
        assert.equal(record.state, 'queued');
        assert.deepEqual(
          { rule: record.rule, path: record.path, size: record.size, mtimeMs: record.mtimeMs, sha256: record.sha256 },
          n,
        );
        assert.equal(record.documentId, null);
        assert.equal(record.requestId, null);
        assert.equal(record.result, null);
        assert.equal(record.attempts, 0);
        assert.equal(record.lastError, null);
        assert.equal(record.finalPath, null);
        assert.ok(record.createdAt >= before - 1 && record.updatedAt === record.createdAt);
        assert.ok(record.nextAttemptAt <= Date.now(), 'a new input is due at once');
        assert.deepEqual(await l.get(record.id), record);
        const ev = await l.events(record.id);
        assert.equal(ev.length, 1);
        assert.equal(ev[0].kind, 'queued');
        assert.equal(ev[0].inputId, record.id);
        assert.deepEqual([ev[0].from, ev[0].to], [null, 'queued']);
      }));

    test('addInput returns the active input of the same rule and path instead of a second one', () =>
      withLedger(async (l) => {
        const n = input();
        const a = await l.addInput(n);
        const b = await l.addInput({ ...n, sha256: 'other' });
        assert.equal(b.created, false);
        assert.equal(b.record.id, a.record.id);
        const other = await l.addInput({ ...n, rule: 'receipts' });
        assert.equal(other.created, true, 'another rule may hold the same path');
      }));

    test('addInput creates a new input for a path whose earlier input is final', () =>
      withLedger(async (l) => {
        const n = input();
        const a = await l.addInput(n);
        await l.transition(a.record.id, 'queued', 'failed', { lastError: 'not a PDF' });
        const b = await l.addInput(n);
        assert.equal(b.created, true);
        assert.notEqual(b.record.id, a.record.id);
      }));

    test('transition sets only the patched fields and appends its event in the same commit', () =>
      withLedger(async (l) => {
        const { record } = await l.addInput(input());
        const up = await l.transition(record.id, 'queued', 'uploaded', { documentId: 'doc-1', event: { bytes: 12 } });
        assert.equal(up.state, 'uploaded');
        assert.equal(up.documentId, 'doc-1');
        const sub = await l.transition(record.id, 'uploaded', 'submitted', { requestId: 'req-1', attempts: 0 });
        assert.equal(sub.documentId, 'doc-1', 'fields not in the patch are kept');
        assert.equal(sub.requestId, 'req-1');
        const result = { data: { total: 12.5, line_items: [{ a: 1 }] }, fileName: 'f.pdf', numPages: 2, templateId: 't', classification: null, confidence: null, outputs: ['/out/a.xlsx'] };
        const ex = await l.transition(record.id, 'submitted', 'extracted', { result });
        assert.deepEqual(ex.result, result);
        const done = await l.transition(record.id, 'extracted', 'written', {});
        await l.transition(done.id, 'written', 'done', { finalPath: '/processed/f.pdf', lastError: null });
        const final = await l.get(record.id);
        assert.equal(final?.state, 'done');
        assert.equal(final?.finalPath, '/processed/f.pdf');
        const ev = await l.events(record.id);
        assert.deepEqual(ev.map((e) => e.kind), ['queued', 'uploaded', 'submitted', 'extracted', 'written', 'done']);
        assert.equal(ev[1].detail?.bytes, 12);
        assert.equal(ev[1].detail?.from, 'queued');
        assert.deepEqual(ev.map((e) => [e.from, e.to]), [[null, 'queued'], ['queued', 'uploaded'], ['uploaded', 'submitted'], ['submitted', 'extracted'], ['extracted', 'written'], ['written', 'done']]);
        assert.ok(ev.every((e, i) => i === 0 || e.id > ev[i - 1].id));
      }));

    test('a failed input goes back to queued in the same row, at the path its file was moved back to', () =>
      withLedger(async (l) => {
        const { record } = await l.addInput(input());
        await l.transition(record.id, 'queued', 'failed', { finalPath: '/failed/f.pdf', lastError: 'api_error: no' });
        const again = await l.transition(record.id, 'failed', 'queued', { path: '/in/f (1).pdf', finalPath: null, lastError: null });
        assert.equal(again.id, record.id);
        assert.equal(again.path, '/in/f (1).pdf');
        assert.equal(again.finalPath, null);
        assert.equal((await l.findActiveByPath(record.rule, '/in/f (1).pdf'))?.id, record.id);
        assert.equal((await l.transition(record.id, 'queued', 'uploaded', { documentId: 'd' })).path, '/in/f (1).pdf', 'a patch without path keeps it');
        assert.equal((await l.countByState()).failed, 0);
      }));

    test('transition clears a field patched with null', () =>
      withLedger(async (l) => {
        const { record } = await l.addInput(input());
        await l.recordAttempt(record.id, { attempts: 1, lastError: 'HTTP 503', nextAttemptAt: Date.now() + 5000 });
        const t = await l.transition(record.id, 'queued', 'uploaded', { documentId: 'd', lastError: null });
        assert.equal(t.lastError, null);
        assert.equal(t.attempts, 1);
      }));

    test('transition refuses a stale from-state and changes nothing', () =>
      withLedger(async (l) => {
        const { record } = await l.addInput(input());
        await l.transition(record.id, 'queued', 'uploaded', { documentId: 'd' });
        await assert.rejects(l.transition(record.id, 'queued', 'uploaded', { documentId: 'x' }), /is uploaded, not queued/);
        assert.equal((await l.get(record.id))?.documentId, 'd');
        assert.equal((await l.events(record.id)).length, 2);
        await assert.rejects(l.transition(999999, 'queued', 'uploaded'), /does not exist/);
      }));

    test('a retry transition may name its event kind; its from and to states are kept', () =>
      withLedger(async (l) => {
        const { record } = await l.addInput(input());
        await l.transition(record.id, 'queued', 'failed', { lastError: 'boom' });
        const again = await l.transition(record.id, 'failed', 'queued', { attempts: 0, lastError: null, event: { kind: 'retry', by: 'cli' } });
        assert.equal(again.state, 'queued');
        const last = (await l.events(record.id)).at(-1);
        assert.equal(last?.kind, 'retry');
        assert.deepEqual([last?.from, last?.to], ['failed', 'queued'], 'the new state is kept though the kind is not it');
        assert.deepEqual(last?.detail, { from: 'failed', to: 'queued', by: 'cli' });
      }));

    test('recordAttempt keeps the state and records the error and backoff', () =>
      withLedger(async (l) => {
        const { record } = await l.addInput(input());
        const later = Date.now() + 60_000;
        const r = await l.recordAttempt(record.id, { attempts: 2, nextAttemptAt: later, lastError: 'HTTP 429', event: { status: 429 } });
        assert.equal(r.state, 'queued');
        assert.equal(r.attempts, 2);
        assert.equal(r.nextAttemptAt, later);
        assert.equal(r.lastError, 'HTTP 429');
        const last = (await l.events(record.id)).at(-1);
        assert.equal(last?.kind, 'error');
        assert.deepEqual([last?.from, last?.to], [null, null], 'an attempt changes no state');
        assert.equal(last?.detail?.status, 429);
        await assert.rejects(l.recordAttempt(999999, { attempts: 1 }), /does not exist/);
      }));

    test('listDue returns non-final inputs due now, earliest due first, up to the limit', () =>
      withLedger(async (l) => {
        const now = Date.now();
        const a = (await l.addInput(input())).record;
        const b = (await l.addInput(input())).record;
        const c = (await l.addInput(input())).record;
        const d = (await l.addInput(input())).record;
        await l.recordAttempt(a.id, { nextAttemptAt: now + 60_000 });
        await l.transition(b.id, 'queued', 'done');
        await l.transition(d.id, 'queued', 'timed_out', { nextAttemptAt: now - 10_000 });
        const due = await l.listDue(now + 1000, 10);
        assert.deepEqual(due.map((r) => r.id), [d.id, c.id]);
        assert.deepEqual((await l.listDue(now + 1000, 1)).map((r) => r.id), [d.id]);
        assert.deepEqual((await l.listDue(now + 120_000, 10)).map((r) => r.id).sort((x, y) => x - y), [a.id, c.id, d.id]);
      }));

    test('findBySha finds the oldest other input of the rule with that content that did not fail', () =>
      withLedger(async (l) => {
        const failed = (await l.addInput(input({ sha256: 'same' }))).record;
        await l.transition(failed.id, 'queued', 'failed');
        const first = (await l.addInput(input({ sha256: 'same' }))).record;
        const second = (await l.addInput(input({ sha256: 'same' }))).record;
        await l.addInput(input({ sha256: 'same', rule: 'receipts' }));
        assert.equal((await l.findBySha('invoices', 'same', second.id))?.id, first.id);
        assert.equal((await l.findBySha('invoices', 'same', first.id))?.id, second.id);
        assert.equal(await l.findBySha('invoices', 'nope', 0), null);
      }));

    test('findActiveByPath ignores final inputs', () =>
      withLedger(async (l) => {
        const n = input();
        const { record } = await l.addInput(n);
        assert.equal((await l.findActiveByPath(n.rule, n.path))?.id, record.id);
        await l.transition(record.id, 'queued', 'duplicate', { finalPath: '/dup/x.pdf' });
        assert.equal(await l.findActiveByPath(n.rule, n.path), null);
      }));

    test('list filters by state and rule with limit and offset; countByState counts every state', () =>
      withLedger(async (l) => {
        const ids: number[] = [];
        for (let i = 0; i < 5; i++) ids.push((await l.addInput(input())).record.id);
        await l.addInput(input({ rule: 'receipts' }));
        await l.transition(ids[0], 'queued', 'failed');
        await l.transition(ids[1], 'queued', 'failed');
        const queued = await l.list({ state: 'queued', rule: 'invoices' });
        assert.deepEqual(queued.map((r) => r.id), ids.slice(2));
        assert.deepEqual((await l.list({ rule: 'invoices', limit: 2, offset: 1 })).map((r: InputRecord) => r.id), ids.slice(1, 3));
        assert.equal((await l.list({})).length, 6);
        const counts = await l.countByState();
        assert.equal(counts.queued, 4);
        assert.equal(counts.failed, 2);
        assert.equal(counts.done, 0);
        assert.equal(counts.timed_out, 0);
        assert.equal(Object.keys(counts).length, 9);
      }));

    test('summarize counts inputs per rule and state with the oldest creation and the latest change', () => {
      let now = 1_000;
      return withLedger(
        async (l) => {
          const a = (await l.addInput(input())).record.id;
          now = 2_000;
          await l.addInput(input());
          now = 3_000;
          await l.addInput(input({ rule: 'receipts' }));
          now = 4_000;
          await l.transition(a, 'queued', 'failed');
          assert.deepEqual(await l.summarize(), [
            { rule: 'invoices', state: 'failed', count: 1, oldestCreatedAt: 1_000, newestUpdatedAt: 4_000 },
            { rule: 'invoices', state: 'queued', count: 1, oldestCreatedAt: 2_000, newestUpdatedAt: 2_000 },
            { rule: 'receipts', state: 'queued', count: 1, oldestCreatedAt: 3_000, newestUpdatedAt: 3_000 },
          ]);
        },
        () => now,
      );
    });

    test('probeWrite commits and changes nothing', () =>
      withLedger(async (l) => {
        const { record } = await l.addInput(input());
        await l.probeWrite();
        assert.deepEqual(await l.get(record.id), record);
        assert.equal((await l.events(record.id)).length, 1);
      }));

    test('countFinishedSince counts inputs that became done or failed from a time on', () =>
      withLedger(async (l) => {
        const ids: number[] = [];
        for (let i = 0; i < 4; i++) ids.push((await l.addInput(input())).record.id);
        const before = Date.now() - 1;
        await l.transition(ids[0], 'queued', 'failed');
        await l.transition(ids[1], 'queued', 'done');
        await l.transition(ids[2], 'queued', 'duplicate');
        assert.deepEqual(await l.countFinishedSince(before), { done: 1, failed: 1 });
        assert.deepEqual(await l.countFinishedSince(Date.now() + 60_000), { done: 0, failed: 0 });
      }));

    test('events of an unknown input are empty; get of an unknown input is null', () =>
      withLedger(async (l) => {
        assert.deepEqual(await l.events(424242), []);
        assert.equal(await l.get(424242), null);
      }));

    test('waiting files: set (and updated) by rule and path, listed longest waiting first, cleared one by one or per rule', () =>
      withLedger(async (l) => {
        const w = (rule: string, path: string, since: number) => ({ rule, path, size: 0, reason: 'empty' as const, since, until: since + 60_000 });
        await l.setWaiting(w('a', '/in/x.pdf', 2000));
        await l.setWaiting(w('a', '/in/y.pdf', 1000));
        await l.setWaiting(w('b', '/in/x.pdf', 3000));
        await l.setWaiting({ ...w('a', '/in/x.pdf', 500), size: 10, reason: 'incomplete' });
        assert.deepEqual(await l.listWaiting(), [
          { rule: 'a', path: '/in/x.pdf', size: 10, reason: 'incomplete', since: 500, until: 60_500 },
          w('a', '/in/y.pdf', 1000),
          w('b', '/in/x.pdf', 3000),
        ]);
        await l.clearWaiting('a', '/in/y.pdf');
        assert.deepEqual((await l.listWaiting()).map((x) => `${x.rule}:${x.path}`), ['a:/in/x.pdf', 'b:/in/x.pdf']);
        await l.clearWaiting('a');
        assert.deepEqual((await l.listWaiting()).map((x) => `${x.rule}:${x.path}`), ['b:/in/x.pdf']);
      }));

    describe('claims', () => {
      /** A ledger whose clock only moves when the test says so. */
      function withClock(fn: (l: Ledger, clock: { now: number }) => Promise<void>): Promise<void> {
        const clock = { now: 1_800_000_000_000 };
        return withLedger((l) => fn(l, clock), () => clock.now);
      }

      test('a claim is held by its owner until the lease ends, and no other owner can take it meanwhile', () =>
        withClock(async (l, clock) => {
          const { record } = await l.addInput(input());
          assert.deepEqual(await l.claim(record.id, 'daemon-a', 30_000), { inputId: record.id, owner: 'daemon-a', until: clock.now + 30_000 });
          assert.deepEqual(await l.claimOf(record.id), { inputId: record.id, owner: 'daemon-a', until: clock.now + 30_000 });
          clock.now += 29_999;
          assert.equal(await l.claim(record.id, 'daemon-b', 30_000), null);
          assert.equal((await l.claimOf(record.id))?.owner, 'daemon-a');
        }));

      test('an expired claim can be taken by another owner, and its old owner can no longer renew it', () =>
        withClock(async (l, clock) => {
          const { record } = await l.addInput(input());
          await l.claim(record.id, 'daemon-a', 30_000);
          clock.now += 30_000;
          assert.equal(await l.claimOf(record.id), null, 'a lease ends at its until');
          assert.equal(await l.renewClaim(record.id, 'daemon-a', 30_000), null, 'an expired lease is lost, not renewed');
          assert.deepEqual(await l.claim(record.id, 'daemon-b', 10_000), { inputId: record.id, owner: 'daemon-b', until: clock.now + 10_000 });
          assert.equal(await l.renewClaim(record.id, 'daemon-a', 30_000), null);
          assert.equal((await l.claimOf(record.id))?.owner, 'daemon-b');
        }));

      test('the owner renews or re-claims a live lease to extend it', () =>
        withClock(async (l, clock) => {
          const { record } = await l.addInput(input());
          await l.claim(record.id, 'daemon-a', 30_000);
          clock.now += 20_000;
          assert.deepEqual(await l.renewClaim(record.id, 'daemon-a', 30_000), { inputId: record.id, owner: 'daemon-a', until: clock.now + 30_000 });
          clock.now += 20_000;
          assert.equal(await l.claim(record.id, 'daemon-b', 30_000), null, 'the renewed lease still holds');
          assert.equal((await l.claim(record.id, 'daemon-a', 5_000))?.until, clock.now + 5_000);
          assert.equal(await l.renewClaim(record.id, 'daemon-b', 30_000), null, 'only the owner renews');
        }));

      test('a released claim is free at once; releasing someone else\'s claim changes nothing', () =>
        withClock(async (l) => {
          const { record } = await l.addInput(input());
          await l.claim(record.id, 'daemon-a', 30_000);
          await l.releaseClaim(record.id, 'daemon-b');
          assert.equal((await l.claimOf(record.id))?.owner, 'daemon-a');
          await l.releaseClaim(record.id, 'daemon-a');
          assert.equal(await l.claimOf(record.id), null);
          assert.equal((await l.claim(record.id, 'daemon-b', 30_000))?.owner, 'daemon-b');
          await l.releaseClaim(record.id, 'daemon-a');
          await l.releaseClaim(424242, 'daemon-a');
        }));

      test('claims are per input, and an unknown input cannot be claimed', () =>
        withClock(async (l) => {
          const a = (await l.addInput(input())).record;
          const b = (await l.addInput(input())).record;
          await l.claim(a.id, 'daemon-a', 30_000);
          assert.equal((await l.claim(b.id, 'daemon-b', 30_000))?.owner, 'daemon-b');
          assert.equal(await l.claimOf(424242), null);
          await assert.rejects(l.claim(424242, 'daemon-a', 30_000), /does not exist/);
        }));

      test('two owners claiming the same free input at once: exactly one gets it', () =>
        withClock(async (l) => {
          const { record } = await l.addInput(input());
          const got = await Promise.all(['daemon-a', 'daemon-b', 'daemon-c'].map((o) => l.claim(record.id, o, 30_000)));
          const winners = got.filter((c) => c !== null);
          assert.equal(winners.length, 1);
          assert.equal((await l.claimOf(record.id))?.owner, winners[0]!.owner);
        }));

      test('listDue with an owner leaves out inputs another owner holds a live claim on', () =>
        withClock(async (l, clock) => {
          const mine = (await l.addInput(input())).record;
          const theirs = (await l.addInput(input())).record;
          const free = (await l.addInput(input())).record;
          await l.claim(mine.id, 'daemon-a', 30_000);
          await l.claim(theirs.id, 'daemon-b', 30_000);
          const ids = async (owner?: string) => (await l.listDue(clock.now, 10, owner)).map((r) => r.id).sort((x, y) => x - y);
          assert.deepEqual(await ids('daemon-a'), [mine.id, free.id]);
          assert.deepEqual(await ids(), [mine.id, theirs.id, free.id], 'without an owner every due input is listed');
          clock.now += 30_000;
          assert.deepEqual(await ids('daemon-a'), [mine.id, theirs.id, free.id], 'an expired claim no longer hides its input');
        }));

      test('a claim does not change the input or its events', () =>
        withClock(async (l) => {
          const { record } = await l.addInput(input());
          await l.claim(record.id, 'daemon-a', 30_000);
          assert.deepEqual(await l.get(record.id), record);
          assert.deepEqual((await l.events(record.id)).map((e) => e.kind), ['queued']);
          const up = await l.transition(record.id, 'queued', 'uploaded', { documentId: 'd' });
          assert.equal(up.state, 'uploaded', 'transitions do not check claims');
        }));
    });

    test('mail ledger: a skipped message is recorded once and counted apart; a dropped file keeps its mail origin', () =>
      withLedger(async (l) => {
        const key = { mailbox: 'ap', uidValidity: '7', uid: 3 };
        assert.equal(await l.mailOutcome(key), null);
        assert.equal(await l.lastMailUid('ap', '7'), 0);
        await l.recordMailSkipped(key, 'subject does not match filter.subject');
        await l.recordMailSkipped(key, 'again');
        await l.recordMailDropped({ ...key, uid: 4 }, ['/in/a.pdf']);
        assert.equal(await l.mailOutcome(key), 'skipped');
        assert.equal(await l.mailDropped(key), false);
        assert.equal(await l.mailOutcome({ ...key, uid: 4 }), 'dropped');
        assert.equal(await l.mailDropped({ ...key, uid: 4 }), true);
        assert.equal(await l.lastMailUid('ap', '7'), 4);
        assert.equal(await l.lastMailUid('ap', '8'), 0);
        const maildir = { mailbox: 'md', name: '1700000000.M1P2.host' };
        await l.recordMailDropped(maildir, ['/in/b.pdf', '/in/c.pdf']);
        assert.equal(await l.mailOutcome(maildir), 'dropped');
        assert.equal(await l.mailOutcome({ ...maildir, name: 'other' }), null);
        const stats = await l.mailStats();
        assert.deepEqual(stats.map((s) => [s.mailbox, s.messages, s.files, s.skipped]), [['ap', 1, 1, 1], ['md', 1, 2, 0]]);
        assert.ok(stats.every((s) => typeof s.lastAt === 'number'));
        const origin = { from: 'v@example.com', subject: 'inv', date: '2026-11-03T09:15:00.000Z', messageId: '<1@x>' };
        await l.recordMailFile({ ...origin, path: '/in/a.pdf', sha256: 'ab', key: { ...key, uid: 4 } });
        await l.recordMailFile({ ...origin, subject: 'inv again', path: '/in/a.pdf', sha256: 'ab', key: { ...key, uid: 4 } });
        assert.deepEqual(await l.mailOrigin('/in/a.pdf', 'ab'), { ...origin, subject: 'inv again' });
        assert.equal(await l.mailOrigin('/in/a.pdf', 'other-content'), null);
      }));

    describe('two instances sharing one store (several daemons)', () => {
      async function withPair(fn: (a: Ledger, b: Ledger, clock: { now: number }) => Promise<void>): Promise<void> {
        const clock = { now: 1_800_000_000_000 };
        const [a, b] = await openPair({ clock: () => clock.now });
        try {
          await fn(a, b, clock);
        } finally {
          await a.close();
          await b.close();
        }
      }

      test('the same rule and path added by both at once gives one input, which both get back', () =>
        withPair(async (a, b) => {
          const n = input();
          const got = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).addInput(n)));
          assert.equal(got.filter((g) => g.created).length, 1);
          assert.equal(new Set(got.map((g) => g.record.id)).size, 1);
          assert.equal((await a.list({})).length, 1);
          assert.deepEqual((await b.events(got[0]!.record.id)).map((e) => e.kind), ['queued']);
        }));

      test('one input claimed by an owner on each instance at once: exactly one gets it', () =>
        withPair(async (a, b) => {
          const { record } = await a.addInput(input());
          const got = await Promise.all([a.claim(record.id, 'daemon-a', 30_000), b.claim(record.id, 'daemon-b', 30_000)]);
          const winners = got.filter((c) => c !== null);
          assert.equal(winners.length, 1);
          assert.equal((await a.claimOf(record.id))?.owner, winners[0]!.owner);
          assert.equal((await b.claimOf(record.id))?.owner, winners[0]!.owner);
        }));

      test("an expired lease is taken over by the other instance, and the old owner's renewal fails", () =>
        withPair(async (a, b, clock) => {
          const { record } = await a.addInput(input());
          await a.claim(record.id, 'daemon-a', 30_000);
          assert.equal(await b.claim(record.id, 'daemon-b', 30_000), null, 'a live lease holds across instances');
          clock.now += 30_000;
          assert.equal((await b.claim(record.id, 'daemon-b', 30_000))?.owner, 'daemon-b');
          assert.equal(await a.renewClaim(record.id, 'daemon-a', 30_000), null);
          assert.equal((await a.claimOf(record.id))?.owner, 'daemon-b');
        }));

      test('the same transition from both instances at once: one commits, the other is refused', () =>
        withPair(async (a, b) => {
          const { record } = await a.addInput(input());
          const outcomes = await Promise.allSettled([
            a.transition(record.id, 'queued', 'uploaded', { documentId: 'doc-a' }),
            b.transition(record.id, 'queued', 'uploaded', { documentId: 'doc-b' }),
          ]);
          assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
          const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
          assert.match(String(refused.reason), /is uploaded, not queued/);
          assert.deepEqual((await b.events(record.id)).map((e) => e.kind), ['queued', 'uploaded'], 'one event, of the winner');
        }));
    });
  });
}
