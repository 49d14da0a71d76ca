// Batches failure alerts for one set of recipients: the first failure after a quiet interval is sent at
// once; later ones wait until min_interval_s has passed since the last mail and then go together, so a
// burst of failures is at most one mail per interval.
import type { Cancel, Scheduler } from '../../shared/scheduler.js';

export interface FailureItem {
  kind: 'failed' | 'timed_out';
  rule: string;
  file: string;
  /** "<code>: <message>" for a failure, the wait for a timeout. */
  reason: string;
  /** Where the failed file lies now. */
  finalPath: string | null;
  at: number;
}

/** Items kept per mail; the rest are only counted, so a flood cannot grow memory or the mail. */
export const MAX_ITEMS = 50;

export interface FailureBatchOptions {
  scheduler: Scheduler;
  intervalMs(): number;
  /** One mail's worth: the items kept and how many more there were. */
  send(items: FailureItem[], more: number): void;
}

export class FailureBatch {
  readonly #o: FailureBatchOptions;
  #items: FailureItem[] = [];
  #more = 0;
  #lastSentAt = Number.NEGATIVE_INFINITY;
  #timer: Cancel | null = null;

  constructor(o: FailureBatchOptions) {
    this.#o = o;
  }

  add(item: FailureItem): void {
    const now = this.#o.scheduler.now();
    if (this.#items.length < MAX_ITEMS) this.#items.push(item);
    else this.#more++;
    if (this.#timer) return;
    const wait = this.#lastSentAt + this.#o.intervalMs() - now;
    if (wait <= 0) this.flush();
    else this.#timer = this.#o.scheduler.schedule(wait, () => this.flush());
  }

  /** Sends what waits now (the timer's job; also at stop). */
  flush(): void {
    this.#timer?.();
    this.#timer = null;
    if (this.#items.length === 0) return;
    const items = this.#items;
    const more = this.#more;
    this.#items = [];
    this.#more = 0;
    this.#lastSentAt = this.#o.scheduler.now();
    this.#o.send(items, more);
  }
}
