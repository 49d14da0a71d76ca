// Reads extracted date strings into Dates: ISO yyyy-mm-dd always, or a Workflow's strftime-style
// parser_config.date_format such as '%d/%m/%Y'. Dates are calendar days, returned as UTC midnight so
// they serialise to the same yyyy-mm-dd everywhere and to a whole-day serial in XLSX.

import { fullYearOfTwoDigits } from '../shared/two-digit-year.js';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = [
  'january', 'february', 'march', 'april', 'may', 'june',
  'july', 'august', 'september', 'october', 'november', 'december',
];

type Part = 'day' | 'month' | 'monthName' | 'year' | 'year2' | 'ignore';

interface Directive {
  re: string;
  part: Part;
}

// Time-of-day directives are matched and ignored: the cell is a calendar day.
const DIRECTIVES: Record<string, Directive> = {
  d: { re: '(\\d{1,2})', part: 'day' },
  e: { re: '\\s?(\\d{1,2})', part: 'day' },
  m: { re: '(\\d{1,2})', part: 'month' },
  Y: { re: '(\\d{4})', part: 'year' },
  y: { re: '(\\d{2})', part: 'year2' },
  b: { re: '([A-Za-z]{3,9}\\.?)', part: 'monthName' },
  h: { re: '([A-Za-z]{3,9}\\.?)', part: 'monthName' },
  B: { re: '([A-Za-z]{3,9})', part: 'monthName' },
  a: { re: '([A-Za-z]{2,9}\\.?)', part: 'ignore' },
  A: { re: '([A-Za-z]{2,9})', part: 'ignore' },
  H: { re: '(\\d{1,2})', part: 'ignore' },
  I: { re: '(\\d{1,2})', part: 'ignore' },
  M: { re: '(\\d{2})', part: 'ignore' },
  S: { re: '(\\d{2})', part: 'ignore' },
  f: { re: '(\\d{1,6})', part: 'ignore' },
  p: { re: '([AaPp][Mm])', part: 'ignore' },
  z: { re: '([+-]\\d{2}:?\\d{2}|Z)', part: 'ignore' },
};

interface CompiledFormat {
  re: RegExp;
  parts: Part[];
}

const cache = new Map<string, CompiledFormat>();

/** Compiles a strftime pattern; throws on a directive it does not know, naming it. */
export function compileDateFormat(pattern: string): CompiledFormat {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let re = '';
  const parts: Part[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch !== '%') {
      re += /\s/.test(ch) ? '\\s+' : ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      continue;
    }
    let code = pattern[++i];
    if (code === '-' || code === '#') code = pattern[++i]; // glibc/Windows "no padding" flags
    if (code === '%') {
      re += '%';
      continue;
    }
    const d = code === undefined ? undefined : DIRECTIVES[code];
    if (!d) throw new Error(`date_format "${pattern}": unsupported directive %${code ?? ''}`);
    re += d.re;
    parts.push(d.part);
  }
  const compiled = { re: new RegExp(`^\\s*${re}\\s*$`, 'i'), parts };
  cache.set(pattern, compiled);
  return compiled;
}

/** A UTC-midnight Date for a real calendar day, or null (31/02 is null, not 3 March). */
export function calendarDate(year: number, month: number, day: number): Date | null {
  if (!Number.isInteger(year) || month < 1 || month > 12 || day < 1 || day > 31) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  d.setUTCFullYear(year); // Date.UTC maps years 0-99 to 1900-1999
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return d;
}

const ISO_DATE = /^\s*(\d{4})-(\d{2})-(\d{2})(?:[T ]00:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)?)?\s*$/;

/**
 * Parses an extracted date: ISO yyyy-mm-dd first (unambiguous), then the record's strftime pattern.
 * Returns null when neither matches or the day does not exist; the caller then keeps the text.
 */
export function parseDate(text: string, pattern?: string | null): Date | null {
  const iso = ISO_DATE.exec(text);
  if (iso) return calendarDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  if (!pattern) return null;
  let compiled: CompiledFormat;
  try {
    compiled = compileDateFormat(pattern);
  } catch {
    return null; // an unusable pattern leaves the value as text rather than failing the output
  }
  const m = compiled.re.exec(text);
  if (!m) return null;
  let year: number | undefined;
  let month: number | undefined;
  let day: number | undefined;
  compiled.parts.forEach((part, i) => {
    const v = m[i + 1]!;
    if (part === 'day') day = Number(v);
    else if (part === 'month') month = Number(v);
    else if (part === 'year') year = Number(v);
    else if (part === 'year2') year = fullYearOfTwoDigits(Number(v));
    else if (part === 'monthName') month = monthFromName(v);
  });
  if (year === undefined || month === undefined || day === undefined) return null;
  return calendarDate(year, month, day);
}

function monthFromName(name: string): number | undefined {
  const n = name.toLowerCase().replace(/\.$/, '');
  const full = MONTH_NAMES.indexOf(n);
  if (full >= 0) return full + 1;
  const abbr = MONTHS.indexOf(n);
  if (abbr >= 0) return abbr + 1;
  if (n === 'sept') return 9;
  return undefined;
}

/** yyyy-mm-dd of a calendar-day Date (UTC fields, matching parseDate). */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}
