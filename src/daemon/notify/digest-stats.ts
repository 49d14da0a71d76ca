// What the daily digest reports, gathered from events since the last digest (or the daemon's start):
// finished inputs per rule, the failures, and the slowest steps. Bounded: a few dozen failures and the
// ten slowest steps are kept, the rest only counted.
import type { NotifyEvent } from './notify-events.js';

export interface RuleCounts {
  done: number;
  failed: number;
  duplicate: number;
  timed_out: number;
}

export interface SlowStep {
  rule: string;
  file: string;
  from: string;
  to: string;
  ms: number;
}

export interface DigestSnapshot {
  since: number;
  until: number;
  rules: Map<string, RuleCounts>;
  failures: { rule: string; file: string; reason: string }[];
  slowest: SlowStep[];
}

const MAX_FAILURES = 30;
const MAX_SLOW = 10;

export class DigestStats {
  #since: number;
  #rules = new Map<string, RuleCounts>();
  #failures: DigestSnapshot['failures'] = [];
  #slowest: SlowStep[] = [];

  constructor(since: number) {
    this.#since = since;
  }

  record(e: NotifyEvent): void {
    switch (e.type) {
      case 'input_done':
        this.#counts(e.rule).done++;
        break;
      case 'input_duplicate':
        this.#counts(e.rule).duplicate++;
        break;
      case 'input_timed_out':
        this.#counts(e.rule).timed_out++;
        break;
      case 'input_failed':
        this.#counts(e.rule).failed++;
        if (this.#failures.length < MAX_FAILURES) this.#failures.push({ rule: e.rule, file: e.file, reason: `${e.reason}: ${e.message}` });
        break;
      case 'step_done':
        if (this.#slowest.length < MAX_SLOW || e.ms > this.#slowest.at(-1)!.ms) {
          const { rule, file, from, to, ms } = e;
          this.#slowest = [...this.#slowest, { rule, file, from, to, ms }].sort((a, b) => b.ms - a.ms).slice(0, MAX_SLOW);
        }
        break;
      default:
    }
  }

  /** What was gathered up to `now`; starts afresh from there. */
  take(now: number): DigestSnapshot {
    const snapshot = { since: this.#since, until: now, rules: this.#rules, failures: this.#failures, slowest: this.#slowest };
    this.#since = now;
    this.#rules = new Map();
    this.#failures = [];
    this.#slowest = [];
    return snapshot;
  }

  #counts(rule: string): RuleCounts {
    let c = this.#rules.get(rule);
    if (!c) this.#rules.set(rule, (c = { done: 0, failed: 0, duplicate: 0, timed_out: 0 }));
    return c;
  }
}
