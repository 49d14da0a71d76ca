// Asks the service a cheap question on a schedule, so an outage is noticed even when no file is moving.
// Each answer (or its absence) goes to the outage tracker as up or down.
import type { Cancel, Scheduler } from '../../shared/scheduler.js';

export interface ServiceProbeOptions {
  scheduler: Scheduler;
  intervalMs: number;
  /** Resolves when the service answers with the daemon's key. */
  ping(): Promise<unknown>;
  onUp(): void;
  onDown(reason: string): void;
}

export function startServiceProbe(o: ServiceProbeOptions): { stop(): Promise<void> } {
  let timer: Cancel | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const arm = () => {
    if (stopped) return;
    timer = o.scheduler.schedule(o.intervalMs, () => {
      timer = null;
      running = o.ping().then(
        () => {
          if (!stopped) o.onUp();
        },
        (err: unknown) => {
          if (!stopped) o.onDown(describe(err));
        },
      ).finally(() => {
        running = null;
        arm();
      });
    });
  };
  arm();
  return {
    async stop() {
      stopped = true;
      timer?.();
      timer = null;
      await running;
    },
  };
}

/** The error and, for a network failure, its cause ("fetch failed: ECONNREFUSED"). */
function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return [e.message ?? String(err), cause].filter(Boolean).join(': ');
}
