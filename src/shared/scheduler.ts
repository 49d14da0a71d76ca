// Time behind a small port: a clock and one-shot timers. Components that wait (the pipeline, the folder
// intake's stability tracker) take a Scheduler, so tests run them on virtual time and can check that
// stop() leaves no timer behind. realScheduler is the process's clock and timers.

/** Cancels a scheduled call; harmless once it ran or was cancelled. */
export type Cancel = () => void;

export interface Scheduler {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls fn once, ms from now. */
  schedule(ms: number, fn: () => void): Cancel;
}

export const realScheduler: Scheduler = {
  now: () => Date.now(),
  schedule(ms, fn) {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};

/** Resolves after ms; rejects with the signal's reason when it aborts first (the timer is cancelled). */
export function sleep(ms: number, signal?: AbortSignal, scheduler: Scheduler = realScheduler): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const cancel = scheduler.schedule(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    const onAbort = () => {
      cancel();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Calls fn every ms (first call ms from now) until cancelled. */
export function every(scheduler: Scheduler, ms: number, fn: () => void): Cancel {
  return repeat(scheduler, () => ms, fn);
}

/** Calls fn nextDelay() ms from now, then again nextDelay() ms after each call, until cancelled. */
export function repeat(scheduler: Scheduler, nextDelay: () => number, fn: () => void): Cancel {
  let cancel: Cancel = () => undefined;
  let cancelled = false;
  const arm = () => {
    cancel = scheduler.schedule(nextDelay(), () => {
      if (cancelled) return;
      arm();
      fn();
    });
  };
  arm();
  return () => {
    cancelled = true;
    cancel();
  };
}

interface VirtualTimer {
  at: number;
  fn: () => void;
}

/** Virtual time for tests: nothing runs until advance(); pendingTimers counts what is still scheduled. */
export class VirtualScheduler implements Scheduler {
  #now: number;
  #nextId = 0;
  /** By id, so insertion order breaks ties between timers due at the same time. */
  readonly #timers = new Map<number, VirtualTimer>();
  #waiters: { count: number; resolve: () => void }[] = [];

  constructor(startMs = 0) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  schedule(ms: number, fn: () => void): Cancel {
    const id = this.#nextId++;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), fn });
    const ready = this.#waiters.filter((w) => this.#timers.size >= w.count);
    this.#waiters = this.#waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
    return () => void this.#timers.delete(id);
  }

  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** Resolves once at least `count` timers are pending, e.g. after real I/O that ends by scheduling one. */
  whenPending(count = 1): Promise<void> {
    if (this.#timers.size >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  /**
   * Moves the clock ms forward, running each timer that falls due at its own time, earliest first; after
   * each, one turn of the event loop lets its promise continuations run (not its real I/O).
   */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      let next: [number, VirtualTimer] | undefined;
      for (const entry of this.#timers) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.#timers.delete(next[0]);
      this.#now = Math.max(this.#now, next[1].at);
      next[1].fn();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.#now = end;
  }
}
