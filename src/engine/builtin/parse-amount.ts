// Printed amounts -> numbers: thousands separators (1,234.50 / 1.234,50 / 1 234,50 / 1'234.50),
// currency signs and codes before or after, negative forms (-12.00, (12.00), 12.00-, 12.00 CR).

export interface AmountMatch {
  value: number;
  start: number;
  end: number;
  /** The number had a currency sign or code next to it. */
  currency: boolean;
  /** The number had a decimal part (12.50 rather than 12). */
  decimals: boolean;
}

// Rand (R508.08), rupiah, złoty (also read "zl" or "z"), koruna, forint and the Nordic kronor besides; the
// pound as OCR often reads its sign, "f102.65", and the naira as "N2,789,087.50" (only before an amount with
// cents); the lev's "лв." after the amount.
const CURRENCY = String.raw`(?:[$€£¥₹₱฿₦₪₺₴]|RM|USD|EUR|GBP|CHF|INR|MYR|CAD|AUD|SGD|JPY|MXN|ZAR|PLN|CZK|IDR|THB|PHP|SEK|NOK|DKK|HUF|NGN|KES|KSh|AED|SAR|EGP|TRY|RON|BGN|UAH|ILS|лв\.?|N(?=\d{1,3}(?:,\d{3})*\.\d{2}(?!\d))|Rs\s?\.?|Rp\.?|R(?=\s?\d)|P(?=\d{1,3}(?:,\d{3})*\.\d{2}(?!\d))|f(?=\d{1,3}(?:,\d{3})*\.\d{2}(?!\d))|zł|zl|z(?![\p{L}])|Kč|Kc|Ft|kr)`;
// A number: digits with optional grouping (Indian lakh grouping too: 1,28,041.00), then an optional
// 1-4 digit decimal part.
const NUMBER = String.raw`\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?|\d{1,3}(?:[,. '\u00a0\u202f]\d{3})+(?:[.,]\d{1,4})?|\d+(?:[.,]\d{1,4})?`;
const AMOUNT_RE = new RegExp(
  // Not digits after a masked card number (****4204); a tax class may follow glued (130,54A).
  String.raw`(?<![\w.,*#])(\()?\s?(-|−)?\s?(${CURRENCY})?\s?(-|−)?\s?(${NUMBER})(?=${CURRENCY}|(?![0-9_a-z]|[A-Z]\w|[.,]\d))\s?(${CURRENCY})?(?![A-Za-z]{2}|[a-z])(\))?(-|\s?CR\b)?`,
  'gu',
);

/** The decimal mark a document uses throughout ("1.234,56" vs "1,234.56"); null when it does not show. */
export type DecimalMark = ',' | '.' | null;

/**
 * Interprets one number string with its own separators. A lone mark before exactly three digits is
 * ambiguous (1,234 / 2,500 kg): with the document's decimal mark known it is read as that mark says.
 */
export function parseNumber(raw: string, decimalMark: DecimalMark = null): { value: number; decimals: boolean } | null {
  const s = raw.replace(/[\s'\u00a0\u202f]/g, '');
  if (!/^\d[\d.,]*$/.test(s)) return null;
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  const sepAt = Math.max(lastDot, lastComma);
  let intPart = s;
  let frac = '';
  if (sepAt >= 0) {
    const sep = s[sepAt];
    const after = s.slice(sepAt + 1);
    const bothKinds = lastDot >= 0 && lastComma >= 0;
    const repeated = s.split(sep).length - 1 > 1;
    // With both kinds the last one is the decimal mark; a repeated mark groups thousands; a lone mark
    // followed by exactly three digits groups thousands too (1,234 / 1.234), unless it follows a 0.
    const loneThree = after.length === 3 && !/^0+$/.test(s.slice(0, sepAt));
    const isDecimal = bothKinds || (!repeated && (!loneThree || decimalMark === sep));
    if (isDecimal) {
      intPart = s.slice(0, sepAt);
      frac = after;
    }
  }
  intPart = intPart.replace(/[.,]/g, '');
  if (intPart === '') intPart = '0';
  const value = Number(`${intPart}${frac ? `.${frac}` : ''}`);
  return Number.isFinite(value) ? { value, decimals: frac.length > 0 } : null;
}

/**
 * A bracket alone between a number and two digits ("9)53", "1(73") is a decimal comma OCR misread (a
 * scanner's text layer gave a receipt's "BRUTTO 9,53" as "9)53", read as 53). Same length, so match
 * positions hold.
 */
const BRACKET_DECIMAL = /(?<![\w(),.])(\d{1,3})[()](\d{2})(?![\w(),.])/g;

/**
 * A star alone before an amount with decimals: Turkish fiscal receipts print every amount so ("TOPLAM
 * *570,00"). Not a masked card's stars (****4204) nor a star before a bare number (*4204). Replaced by a
 * space, so match positions hold.
 */
const STARRED_AMOUNT = /(?<!\S)\*(?=\d{1,3}(?:[.,]\d{3})*[.,]\d{2}(?![\d.,]))/g;

export function findAmounts(text: string, decimalMark: DecimalMark = null): AmountMatch[] {
  const out: AmountMatch[] = [];
  text = text.replace(BRACKET_DECIMAL, '$1,$2').replace(STARRED_AMOUNT, ' ');
  AMOUNT_RE.lastIndex = 0;
  for (let m = AMOUNT_RE.exec(text); m; m = AMOUNT_RE.exec(text)) {
    const parsed = parseNumber(m[5], decimalMark);
    if (!parsed) continue;
    // A dash after a yen amount closes it, as Japanese bills print "¥1,157,432-" against tampering: not a minus.
    const closingDash = m[8] === '-' && (m[3] === '¥' || m[3] === 'JPY');
    const negative = Boolean(m[2] || m[4] || (m[1] && m[7]) || (m[8] && !closingDash));
    out.push({
      value: negative ? -parsed.value : parsed.value,
      start: m.index,
      end: m.index + m[0].length,
      currency: Boolean(m[3] || m[6]),
      decimals: parsed.decimals,
    });
  }
  return out;
}

/** The amount of a short value string ("$1,234.50", "1.234,50 EUR"), or null. */
export function parseAmount(text: string): number | null {
  const all = findAmounts(text);
  return all.length ? all[all.length - 1].value : null;
}
