// Printed dates -> calendar dates. Covers numeric forms (ISO, d/m/y, m/d/y, d.m.y, 2-digit years),
// month names in English, German, French, Spanish, Italian, Portuguese, Dutch and the Nordic languages
// (full and abbreviated), and ordinal days ("15th").
// Ambiguous d/m vs m/d is settled by the values (13+ can only be a day), else day-first unless the
// caller prefers month-first (a document that shows an unambiguous m/d date elsewhere).

import { fullYearOfTwoDigits } from '../../shared/two-digit-year.js';

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

export interface DateMatch {
  date: CalendarDate;
  /** Character range of the match in the searched text. */
  start: number;
  end: number;
  /** true when d/m vs m/d could not be told apart from the values. */
  ambiguous: boolean;
}

const MONTHS: Record<string, number> = {};
// English, German, French; then Spanish, Italian, Portuguese, Dutch, the Nordic languages and Polish (its
// genitive "7 czerwca 2024" and nominative, also without diacritics); Austria's Jänner.
const monthNames: string[][] = [
  ['january', 'jan', 'januar', 'jän', 'jänner', 'jaenner', 'janner', 'janvier', 'janv', 'enero', 'ene', 'gennaio', 'gen', 'janeiro', 'januari', 'stycznia', 'styczeń', 'styczen'],
  ['february', 'feb', 'februar', 'fév', 'fev', 'février', 'fevrier', 'févr', 'febrero', 'febbraio', 'fevereiro', 'februari', 'lutego', 'luty'],
  ['march', 'mar', 'märz', 'maerz', 'mars', 'marts', 'mär', 'marzo', 'março', 'marco', 'maart', 'mrt', 'marca', 'marzec'],
  ['april', 'apr', 'avril', 'avr', 'abril', 'abr', 'aprile', 'kwietnia', 'kwiecień', 'kwiecien'],
  ['may', 'mai', 'mayo', 'maggio', 'mag', 'maio', 'mei', 'maj', 'maja'],
  ['june', 'jun', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho', 'czerwca', 'czerwiec'],
  ['july', 'jul', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julho', 'lipca', 'lipiec'],
  ['august', 'aug', 'août', 'aout', 'agosto', 'ago', 'augustus', 'augusti', 'sierpnia', 'sierpień', 'sierpien'],
  ['september', 'sep', 'sept', 'septembre', 'septiembre', 'setiembre', 'settembre', 'set', 'setembro', 'września', 'wrzesnia', 'wrzesień', 'wrzesien'],
  ['october', 'oct', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro', 'out', 'października', 'pazdziernika', 'październik', 'pazdziernik'],
  ['november', 'nov', 'novembre', 'noviembre', 'novembro', 'listopada', 'listopad'],
  ['december', 'dec', 'dezember', 'dez', 'décembre', 'decembre', 'déc', 'diciembre', 'dicembre', 'dic', 'dezembro', 'desember', 'grudnia', 'grudzień', 'grudzien'],
];
monthNames.forEach((names, i) => names.forEach((n) => (MONTHS[n] = i + 1)));

const MONTH_RE = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');

const MONTH_YEAR = new RegExp(`(?<![\\p{L}])(?:${MONTH_RE})\\.?,?\\s+(?:19|20)\\d{2}(?!\\d)`, 'giu');
/** Where a month and its year stand without a day ("June 2024", "for the month of Jan. 2023"): a period, not a sum. */
export function monthYearSpans(text: string): { start: number; end: number }[] {
  return [...text.matchAll(MONTH_YEAR)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1900 || year > 2100) return false;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

function fullYear(y: string): number {
  const n = Number(y);
  if (y.length === 4) return n;
  return fullYearOfTwoDigits(n);
}

type Pattern = { re: RegExp; build: (m: RegExpExecArray, monthFirst: boolean) => { date: CalendarDate; ambiguous: boolean } | null };

const SEP = '[./\\-]';
/** A four-digit year with the time glued to it, as OCR joins them ("09/03/201821:28"), also after the year's own full stop ("23.10.2024.06:52", Croatia's dates end with one). */
const YEAR_THEN_TIME = String.raw`\d{4}(?=\.?(?:[01]?\d|2[0-3]):[0-5]\d)`;
/** The same with a two-digit year ("12/12/2210:01 AM"), tried after the four-digit one. */
const SHORT_YEAR_THEN_TIME = String.raw`\d{2}(?=(?:[01]?\d|2[0-3]):[0-5]\d(?!\d))`;
const patterns: Pattern[] = [
  // 2019-11-15, 2019/11/15, 2019.11.15; "2022-10-2007:12:31" with the time glued to it by OCR
  {
    re: new RegExp(`(?<!\\d)(\\d{4})${SEP}(\\d{1,2})${SEP}(\\d{1,2}(?!\\d)|\\d{2}(?=(?:[01]\\d|2[0-3]):[0-5]\\d))`, 'g'),
    build: (m) => ({ date: { year: +m[1], month: +m[2], day: +m[3] }, ambiguous: false }),
  },
  // 20191115 (compact ISO, only when it forms a valid date)
  {
    re: /(?<![\d.,])((?:19|20)\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?![\d.,])/g,
    build: (m) => ({ date: { year: +m[1], month: +m[2], day: +m[3] }, ambiguous: false }),
  },
  // 27032018 (compact day-month-year, as receipt printers write it; years 1990-2039 only)
  {
    re: /(?<![\d.,])(0[1-9]|[12]\d|3[01])(0[1-9]|1[0-2])(19[9]\d|20[0-3]\d)(?![\d.,])/g,
    build: (m) => ({ date: { year: +m[3], month: +m[2], day: +m[1] }, ambiguous: false }),
  },
  // 15/11/2019, 11/15/2019, 15.11.2019, 12-01-19, 15.11.19
  {
    re: new RegExp(`(?<![\\d,/])(?<!\\d\\.)(\\d{1,2})\\s?(${SEP})\\s?(\\d{1,2})\\s?\\2\\s?(${YEAR_THEN_TIME}|${SHORT_YEAR_THEN_TIME}|(?:\\d{4}|\\d{2})(?![\\d/]|[.,]\\d))`, 'g'),
    build: (m, monthFirst) => {
      const a = +m[1];
      const b = +m[3];
      const year = fullYear(m[4]);
      if (a > 12 && b <= 12) return { date: { year, month: b, day: a }, ambiguous: false };
      if (b > 12 && a <= 12) return { date: { year, month: a, day: b }, ambiguous: false };
      // A dot separator is a day-first convention (German, French, ...).
      const dayFirst = m[2] === '.' || !monthFirst;
      return { date: dayFirst ? { year, month: b, day: a } : { year, month: a, day: b }, ambiguous: a !== b && m[2] !== '.' };
    },
  },
  // "100021911/03/201806:20": OCR glued an order number to the date and the time to its year; the
  // glued time marks the date, and its day is the two digits before the first separator.
  {
    re: new RegExp(`(?<=\\d{3})(\\d{2})([./-])(\\d{1,2})\\2(${YEAR_THEN_TIME})`, 'g'),
    build: (m, monthFirst) => {
      const a = +m[1];
      const b = +m[3];
      const dayFirst = a > 12 || m[2] === '.' || (!monthFirst && b <= 12);
      return { date: dayFirst ? { year: +m[4], month: b, day: a } : { year: +m[4], month: a, day: b }, ambiguous: a <= 12 && b <= 12 && a !== b && m[2] !== '.' };
    },
  },
  // 15 Nov 2019, 15-Nov-2019, 15. November 2019, 15th of November 2019, 05 MAR 2018, 1er mars 2019,
  // 3 de noviembre de 2024
  {
    // An apostrophe may stand for the century ("22Sep'18").
    re: new RegExp(`(?<![\\w])(\\d{1,2})(?:st|nd|rd|th|er|º)?\\.?[\\s\\-/]*(?:(?:of|de)\\s+)?(${MONTH_RE})\\.?[\\s\\-/,'’]*(?:(?:de|del)\\s+)?(${YEAR_THEN_TIME}|(?:\\d{4}|\\d{2})(?![\\d]))`, 'giu'),
    build: (m) => {
      const month = MONTHS[m[2].toLowerCase()];
      return month ? { date: { year: fullYear(m[3]), month, day: +m[1] }, ambiguous: false } : null;
    },
  },
  // Nov 15, 2019, November 15th 2019
  {
    re: new RegExp(`(?<![\\w])(${MONTH_RE})\\.?\\s*(\\d{1,2})(?:st|nd|rd|th)?\\s*,?\\s*(\\d{4})(?!\\d)`, 'giu'),
    build: (m) => {
      const month = MONTHS[m[1].toLowerCase()];
      return month ? { date: { year: +m[3], month, day: +m[2] }, ambiguous: false } : null;
    },
  },
];

/**
 * OCR drops or spaces out date separators ("05 03- 2018"). Read that way only where a label says a
 * date follows, and only with a four-digit year.
 */
const LOOSE: Pattern = {
  re: /(?<![\d.,/])(\d{1,2})\s*[./-]?\s+(\d{1,2})\s*[./-]?\s*((?:19|20)\d{2})(?!\d)|(?<![\d.,/])(\d{1,2})\s*[./-]\s*(\d{1,2})\s+((?:19|20)\d{2})(?!\d)/g,
  build: (m, monthFirst) => {
    const [a, b, year] = m[1] ? [+m[1], +m[2], +m[3]] : [+m[4], +m[5], +m[6]];
    const dayFirst = a > 12 || (!monthFirst && b <= 12);
    return { date: dayFirst ? { year, month: b, day: a } : { year, month: a, day: b }, ambiguous: a <= 12 && b <= 12 && a !== b };
  },
};

/** Every date in `text`, in order of position; overlapping matches keep the earliest, longest. */
export function findDates(text: string, opts: { monthFirst?: boolean; loose?: boolean } = {}): DateMatch[] {
  const found: DateMatch[] = [];
  for (const p of opts.loose ? [...patterns, LOOSE] : patterns) {
    p.re.lastIndex = 0;
    for (let m = p.re.exec(text); m; m = p.re.exec(text)) {
      const built = p.build(m, opts.monthFirst ?? false);
      if (!built || !validDate(built.date.year, built.date.month, built.date.day)) continue;
      found.push({ ...built, start: m.index, end: m.index + m[0].length });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: DateMatch[] = [];
  for (const f of found) {
    const last = out[out.length - 1];
    if (last && f.start < last.end) continue;
    out.push(f);
  }
  return out;
}

/** Letters OCR reads for digits of the same shape. */
const DIGIT_OF: Record<string, string> = { O: '0', o: '0', D: '0', Q: '0', C: '0', l: '1', I: '1', i: '1', '|': '1', S: '5', s: '5', B: '8', Z: '2', z: '2' };
/** Digits OCR reads for letters of a month name, and back. */
const LOOKALIKE_DIGIT: Record<string, string> = { o: '0', l: '1', s: '5', b: '8', z: '2' };
const LETTER_OF = Object.fromEntries(Object.entries(LOOKALIKE_DIGIT).map(([l, d]) => [d, l]));

const LOOKALIKE_MONTHS = Object.keys(MONTHS)
  .filter((n) => /[olszb]/.test(n))
  .sort((a, b) => b.length - a.length)
  .map((n) => n.replace(/[olszb]/g, (c) => `[${c}${LOOKALIKE_DIGIT[c]}]`))
  .join('|');
/** Month names as OCR may spell them with digits for letters ("5ep", "0ct", "N0v") after a day. */
const MONTH_LOOKALIKE = new RegExp(`(?<![\\w])(\\d{1,2})([\\s./-]?)(${LOOKALIKE_MONTHS})(?=\\.?[\\s\\-/,'’]*\\d{2,4}(?!\\d))`, 'giu');
/** The same before the day and a four-digit year ("0CT 19 2022"). */
const MONTH_LOOKALIKE_FIRST = new RegExp(`(?<![\\w])(${LOOKALIKE_MONTHS})(?=\\.?\\s*\\d{1,2}(?:st|nd|rd|th)?\\s*,?\\s*\\d{4}(?!\\d))`, 'giu');

/** Digits OCR reads for the leading 0 or 1 of a day or month in a blurred print ("87/23/2019" for 07/23/2019). */
const LEADING_DIGIT_OF: Record<string, string> = { '8': '0', '6': '0', '9': '0', '7': '1' };
const NUMERIC_DATE = /(?<![\d.,/])(\d{2})([./-])(\d{2})\2(\d{4}|\d{2})(?![\d/])/g;

/**
 * A numeric date that is none as read (a day or month over 31): the first digit of that part read for
 * the 0 or 1 it was, when that alone makes a valid date.
 */
function undoLeadingDigit(text: string): string {
  return text.replace(NUMERIC_DATE, (all, a: string, sep: string, b: string, y: string) => {
    const year = fullYear(y);
    const valid = (x: string, z: string) => validDate(year, +x, +z) || validDate(year, +z, +x);
    if (valid(a, b)) return all;
    const fix = (part: string) => (+part > 31 && LEADING_DIGIT_OF[part[0]] ? LEADING_DIGIT_OF[part[0]] + part[1] : part);
    const [fa, fb] = [fix(a), fix(b)];
    return (fa !== a) !== (fb !== b) && valid(fa, fb) ? `${fa}${sep}${fb}${sep}${y}` : all;
  });
}

/**
 * The text with OCR's misreads undone inside date-shaped tokens: letters for digits ("2O18-03-O5",
 * "l5/03/2018", "S.11.2019", "05.02.2C18") in tokens of digits and date separators with at most two such
 * letters; digits read for the letters of a month name after a day ("225ep'18", "3 0ct 2019"); and a
 * leading digit of a day or month read for its 0 or 1 ("87/23/2019").
 * Character for character, so positions in the text stay valid.
 */
export function undoOcrMisreads(text: string): string {
  const digits = undoLeadingDigit(text).replace(/[\dOoDQCIli|SsBZz./-]{6,}/g, (tok) => {
    const letters = tok.replace(/[\d./-]/g, '');
    const digits = tok.replace(/\D/g, '');
    if (letters.length === 0 || letters.length > 2 || digits.length < 4 || !/[./-]/.test(tok)) return tok;
    return tok.replace(/[OoDQCIli|SsBZz]/g, (c) => DIGIT_OF[c]);
  });
  const letters = (month: string) => month.replace(/\d/g, (d) => LETTER_OF[d]);
  return digits
    .replace(MONTH_LOOKALIKE, (all, day: string, space: string, month: string) => (/\d/.test(month) && /\p{L}/u.test(month) ? day + space + letters(month) : all))
    .replace(MONTH_LOOKALIKE_FIRST, (month: string) => (/\d/.test(month) && /\p{L}/u.test(month) ? letters(month) : month));
}

export function parseDate(text: string, opts: { monthFirst?: boolean } = {}): CalendarDate | null {
  return findDates(text, opts)[0]?.date ?? null;
}

/** true when the text holds a slash date that can only be read month-first (e.g. 11/15/2019). */
export function showsMonthFirst(text: string): boolean {
  const re = /(?<![\d.])(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})(?!\d)/g;
  let monthFirst = false;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (+m[1] > 12 && +m[2] <= 12) return false;
    if (+m[2] > 12 && +m[1] <= 12) monthFirst = true;
  }
  return monthFirst;
}

/** Dollars of countries that write the day first: S$, A$, NZ$, HK$ and their ISO codes, and Malaysia's RM. */
const DAY_FIRST_DOLLARS = /(?:\b(?:RM|SGD|AUD|NZD|HKD|CAD|MXN|ARS|CLP|COP)\b|(?<![\p{L}])(?:S|A|NZ|HK|C|MX)\$)/u;
/** Addresses of countries that write the day first: Singapore's 6-digit postcodes, Australia's states. */
// Mexico prints its postcodes as "C.P. 01000" and its tax ids as RFC.
const DAY_FIRST_PLACE = /\b(?:Singapore\s+\d{6}|(?:NSW|VIC|QLD|WA|SA|TAS|ACT|NT)\s+\d{4})\b|\b(?:Singapore|Australia|New Zealand|ABN|UEN|México|Mexico|CDMX|RFC)\b|\bC\.P\.\s?\d{5}\b/i;
const US_STATES =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY';
/** A US address: a state's two letters and a ZIP code ("Portland, OR 97205", "NY 10001-2345"). */
const US_ADDRESS = new RegExp(`(?:^|[\\s,])(?:${US_STATES})\\s+\\d{5}(?:-\\d{4})?(?!\\d)`, 'm');
/** OCR's 0 for the O of OH, OK, OR ("c0 80302" is CO, "0R 97214" OR). */
const stateOcr = (text: string): string =>
  text.replace(/(?<![A-Za-z0-9])[A-Za-z0]{2}(?=\s+\d{5}(?:-\d{4})?(?!\d))/g, (s) => (/[a-z0]/.test(s) ? s.toUpperCase().replace(/0/g, 'O') : s));

/**
 * Whether a document's ambiguous slash dates (03/05/2024) read month first: as its own unambiguous
 * dates do; else when it is a US document, by a US address or by dollar amounts ($12.50, not an OCR'd
 * "$000022185") without a sign of a country that writes the day first (S$, AUD, RM, a Singapore or
 * Australian address) or a day-first dotted date.
 */
export function readsMonthFirst(text: string): boolean {
  if (showsMonthFirst(text)) return true;
  if (/\d{1,2}\.\d{1,2}\.\d{2,4}/.test(text) || DAY_FIRST_DOLLARS.test(text) || DAY_FIRST_PLACE.test(text)) return false;
  return US_ADDRESS.test(stateOcr(text)) || /\$\s?\d{1,3}(?:,?\d{3})*\.\d{2}\b/.test(text);
}
