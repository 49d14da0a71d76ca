// `docdrop run` under systemd (Type=notify): READY=1 once the daemon has started (ledger open, targets
// resolved, watchers running), STATUS= refreshed from the ledger, WATCHDOG=1 while the pipeline turns,
// RELOADING=1 ... READY=1 around a reload, STOPPING=1 on shutdown. Without $NOTIFY_SOCKET it sends nothing.
import type { Logger } from '../../shared/logger.js';
import { monotonicUsec, type SdNotifier } from '../../shared/sd-notify.js';
import { every, realScheduler, type Cancel, type Scheduler } from '../../shared/scheduler.js';
import { startWatchdog } from '../../shared/watchdog.js';
import type { Ledger } from '../ledger/ledger.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import { statusLine } from './status-line.js';

export interface DaemonNotifyOptions {
  notifier: SdNotifier;
  ledger: Pick<Ledger, 'countByState' | 'countFinishedSince'>;
  pipeline: Pick<Pipeline, 'lastTurnAt' | 'tickMs'>;
  /** Half of $WATCHDOG_USEC (watchdogIntervalMs), or null when systemd expects no watchdog from us. */
  watchdogMs: number | null;
  logger: Logger;
  scheduler?: Scheduler;
  /** STATUS= refresh period; default 10 s. */
  statusEveryMs?: number;
}

export interface DaemonNotify {
  ready(): Promise<void>;
  reloading(): void;
  reloaded(): Promise<void>;
  stopping(): void;
}

/**
 * The pipeline counts as stuck once its scheduler has not completed a turn for twice the keep-alive
 * interval (the watchdog timeout itself), but never sooner than 10 turns: a slow ledger query under a burst
 * of work is not a wedge.
 */
export function stallAfterMs(watchdogMs: number, tickMs: number): number {
  return Math.max(2 * watchdogMs, 10 * tickMs);
}

export function notifySystemd(o: DaemonNotifyOptions): DaemonNotify {
  const scheduler = o.scheduler ?? realScheduler;
  const timers: Cancel[] = [];
  let stopped = false;
  const status = async (): Promise<Record<string, string>> => {
    try {
      return { STATUS: await statusLine(o.ledger, new Date(scheduler.now())) };
    } catch (err) {
      o.logger.warn({ err: (err as Error).message }, 'could not read the ledger for the systemd status');
      return {};
    }
  };
  const sendStatus = async () => {
    const fields = await status();
    if (fields.STATUS) o.notifier.send(fields);
  };
  return {
    async ready() {
      if (!o.notifier.enabled) return;
      const fields = await status();
      if (stopped) return; // a stop came while the ledger was read: no timer may outlive it
      o.notifier.send({ READY: 1, ...fields });
      timers.push(every(scheduler, o.statusEveryMs ?? 10_000, () => void sendStatus()));
      const watchdogMs = o.watchdogMs;
      if (watchdogMs === null) return;
      const stall = stallAfterMs(watchdogMs, o.pipeline.tickMs);
      timers.push(
        startWatchdog({
          scheduler,
          intervalMs: watchdogMs,
          keepAlive: () => o.notifier.send({ WATCHDOG: 1 }),
          stalled: () => {
            const idle = scheduler.now() - o.pipeline.lastTurnAt;
            return idle > stall ? `the pipeline's scheduler has not turned for ${Math.round(idle / 1000)} s` : null;
          },
          logger: o.logger,
        }),
      );
    },
    reloading() {
      o.notifier.send({ RELOADING: 1, MONOTONIC_USEC: monotonicUsec(), STATUS: 'reloading the config' });
    },
    async reloaded() {
      o.notifier.send({ READY: 1, ...(await status()) });
    },
    stopping() {
      stopped = true;
      for (const cancel of timers.splice(0)) cancel();
      o.notifier.send({ STOPPING: 1, STATUS: 'stopping: steps in flight finish' });
    },
  };
}
