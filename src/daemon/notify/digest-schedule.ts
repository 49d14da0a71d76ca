// Runs a job every day at a local wall-clock time ("07:00"), on the injected scheduler. The next time is
// computed afresh after each run from the local calendar, so a DST change moves it with the clock.
import { repeat, type Cancel, type Scheduler } from '../../shared/scheduler.js';

/** The next moment after `now` whose local time is `hhmm`. */
export function nextLocalTime(now: number, hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const d = new Date(now);
  d.setHours(h, m, 0, 0);
  if (d.getTime() <= now) {
    d.setDate(d.getDate() + 1);
    d.setHours(h, m, 0, 0);
  }
  return d.getTime();
}

export function scheduleDaily(scheduler: Scheduler, hhmm: string, job: () => void): Cancel {
  return repeat(scheduler, () => nextLocalTime(scheduler.now(), hhmm) - scheduler.now(), job);
}
