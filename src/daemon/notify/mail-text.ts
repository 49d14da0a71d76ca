// Text from files, the service and servers, made safe for a plain-text mail: one line, no control or
// bidi characters (a name with U+202E or a newline cannot fake lines or reorder what an operator reads),
// bounded length. File names are shown as their sanitised base name.
import { basename } from 'node:path';
import { INVISIBLE, sanitiseFileName } from '../../shared/safe-paths.js';

/** One line of at most `max` characters. */
export function oneLine(text: string, max = 300): string {
  const line = String(text).replace(/[\r\n\t]+/g, ' ').replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The file's name as a mail may show it. */
export function fileLabel(path: string): string {
  return sanitiseFileName(basename(path));
}

/** "1 file", "3 files". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A duration for people: "1.5 s", "45 s", "12 min", "3 h 5 min". */
export function duration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const min = Math.round(s / 60);
  return min < 120 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** Local date and time, minutes: "2026-03-04 07:00". */
export function localTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
