// Numbers of table cells, read with the document's own decimal mark, and what a quantity may be.
import type { Line } from '../../layout/lines.js';
import { findAmounts, type DecimalMark } from '../parse-amount.js';
import { findDates } from '../parse-date.js';

/** An amount with two decimals ("12,50", "1.234,50", "1,234.50"); the last mark is the decimal one. Dates (31.01.2014) are not. */
const TWO_DECIMALS = /(?<![\d.,])\d{1,3}(?:([.,' \u00a0])\d{3})*([.,])\d{2}(?![\d.,])/g;

/** The decimal mark most amounts of the document show, or null when none or a tie. */
export function decimalMarkOf(lines: Line[]): DecimalMark {
  let comma = 0;
  let dot = 0;
  for (const l of lines) {
    for (const m of l.text.matchAll(TWO_DECIMALS)) {
      if (m[1] === m[2]) continue; // "1.234.56" is no amount
      if (m[2] === ',') comma++;
      else dot++;
    }
  }
  return comma > dot ? ',' : dot > comma ? '.' : null;
}

export interface CellNumber {
  value: number;
  /** Printed with decimals or a currency: money rather than a count or a code. */
  money: boolean;
  /** Digits printed, separators left out: an EAN has 13, an article number many. */
  digits: number;
}

/** The number a cell holds: its last money-looking amount, else its last number; rates (19 %) and dates are not. */
export function cellNumber(raw: string, mark: DecimalMark): CellNumber | null {
  // OCR often puts a space after the decimal mark ("53. 60").
  const text = raw.replace(/(\d[.,]) (\d{2})(?!\d)/g, '$1$2');
  const dates = findDates(text);
  const all = findAmounts(text, mark).filter((a) => !/^\s?%/.test(text.slice(a.end)) && !dates.some((d) => a.start < d.end && a.end > d.start));
  if (all.length === 0) return null;
  const money = all.filter((a) => a.decimals || a.currency);
  const a = (money.length ? money : all)[(money.length ? money : all).length - 1];
  return { value: a.value, money: a.decimals || a.currency, digits: text.slice(a.start, a.end).replace(/\D/g, '').length };
}

/**
 * A quantity is a small number: a barcode (EAN-8/13), an article number or a year printed in its place is
 * not. Printed with decimals it is a measured quantity, whatever its digits ("2.000,00 Unidades").
 */
export function plausibleQuantity(n: CellNumber): boolean {
  return Math.abs(n.value) < 100_000 && !(n.digits >= 6 && Number.isInteger(n.value) && !n.money);
}
