// Reads a value of a field's type out of the text next to (or below) its label.
import type { FieldTerms } from './field-terms.js';
import { findAmounts, type AmountMatch } from './parse-amount.js';
import { findDates, monthYearSpans, undoOcrMisreads, type CalendarDate, type DateMatch } from './parse-date.js';
import { synonymsOf } from './vocabulary.js';

/** A date value says whether d/m vs m/d was a guess, and whether OCR letters had to be read as digits. */
export type TypedValue = { kind: 'date'; date: CalendarDate; ambiguous: boolean; repaired: boolean } | { kind: 'number'; value: number; amount: AmountMatch } | { kind: 'text'; value: string };

const LEADING_PUNCT = /^[\s:#.\-–—=|/]+/;
const TRAILING_PUNCT = /[\s:|,;]+$/;

/** A value of two digit groups, the second of two digits ("RM 47 80"): OCR lost the decimal point. */
const LOST_DECIMAL_POINT = /^(?:[A-Z]{1,3}\s?)?\d{1,6} \d{2}$/;

export interface ValueContext {
  monthFirst: boolean;
}

/** The amount a number field should take from a text: the last one that looks like money, else the last. */
export function pickAmount(raw: string): AmountMatch | null {
  // OCR often puts a space after the decimal mark ("RM53. 60").
  const text = raw.replace(/(\d[.,]) (\d{2})(?!\d)/g, '$1$2');
  // A rate ("GST @ 6%") is not an amount.
  const all = findAmounts(text).filter((a) => !isPartOfDate(text, a) && !/^\s?%/.test(text.slice(a.end)));
  if (all.length === 0) return null;
  const money = all.filter((a) => a.decimals || a.currency);
  return (money.length ? money : all)[(money.length ? money : all).length - 1];
}

function isPartOfDate(text: string, a: AmountMatch): boolean {
  return [...findDates(text), ...monthYearSpans(text)].some((d) => a.start < d.end && a.end > d.start);
}

/** A token that is a date and nothing else ("2019-11-15", "15.11.2019:"), unlike "RE-20201121/508". */
const isDateToken = (x: string): boolean => findDates(x).some((d) => !/[\p{L}\p{N}]/u.test(x.slice(0, d.start) + x.slice(d.end)));

/**
 * A series code printed before a document number ("FT 2024/311", "RE 2024-0042"): 1-4 capitals that
 * are no label word ("No", "Nr", "Ref", "Inv").
 */
const isSeriesCode = (x: string): boolean => /^\p{Lu}{1,4}$/u.test(x) && !synonymsOf('number').has(x.toLowerCase()) && !synonymsOf('invoice').has(x.toLowerCase());

/** Text cleaned of label punctuation; for identifiers, the first token that holds a digit, with its series code. */
/** An amount as money is printed: cents, and the thousands grouped ("3.608,22", "1,066.07", "12.50"). */
const MONEY = /^[-+]?(?:[$€£¥₹]|[A-Z]{3}\s?)?\d{1,3}(?:[.,' ]\d{3})*[.,]\d{2}$/;

export function cleanText(text: string, terms: FieldTerms): string | null {
  const t = text.replace(LEADING_PUNCT, '').replace(TRAILING_PUNCT, '').trim();
  if (t === '') return null;
  if (terms.role === 'identifier') {
    // A date is no document number, though it holds digits ("15 april 2024" under "Factuurdatum").
    const date = findDates(t)[0];
    // ... nor is a date with its time ("2025-04-09T11:32:07", "09.04.2025 11:32").
    if (date && date.start <= 1 && (date.end >= t.length - 1 || /^\s*T?\d{1,2}:\d{2}(?::\d{2})?\s*$/.test(t.slice(date.end)))) return null;
    const tokens = t.split(/\s+/);
    // A code in brackets qualifies what precedes it ("FATTURA (TD01)", the Italian document type): no number.
    const at = tokens.findIndex((x) => /\d/.test(x) && !isDateToken(x) && !/^\(.*\)$/.test(x));
    // Document numbers carry digits; a word without any is a neighbouring label, not the number.
    if (at < 0) return null;
    const number = tokens[at].replace(LEADING_PUNCT, '').replace(TRAILING_PUNCT, '');
    // A sum of money is no document number ("TOTAL FACTURA 3.608,22").
    if (!number || MONEY.test(number)) return null;
    // A long number printed in groups of digits ("1002 3887 7412", "3318 4471 09"), as utilities print account and bill numbers.
    const groups = [number];
    while (/^\d{2,5}$/.test(number) && /^\d{2,4}$/.test(tokens[at + groups.length] ?? '')) groups.push(tokens[at + groups.length]);
    if (groups.length > 1 && groups.join('').length >= 8) return groups.join(' ');
    // The series before the number: "FT 2024/157", also a lettered one ("FT A/2024/233", "FT A2024/7969", as Portugal prints them).
    return at > 0 && isSeriesCode(tokens[at - 1]) && /^(?:\d|\p{Lu}{1,3}[/-]?\d)/u.test(number) ? `${tokens[at - 1]} ${number}` : number;
  }
  return t;
}

const firstDate = (text: string, ctx: ValueContext): DateMatch | undefined =>
  findDates(text, { monthFirst: ctx.monthFirst })[0] ?? findDates(text, { monthFirst: ctx.monthFirst, loose: true })[0];

export function typedValue(text: string, terms: FieldTerms, ctx: ValueContext): TypedValue | null {
  if (terms.type === 'date') {
    // Next to a date label, a date whose separators OCR lost, or with letters for digits, still counts.
    const d = firstDate(text, ctx);
    if (d) return { kind: 'date', date: d.date, ambiguous: d.ambiguous, repaired: false };
    const fixed = undoOcrMisreads(text);
    const r = fixed === text ? undefined : firstDate(fixed, ctx);
    return r ? { kind: 'date', date: r.date, ambiguous: r.ambiguous, repaired: true } : null;
  }
  if (terms.type === 'number') {
    const a = pickAmount(LOST_DECIMAL_POINT.test(text.trim()) ? text.trim().replace(/ (\d{2})$/, '.$1') : text);
    return a ? { kind: 'number', value: a.value, amount: a } : null;
  }
  const v = cleanText(text, terms);
  return v ? { kind: 'text', value: v } : null;
}
