// Lines below the items that are not items: totals, subtotals, tax, shipping, discounts, payments.
import type { Line } from '../../layout/lines.js';
import { hasWord, PARTIAL_TOTAL_WORDS, synonymsOf, TAX_WORDS, tokenize } from '../vocabulary.js';

const TOTAL_TERMS = synonymsOf('total');
/** Charges and deductions printed below the items rather than as items. */
const CHARGE_WORDS = new Set([
  'shipping', 'freight', 'postage', 'carriage', 'delivery', 'handling', 'versand', 'versandkosten', 'porto', 'fracht', 'livraison',
  'discount', 'rabatt', 'remise', 'skonto', 'nachlass', 'coupon', 'voucher', 'gutschein', 'rounding', 'rundung', 'change',
  'tendered', 'cash', 'paid', 'payment', 'zahlung', 'bezahlt', 'gegeben', 'rückgeld', 'kartenzahlung', 'netto', 'brutto', 'net', 'gross',
  // Shipping in other languages: frais de port, spese di spedizione, gastos de envío, verzendkosten.
  'frais', 'spese', 'spedizione', 'trasporto', 'gastos', 'envío', 'envio', 'portes', 'verzendkosten', 'verzending', 'bezorgkosten', 'fragt',
  // A sum carried over a page break: Übertrag, carried/brought forward, riporto, a riportare, à reporter, suma y sigue.
  'übertrag', 'carried', 'brought', 'riporto', 'riportare', 'reporter', 'sigue', 'merchandise', 'round', 'contributo',
  // Discounts in other languages, and German "zzgl." (plus) before a charge added under the items.
  'descuento', 'desconto', 'sconto', 'korting', 'rabat', 'alennus', 'zzgl', 'zuzüglich',
  'transportkosten', 'vrachtkosten', 'leveringskosten', 'frachtkosten', 'lieferkosten', 'fraktkostnad',
]);
const TRANSPORT_WORDS = new Set(['transport', 'transporte', 'trasporto', 'transportation']);
const TOTAL_COMPOUNDS = new Set(['summe', 'gesamt', 'betrag', 'total', 'steuer', 'zahlung']);

/** One letter misread by OCR ("Totai", "Tota1" after digits are cut): still the word total. */
function looksLikeTotal(t: string): boolean {
  if (t.length !== 5 || t === 'total') return false;
  let diff = 0;
  for (let i = 0; i < 5; i++) if (t[i] !== 'total'[i]) diff++;
  return diff === 1 && t.startsWith('tot');
}

/** An abbreviation spelled with full stops is its word: "I.V.A. 19%" is the IVA line. */
const undotted = (text: string): string => text.replace(/(?<!\p{L})(?:\p{L}\.){2,}/gu, (m) => m.replaceAll('.', ''));

/** A line that carries an amount and starts (first four words) with a totals, tax or charge word. */
export function isTotalsLine(line: Line): boolean {
  // A totals line carries its amount; "ohne USt." under a column header is header text.
  if (!/\d/.test(line.text)) return false;
  // A line that starts with a rate is a tax summary ("6.00% GST 4.87", "19 % MwSt").
  if (/^\d{1,2}(?:[.,]\d{1,2})?\s?%/.test(line.text)) return true;
  // OCR may glue a rate to its word ("Tax8%"), or split a word in two ("Tota l", "vi sa").
  // The label is the line's first words, or the phrase just left of its amount where a block of text
  // beside the totals shares their line ("Remit To: | Merchandise | $7,466.47").
  const amountAt = line.phrases.findLastIndex((p) => /\d/.test(p.text));
  const before = amountAt >= 1 ? tokenize(undotted(line.phrases[amountAt - 1].text)) : [];
  const label = before.slice(0, 4);
  const words = [...tokenize(undotted(line.text)).slice(0, 4), ...label].map((t) => t.replace(/(?<=\p{L})\d+$/u, ''));
  const tokens = [...words, ...words.slice(1).map((t, i) => words[i] + t)];
  // A charge word just before the amount: a footer run into the totals block's label ("… Account Carriage
  // | 15.00"). Not a tax or total word there: an item may end "(no VAT)" or "bus fare".
  const last = before.slice(4).slice(-2);
  // Transport as the totals block's own label, beside another block ("Bank details … | Transport to Kerugoya | KES 12,000.00"):
  // an item row may start with the word too ("TR-BAQ Transporte terrestre … 9 viaje 2.150.000,00 19.350.000,00").
  const transport = amountAt >= 2 && TRANSPORT_WORDS.has(before[0] ?? '');
  return (
    transport ||
    last.some((t) => CHARGE_WORDS.has(t)) ||
    tokens.some((t) => TOTAL_TERMS.has(t) || PARTIAL_TOTAL_WORDS.has(t) || TAX_WORDS.has(t) || CHARGE_WORDS.has(t) || /^(sub)?total/.test(t) || looksLikeTotal(t)) ||
    hasWord(tokens, TOTAL_COMPOUNDS) ||
    hasWord(tokens, TAX_WORDS)
  );
}
