// The keep-alive half of systemd's watchdog: WATCHDOG=1 every interval from a timer of the main event
// loop, but only while the process does its work. Two things prove that: the timer itself fires (a
// blocked event loop sends nothing), and `stalled()` finds no part stuck (the daemon asks whether its
// pipeline's scheduler has turned lately). Withholding the keep-alive is the point: systemd then kills
// and restarts a wedged process, and the ledger resumes its work.
import type { Logger } from './logger.js';
import { every, type Cancel, type Scheduler } from './scheduler.js';

export interface WatchdogOptions {
  scheduler: Scheduler;
  intervalMs: number;
  /** Sends WATCHDOG=1. */
  keepAlive: () => void;
  /** Why the process is stuck (logged), or null when it is alive. */
  stalled?: () => string | null;
  logger: Logger;
}

export function startWatchdog(o: WatchdogOptions): Cancel {
  let stuck: string | null = null;
  const beat = () => {
    const why = o.stalled?.() ?? null;
    if (why === null) {
      if (stuck !== null) o.logger.warn({ was: stuck }, 'watchdog: alive again; keep-alives resume');
      stuck = null;
      o.keepAlive();
      return;
    }
    // Logged once per spell; systemd's restart follows unless it recovers within WatchdogSec.
    if (stuck === null) o.logger.error({ reason: why }, `watchdog: ${why}; withholding WATCHDOG=1 so systemd restarts the process`);
    stuck = why;
  };
  beat();
  return every(o.scheduler, o.intervalMs, beat);
}
