// Cross-checks of a document's date against the other dates printed on it: is it plausible (not before
// 1990, not far in the future), and did OCR misread a digit of its year (a receipt's "2016" where the
// time stamp line and the other dates say 2018)? OCR mixes up digits of similar shape; a text layer
// does not, so repairs are made on OCR'd words only. Document numbers that begin with the date
// ("2018030610100080498", as tills number their receipts) are other prints of it too.
import type { Line } from '../layout/lines.js';
import { findDates, type CalendarDate } from './parse-date.js';
import { oneConfusableDigit } from './ocr-digits.js';


/** A date as printed on the document, with the OCR confidence (0..1) of its words; null for a text layer. */
export interface PrintedDate {
  date: CalendarDate;
  line: Line;
  ocr: number | null;
  /** Read from the first eight digits of a longer number (yyyymmdd then a serial). */
  embedded?: boolean;
}

/**
 * A number of 10+ digits that begins with a compact yyyymmdd date. Its digits may be a date by chance,
 * so it only counts where its month and day are the chosen date's (checkDate).
 */
const DATE_LED_NUMBER = /(?<![\d.,])((?:19|20)\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\d{2,}(?![\d.,])/g;

const EARLIEST_YEAR = 1990;
/** Days a document date may lie after today: clocks and time zones, post-dated invoices. */
const FUTURE_MARGIN_DAYS = 62;

const dayNumber = (d: CalendarDate): number => Date.UTC(d.year, d.month - 1, d.day) / 86_400_000;
const isCalendarDay = (d: CalendarDate): boolean => new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDate() === d.day;

/** Mean OCR confidence (0..1) of the words of the line that overlap [start, end) of its text; null for a text layer. */
export function ocrConfidenceOf(line: Line, start = 0, end = line.text.length): number | null {
  let at = 0;
  const confs: number[] = [];
  for (const w of line.words) {
    const wEnd = at + w.text.length;
    if (wEnd > start && at < end && typeof w.conf === 'number') confs.push(w.conf / 100);
    at = wEnd + 1;
  }
  return confs.length ? confs.reduce((a, b) => a + b, 0) / confs.length : null;
}

/** Every date printed on the document. */
export function printedDates(lines: Line[], monthFirst: boolean): PrintedDate[] {
  const out: PrintedDate[] = [];
  for (const line of lines) {
    for (const m of findDates(line.text, { monthFirst })) out.push({ date: m.date, line, ocr: ocrConfidenceOf(line, m.start, m.end) });
    for (const m of line.text.matchAll(DATE_LED_NUMBER)) {
      const date = { year: +m[1], month: +m[2], day: +m[3] };
      if (isCalendarDay(date)) out.push({ date, line, ocr: ocrConfidenceOf(line, m.index, m.index + m[0].length), embedded: true });
    }
  }
  return out;
}

/** Not before 1990, not later than a couple of months from today. */
export function plausibleDate(d: CalendarDate, today = new Date()): boolean {
  if (d.year < EARLIEST_YEAR) return false;
  const now = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) / 86_400_000;
  return dayNumber(d) <= now + FUTURE_MARGIN_DAYS;
}

/** true when the two years differ in exactly one digit and OCR confuses those digits. */
const confusableYears = (a: number, b: number): boolean => oneConfusableDigit(String(a), String(b));

export interface CheckedDate {
  date: CalendarDate;
  /** The year was changed to the one the other dates agree on. */
  repaired: boolean;
  /** Plausible, and (when other dates are printed) in the same years as they are. */
  agrees: boolean;
  plausible: boolean;
}

/**
 * Checks the chosen date against the others printed on the document. Its year is repaired when it was
 * OCR'd, differs from the year every other date shows by one confusable digit, and either is implausible
 * or was read with no more confidence than the other dates.
 */
export function checkDate(chosen: CalendarDate, chosenOcr: number | null, printed: PrintedDate[], today = new Date()): CheckedDate {
  // A date at the head of a number speaks for the chosen one only when its month and day are the same.
  const others = printed.filter((o) => !o.embedded || (o.date.month === chosen.month && o.date.day === chosen.day));
  const rest = others.filter((o) => o.date.year !== chosen.year || o.date.month !== chosen.month || o.date.day !== chosen.day);
  const years = new Set(rest.map((o) => o.date.year));
  const plausible = plausibleDate(chosen, today);
  // The chosen date itself is among the printed ones; a second print of it agrees with it.
  const sameYear = rest.some((o) => o.date.year === chosen.year) || others.length - rest.length >= 2;
  if (years.size === 1 && !sameYear) {
    const [year] = years;
    const otherOcr = Math.max(...rest.map((o) => o.ocr ?? 1));
    const ocrRead = chosenOcr !== null;
    if (ocrRead && confusableYears(chosen.year, year) && (!plausible || otherOcr >= chosenOcr)) {
      const date = { ...chosen, year };
      // 29 February of a year that is not a leap year stays as printed.
      if (isCalendarDay(date)) {
        return { date, repaired: true, agrees: true, plausible: plausibleDate(date, today) };
      }
    }
  }
  const near = rest.length === 0 || [...years].some((y) => Math.abs(y - chosen.year) <= 1);
  return { date: chosen, repaired: false, agrees: plausible && near, plausible };
}
