// Tracks one thing that can be down (the service, a mailbox): one alert once it has been down for
// down_after_s (or at once when told the cause will not pass by itself, like a refused login), and one
// more when it is back, only if the first was sent. Blips shorter than the threshold mail nobody.
import type { Cancel, Scheduler } from '../../shared/scheduler.js';

export interface OutageState {
  since: number;
  reason: string;
}

export interface OutageOptions {
  scheduler: Scheduler;
  afterMs(): number;
  onDown(outage: OutageState): void;
  onBack(outage: OutageState & { until: number }): void;
}

export class Outage {
  readonly #o: OutageOptions;
  #down: (OutageState & { alerted: boolean }) | null = null;
  #timer: Cancel | null = null;

  constructor(o: OutageOptions) {
    this.#o = o;
  }

  down(reason: string, alertNow = false): void {
    if (!this.#down) {
      this.#down = { since: this.#o.scheduler.now(), reason, alerted: false };
      this.#timer = this.#o.scheduler.schedule(this.#o.afterMs(), () => this.#alert());
    }
    this.#down.reason = reason;
    if (alertNow) this.#alert();
  }

  up(): void {
    const down = this.#down;
    this.cancel();
    if (down?.alerted) this.#o.onBack({ since: down.since, reason: down.reason, until: this.#o.scheduler.now() });
  }

  /** Forgets the outage without mail (stop). */
  cancel(): void {
    this.#timer?.();
    this.#timer = null;
    this.#down = null;
  }

  #alert(): void {
    this.#timer?.();
    this.#timer = null;
    if (!this.#down || this.#down.alerted) return;
    this.#down.alerted = true;
    this.#o.onDown({ since: this.#down.since, reason: this.#down.reason });
  }
}
