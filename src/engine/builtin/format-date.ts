// Writes a calendar date with a strftime-style pattern (parser_config.date_format). Only the date
// directives make sense for a date without a time; unknown directives are written as they are.
import type { CalendarDate } from './parse-date.js';

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

export function formatDate(date: CalendarDate, pattern: string | null): string {
  const iso = `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
  if (!pattern) return iso;
  const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  const directives: Record<string, string> = {
    Y: pad(date.year, 4),
    y: pad(date.year % 100),
    m: pad(date.month),
    d: pad(date.day),
    e: String(date.day).padStart(2, ' '),
    '-d': String(date.day),
    '-m': String(date.month),
    B: MONTH_NAMES[date.month - 1],
    b: MONTH_NAMES[date.month - 1].slice(0, 3),
    h: MONTH_NAMES[date.month - 1].slice(0, 3),
    A: DAY_NAMES[weekday],
    a: DAY_NAMES[weekday].slice(0, 3),
    F: iso,
    D: `${pad(date.month)}/${pad(date.day)}/${pad(date.year % 100)}`,
    '%': '%',
  };
  return pattern.replace(/%(-?[A-Za-z%])/g, (all, d: string) => directives[d] ?? all);
}
