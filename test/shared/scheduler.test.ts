import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { every, sleep, VirtualScheduler } from '../../src/shared/scheduler.js';

describe('VirtualScheduler', () => {
  test('runs due timers in time order, each at its own time, only when advanced', async () => {
    const s = new VirtualScheduler(1000);
    const ran: string[] = [];
    s.schedule(30, () => ran.push(`b@${s.now()}`));
    s.schedule(10, () => ran.push(`a@${s.now()}`));
    s.schedule(30, () => ran.push(`c@${s.now()}`));
    s.schedule(50, () => ran.push(`late@${s.now()}`));
    assert.equal(s.pendingTimers, 4);
    await s.advance(40);
    assert.deepEqual(ran, ['a@1010', 'b@1030', 'c@1030']);
    assert.equal(s.now(), 1040);
    assert.equal(s.pendingTimers, 1);
  });

  test('runs a timer scheduled by another timer when it falls inside the same advance', async () => {
    const s = new VirtualScheduler();
    const ran: number[] = [];
    s.schedule(10, () => s.schedule(10, () => ran.push(s.now())));
    await s.advance(25);
    assert.deepEqual(ran, [20]);
  });

  test('a cancelled timer never runs and is no longer pending', async () => {
    const s = new VirtualScheduler();
    let ran = false;
    const cancel = s.schedule(10, () => (ran = true));
    cancel();
    cancel();
    assert.equal(s.pendingTimers, 0);
    await s.advance(100);
    assert.equal(ran, false);
  });

  test('whenPending resolves once enough timers are scheduled', async () => {
    const s = new VirtualScheduler();
    const waited = s.whenPending(2);
    s.schedule(5, () => undefined);
    let resolved = false;
    void waited.then(() => (resolved = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(resolved, false);
    s.schedule(5, () => undefined);
    await waited;
  });
});

describe('sleep', () => {
  test('resolves after the virtual time passed', async () => {
    const s = new VirtualScheduler();
    let done = false;
    const p = sleep(100, undefined, s).then(() => (done = true));
    await s.advance(99);
    assert.equal(done, false);
    await s.advance(1);
    await p;
    assert.equal(done, true);
  });

  test('rejects with the abort reason and cancels its timer', async () => {
    const s = new VirtualScheduler();
    const controller = new AbortController();
    const p = sleep(100, controller.signal, s);
    assert.equal(s.pendingTimers, 1);
    controller.abort(new Error('stopped'));
    await assert.rejects(p, /stopped/);
    assert.equal(s.pendingTimers, 0);
  });

  test('rejects at once on an aborted signal, on real time too', async () => {
    await assert.rejects(sleep(60_000, AbortSignal.abort(new Error('already'))), /already/);
  });
});

describe('every', () => {
  test('repeats until cancelled, then leaves no timer', async () => {
    const s = new VirtualScheduler();
    const ran: number[] = [];
    const cancel = every(s, 10, () => ran.push(s.now()));
    await s.advance(35);
    assert.deepEqual(ran, [10, 20, 30]);
    cancel();
    assert.equal(s.pendingTimers, 0);
    await s.advance(100);
    assert.equal(ran.length, 3);
  });
});
