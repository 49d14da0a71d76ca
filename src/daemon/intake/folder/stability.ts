// Decides when a file is complete enough to take: its size and mtime, read by stat, unchanged for
// stable_ms. Watcher events and scan hits only ask for a check ("invalidations"); stat is the truth.
import { stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { Cancel, Scheduler } from '../../../shared/scheduler.js';

interface Pending {
  size: number;
  mtimeMs: number;
  /** When this size+mtime was first seen. */
  since: number;
  timer: Cancel | null;
  checking: boolean;
}

export class StabilityTracker {
  private readonly pending = new Map<string, Pending>();
  private stopped = false;

  constructor(
    private readonly opts: {
      stableMs: number;
      scheduler: Scheduler;
      onStable: (path: string, stats: Stats) => void;
    },
  ) {}

  get size(): number {
    return this.pending.size;
  }

  /** Something may have changed at `path`: check it now and keep checking until stable or gone. */
  touch(path: string): void {
    if (this.stopped) return;
    const p = this.pending.get(path);
    if (p && (p.timer || p.checking)) return; // a check is already on its way and will see the change
    void this.check(path);
  }

  forget(path: string): void {
    const p = this.pending.get(path);
    p?.timer?.();
    this.pending.delete(path);
  }

  stop(): void {
    this.stopped = true;
    for (const p of this.pending.values()) p.timer?.();
    this.pending.clear();
  }

  private async check(path: string): Promise<void> {
    let p = this.pending.get(path);
    if (p) {
      p.timer = null;
      p.checking = true;
    }
    let st: Stats | null = null;
    try {
      st = await stat(path);
    } catch {
      st = null; // gone (or unreadable): nothing to take
    }
    if (this.stopped) return;
    p = this.pending.get(path);
    if (!st || !st.isFile()) {
      this.forget(path);
      return;
    }
    const now = this.opts.scheduler.now();
    if (!p || p.size !== st.size || p.mtimeMs !== st.mtimeMs) {
      p = { size: st.size, mtimeMs: st.mtimeMs, since: now, timer: null, checking: false };
      this.pending.set(path, p);
    }
    p.checking = false;
    const wait = p.since + this.opts.stableMs - now;
    if (wait <= 0 && now > p.since) {
      this.pending.delete(path);
      this.opts.onStable(path, st);
      return;
    }
    p.timer = this.opts.scheduler.schedule(Math.max(wait, 1), () => void this.check(path));
  }
}
