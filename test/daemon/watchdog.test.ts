// The watchdog keep-alive stops when the pipeline's scheduler is stuck, so systemd restarts a wedged
// daemon. Virtual time over a real pipeline and a real SQLite ledger whose due-list query is made to hang
// (the way a wedged ledger would look); the notifier records what the datagrams would say (the socket
// itself is exercised by run-under-systemd.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { openSqliteLedger } from '../../src/daemon/ledger/sqlite-ledger.js';
import type { Ledger } from '../../src/daemon/ledger/ledger.js';
import { createDisposition, createFileInspector, createPipelineApi } from '../../src/daemon/pipeline/adapters.js';
import { createOutputsWriter } from '../../src/daemon/pipeline/outputs-writer.js';
import { Pipeline } from '../../src/daemon/pipeline/pipeline.js';
import { createStepQueues } from '../../src/daemon/pipeline/rate-limit.js';
import { notifySystemd, stallAfterMs } from '../../src/daemon/systemd/daemon-notify.js';
import { silentLogger } from '../../src/shared/logger.js';
import { VirtualScheduler } from '../../src/shared/scheduler.js';
import type { SdNotifier } from '../../src/shared/sd-notify.js';
import { watchdogIntervalMs } from '../../src/shared/sd-notify.js';
import { tempTree } from './pipeline-fixtures.js';

test('WATCHDOG=1 every interval while the pipeline turns, none once its scheduler is stuck, again when it recovers', async () => {
  const tree = await tempTree('docdrop-watchdog-');
  const real = await openSqliteLedger(join(tree.root, 'state.db'));
  let release: (() => void) | null = null;
  // listDue hangs while `release` is set: the pipeline's tick cannot complete, as with a wedged ledger.
  const ledger: Ledger = new Proxy(real, {
    get(target, key, recv) {
      if (key === 'listDue') {
        return async (now: number, limit: number) => {
          if (release) await new Promise<void>((r) => (release = r));
          return target.listDue(now, limit);
        };
      }
      const v = Reflect.get(target, key, recv);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  const scheduler = new VirtualScheduler(Date.now());
  const client = new ServiceClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' });
  const pipeline = new Pipeline({
    ledger,
    api: createPipelineApi(client, 'run_parser', new Map()),
    outputs: createOutputsWriter(new Map()),
    disposition: createDisposition(new Map()),
    files: createFileInspector(),
    rules: new Map(),
    queues: createStepQueues({ uploadConcurrency: 1, pollConcurrency: 1 }),
    polling: { initialMs: 1000, maxMs: 1000, giveUpAfterMs: 60_000, slowRecheckMs: 60_000 },
    logger: silentLogger,
    scheduler,
  });
  const sent: string[] = [];
  const notifier: SdNotifier = { enabled: true, send: (f) => sent.push(Object.entries(f).map(([k, v]) => `${k}=${v}`).join('\n')), close: () => undefined };
  const watchdogMs = watchdogIntervalMs({ WATCHDOG_USEC: '30000000' }, process.pid)!;
  assert.equal(watchdogMs, 15_000);
  const systemd = notifySystemd({ notifier, ledger, pipeline, watchdogMs, logger: silentLogger, scheduler, statusEveryMs: 3_600_000 });
  const keepAlives = () => sent.filter((m) => m === 'WATCHDOG=1').length;
  try {
    pipeline.start();
    await systemd.ready();
    assert.match(sent[0]!, /^READY=1\nSTATUS=0 in flight, 0 done today, 0 failed today$/);
    const first = keepAlives();
    await scheduler.advance(60_000);
    assert.equal(keepAlives() - first, 4, 'one keep-alive per 15 s while the pipeline ticks every second');

    release = () => undefined; // the next tick hangs
    await scheduler.advance(stallAfterMs(watchdogMs, pipeline.tickMs) + 2 * watchdogMs);
    const stuckAt = keepAlives();
    await scheduler.advance(5 * watchdogMs);
    assert.equal(keepAlives(), stuckAt, 'no keep-alive while the scheduler is stuck');

    const r = release as () => void;
    release = null;
    r();
    await scheduler.advance(2 * watchdogMs);
    assert.ok(keepAlives() > stuckAt, 'keep-alives resume once the scheduler turns again');
  } finally {
    systemd.stopping();
    await pipeline.stop();
    await real.close();
    await tree.cleanup();
  }
  assert.equal(sent.at(-1), 'STOPPING=1\nSTATUS=stopping: steps in flight finish');
  assert.equal(scheduler.pendingTimers, 0, 'no timer left behind');
});

test('the watchdog interval follows sd_watchdog_enabled(3): half of WATCHDOG_USEC, only for our pid', () => {
  assert.equal(watchdogIntervalMs({}, 42), null);
  assert.equal(watchdogIntervalMs({ WATCHDOG_USEC: '2000000' }, 42), 1000);
  assert.equal(watchdogIntervalMs({ WATCHDOG_USEC: '2000000', WATCHDOG_PID: '42' }, 42), 1000);
  assert.equal(watchdogIntervalMs({ WATCHDOG_USEC: '2000000', WATCHDOG_PID: '7' }, 42), null, "another process's watchdog");
  assert.equal(watchdogIntervalMs({ WATCHDOG_USEC: 'x' }, 42), null);
});
