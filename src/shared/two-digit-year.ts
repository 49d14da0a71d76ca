/**
 * The century of a two-digit year, as POSIX strptime's %y reads it: 69-99 -> 1969-1999, 00-68 -> 2000-2068.
 * The engine (printed dates) and the outputs (date_format patterns) share it, so one document's "69"
 * is the same year wherever it is read.
 */
export function fullYearOfTwoDigits(yy: number): number {
  return yy >= 69 ? 1900 + yy : 2000 + yy;
}
