// The folder intake's waits on virtual time: the stability window passes without real waiting (stable_ms
// is an hour, so a real clock could not pass these tests), and stop() leaves no timer behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StabilityTracker } from '../../src/daemon/intake/folder/stability.js';
import { VirtualScheduler } from '../../src/shared/scheduler.js';
import { startHarness, waitFor } from './intake-helpers.js';

const HOUR = 3_600_000;
// If the code under test ever waited on real time, these would hang: fail them instead.
const opts = { timeout: 20_000 };

async function withFolder(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-stability-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A tracker on `scheduler` whose stable files are collected; next() resolves at the next one. */
function tracker(scheduler: VirtualScheduler, stableMs: number) {
  const taken: { path: string; size: number; at: number }[] = [];
  let notify = () => undefined as void;
  const t = new StabilityTracker({
    stableMs,
    scheduler,
    onStable: (path: string, st: Stats) => {
      taken.push({ path, size: st.size, at: scheduler.now() });
      notify();
    },
  });
  const next = () => new Promise<void>((resolve) => (notify = resolve));
  return { t, taken, next };
}

test('takes a file only once stable_ms of virtual time passed without a change to it', opts, () =>
  withFolder(async (dir) => {
    const path = join(dir, 'a.pdf');
    await writeFile(path, 'first');
    const scheduler = new VirtualScheduler();
    const { t, taken, next } = tracker(scheduler, HOUR);
    t.touch(path);
    await scheduler.whenPending(); // the first stat is done: the window runs from 0
    await scheduler.advance(HOUR - 1);
    assert.deepEqual(taken, [], 'not taken 1 ms before stable_ms');

    await appendFile(path, ' and more'); // no touch: the check at stable_ms must notice by itself
    await scheduler.advance(1);
    await scheduler.whenPending(); // that check saw the new size and started the window again
    assert.deepEqual(taken, [], 'a file that changed inside the window is not taken');

    const stable = next();
    await scheduler.advance(HOUR);
    await stable;
    assert.deepEqual(taken, [{ path, size: 14, at: 2 * HOUR }]);
    assert.equal(scheduler.pendingTimers, 0);
    t.stop();
  }),
);

test('the stability tracker leaves no timer behind after stop()', opts, () =>
  withFolder(async (dir) => {
    const scheduler = new VirtualScheduler();
    const { t, taken } = tracker(scheduler, HOUR);
    for (const name of ['a.pdf', 'b.pdf', 'c.pdf']) {
      await writeFile(join(dir, name), name);
      t.touch(join(dir, name));
    }
    await scheduler.whenPending(3);
    t.stop();
    assert.equal(scheduler.pendingTimers, 0);
    t.touch(join(dir, 'a.pdf'));
    await scheduler.advance(2 * HOUR);
    assert.deepEqual(taken, [], 'nothing is taken after stop()');
  }),
);

const rule = `  - name: inv\n    watch: ./in\n    workflow: W\n    stable_ms: ${HOUR}\n`;
const setup = async (dir: string) => {
  await mkdir(join(dir, 'in'), { recursive: true });
  for (const name of ['a.pdf', 'b.pdf']) await writeFile(join(dir, 'in', name), name);
};

test('the folder intake leaves no timer behind after stop(): stability windows, presence checks, rescans', opts, async () => {
  const scheduler = new VirtualScheduler();
  const h = await startHarness(rule, { scheduler, setup, folderCheckMs: 2000, rescanIntervalMs: 60_000 });
  try {
    await scheduler.whenPending(4); // two files waiting to be stable, the presence check, the rescan
    await scheduler.advance(60_000); // the periodic checks run and re-arm
    assert.ok(scheduler.pendingTimers >= 4, `${scheduler.pendingTimers} timers pending`);
    assert.equal(h.files.length, 0);
  } finally {
    await h.close();
  }
  assert.equal(scheduler.pendingTimers, 0);
});

test('on the real clock too, the folder intake leaves no timer running after stop()', opts, async () => {
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const before = timers();
  const h = await startHarness(rule, { setup, folderCheckMs: 2000, rescanIntervalMs: 60_000 });
  try {
    await waitFor('the stability windows and periodic checks to be armed', () => timers() >= before + 4);
  } finally {
    await h.close();
  }
  assert.equal(timers(), before);
});
