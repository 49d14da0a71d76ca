// Role-specific scoring of labelled candidates (grand total over subtotal, the document date over a
// due date) and the fallbacks used when a field's label is not printed at all (the sum paid, the
// first date of the document). The issuer's name and address: letterhead.ts.
import type { Line } from '../layout/lines.js';
import { readByOcr } from '../layout/lines.js';
import type { Candidate } from './label-candidates.js';
import type { FieldTerms } from './field-terms.js';
import { findDates, undoOcrMisreads, type DateMatch } from './parse-date.js';
import { plausibleDate } from './date-checks.js';
import { findAmounts } from './parse-amount.js';
import { oneConfusableDigit } from './ocr-digits.js';
import { pickAmount } from './typed-value.js';
import { DUE_WORDS, GRAND_TOTAL_WORDS, hasWord, INCLUSIVE_WORDS, KIND_SUM_WORDS, NET_PART_WORDS, TAX_WORDS, OTHER_DATE_WORDS, PARTIAL_TOTAL_WORDS, synonymsOf, TO_PAY_WORDS, tokenize } from './vocabulary.js';

/**
 * Lines that record the payment; the total is printed before them (a tax summary after them has its own
 * "Total"). The payment word starts the line, after a transaction number at most ("05477145 BARZAHLUNG 3.30
 * EUR"; five digits or more: "2 BAR SOAP 3.50" is an item and its quantity).
 */
const PAYMENT_LINE = /^\W*(?:\d{5,}\s+)?(cash|change|tendered|paid|visa|mastercard|amex|card|debit|credit card|kartenzahlung|barzahlung|bargeld|bar|espèces|cb)\b(?!\s*(?:(?:admin(?:istration)?|processing|service|handling|payment)\s+)?(?:surcharge|fee|levy|charge)\b)/i;

// Not a fee for paying by card ("CARD SURCHARGE 5% $1.84", "Card Admin Fee 10%"), which is part of the sum.
const TENDERED_LINE = /^\W*(?:\d{5,}\s+)?(cash|tendered|paid|amount paid|paid amount|bar|barzahlung|bargeld|gegeben|espèces|visa|mastercard|amex|card|debit|credit card|kartenzahlung|cb)\b(?!\s*(?:(?:admin(?:istration)?|processing|service|handling|payment)\s+)?(?:surcharge|fee|levy|charge)\b)/i;
const TAX_SUMMARY = /\b(tax|gst|vat|sst|mwst|ust|tva)\s*(summary|analysis|breakdown|details|übersicht|récapitulatif)\b/i;
// After the sum tendered, a line that starts with "Balance" is the change handed back ("Cash Recd 500.00",
// "Balance 197.00"), as tills in South Asia print it.
const CHANGE_WORD = /(?:^|[^\p{L}])(change|rückgeld|rueckgeld|zurück|rendu|monnaie)\b|^\W*bal(?:ance)?\b/iu;

const moneyOn = (text: string): number | null => {
  const a = pickAmount(text);
  return a && a.decimals ? a.value : null;
};

/**
 * The sum the customer paid, from the payment lines: tendered minus change ("CASH 100.00" …
 * "CHANGE 18.10" → 81.90), or the tendered amount alone when no change is printed. A payment mode
 * printed as a heading ("CASH" with its amount on the next line) counts too.
 */
export function paidAmount(lines: Line[]): number | null {
  for (const [i, l] of lines.entries()) {
    if (!TENDERED_LINE.test(l.text)) continue;
    let tendered = moneyOn(l.text);
    if (tendered === null && lines[i + 1] && /^\W*(?:[A-Z]{1,3}\s?)?[\d.,\s]+$/.test(lines[i + 1].text)) tendered = moneyOn(lines[i + 1].text);
    if (tendered === null || tendered <= 0) continue;
    // The change follows the payment, sometimes after its tax lines (German receipts print the VAT
    // between "Bar" and "Rückgeld"); never past another payment line.
    const after = lines.slice(i + 1, i + 11);
    const next = after.findIndex((n) => TENDERED_LINE.test(n.text));
    const change = (next < 0 ? after : after.slice(0, next)).find((n) => CHANGE_WORD.test(n.text));
    // The change's amount follows its word (OCR may put stray figures before it).
    const back = change ? moneyOn(change.text.slice((CHANGE_WORD.exec(change.text)?.index ?? 0) + 1)) : 0;
    if (back === null || back < 0 || back >= tendered) return change ? null : tendered;
    return Math.round((tendered - back) * 100) / 100;
  }
  return null;
}

const ROUNDING_LINE = /\b(rounding|round(ed)?\s*adj\w*|round(ed)?[\s-]*off|rundung|arrondi)/i;

/**
 * A total followed by a rounding adjustment and then by the rounded sum ("TOTAL 60.31",
 * "ROUNDING -0.01", "60.30"): the rounded sum is what was paid. Returns it, or null.
 */
function roundedTotal(c: Candidate, lines: Line[]): number | null {
  if (c.value.kind !== 'number') return null;
  const v = c.value.value;
  const at = lines.findIndex((l) => l.index > c.line.index && l.index <= c.line.index + 4 && ROUNDING_LINE.test(l.text));
  if (at < 0) return null;
  const r = moneyOn(lines[at].text);
  if (r === null || r === 0 || Math.abs(r) >= 1) return null;
  const rounded = Math.round((v + r) * 100) / 100;
  const shown = lines.slice(at + 1, at + 4).some((l) => findAmounts(l.text).some((a) => a.decimals && Math.abs(a.value - rounded) < 0.005));
  return shown ? rounded : null;
}

/**
 * An OCR'd total one confusable digit off the sum of the amounts right above it (a taxi's fare and its
 * surcharges, 37.29 read as 31.29; a subtotal and its tax): that sum, which the lines above spell out.
 */
function totalBySum(c: Candidate, lines: Line[]): number | null {
  if (c.value.kind !== 'number' || !readByOcr(c.line)) return null;
  const total = c.value.value.toFixed(2);
  let sum = 0;
  let n = 0;
  for (let i = lines.indexOf(c.line) - 1; i >= 0 && n < 15 && lines[i].page === c.line.page; i--) {
    const amount = findAmounts(lines[i].text).filter((a) => a.decimals).at(-1);
    if (!amount) continue;
    sum += amount.value;
    n++;
    const figure = (Math.round(sum * 100) / 100).toFixed(2);
    if (n >= 2 && oneConfusableDigit(figure, total)) return Number(figure);
  }
  return null;
}

/** An amount whose decimal point OCR lost ("1200" for 12.00) read as the paid sum it spells. */
const sameAmount = (c: Candidate, paid: number): boolean =>
  c.value.kind === 'number' && (Math.abs(c.value.value - paid) < 0.005 || (!c.value.amount.decimals && Math.abs(c.value.value / 100 - paid) < 0.005));

/** Adjusts candidate scores by role; returns them sorted best first. */
/** A tip added on a card slip: tip, gratuity, Trinkgeld, pourboire, propina, mancia, fooi. */
const TIP_LINE = /(?:^|[\s+])(?:tip|gratuity|trinkgeld|pourboire|propina|mancia|fooi)\b/i;

export function rankCandidates(cands: Candidate[], terms: FieldTerms, numLines: number, lines: Line[] = []): Candidate[] {
  // A payment line carries an amount; a bare "CASH" at the top is the sale's type, not its payment.
  const paymentAt = lines.find((l) => PAYMENT_LINE.test(l.text) && moneyOn(l.text) !== null)?.index ?? Infinity;
  const paid = terms.role === 'total' ? paidAmount(lines) : null;
  // A tax summary table ("GST Summary", "VAT analysis") repeats net and tax under its own "Total".
  const taxSummaryAt = lines.find((l) => TAX_SUMMARY.test(l.text))?.index ?? Infinity;
  const maxValue = Math.max(...cands.map((c) => (c.value.kind === 'number' ? c.value.value : -Infinity)));
  // The field's own name words, before synonyms ("total" has "due" among its synonyms).
  const asksForDue = terms.name.toLowerCase().split(/[_\s]+/).some((w) => DUE_WORDS.has(w));
  const asked = askedDateWords(terms);
  // "amount_due", "Balance still to pay": after a deposit or a payment the balance is what is asked. A
  // total "to pay, including tax" is the invoice's total: what the invoice comes to, the deposit a payment on it.
  const asksToPay = asksForDue || /\b(?:due|balance|outstanding|remaining|still|left)\b/i.test(terms.description);
  for (const c of cands) {
    const position = numLines > 1 ? c.line.index / (numLines - 1) : 0;
    if (terms.role === 'total') {
      // "Total incl. GST" is the grand total: tax words after an inclusive word do not make it partial.
      // "Inclusiva" and "Inclusve" are OCR's "Inclusive".
      const inclusive = c.labelTokens.some((t) => INCLUSIVE_WORDS.has(t) || /^(inclu|inklu)/.test(t));
      // "Net à payer" is the sum to pay: "net" there means after deductions, not before tax.
      const toPay = c.labelTokens.some((t) => TO_PAY_WORDS.has(t));
      // "Total charges (this period)" sums the charges, where "Service charges" is one of them.
      const summed = (t: string, i: number) => /^(charges|fees)$/.test(t) && c.labelTokens[i - 1] === 'total';
      const partial = c.labelTokens.filter((t, i) => !(inclusive && TAX_WORDS.has(t)) && !(toPay && !TAX_WORDS.has(t)) && !summed(t, i));
      // "Total includes GST of $9.04", "GST of 2.57": a statement of the tax the total holds, whose sum is the tax.
      const taxStated = c.labelTokens.some((t, i) => TAX_WORDS.has(t) && (c.labelTokens[i + 1] === 'of' || /^includes?$/.test(c.labelTokens[i - 1] ?? '')));
      c.partial = taxStated || hasWord(partial, PARTIAL_TOTAL_WORDS) || hasWord(partial, KIND_SUM_WORDS);
      if (c.partial) c.score -= 0.7;
      if (hasWord(c.labelTokens, GRAND_TOTAL_WORDS)) c.score += 0.3;
      // "Amount due" may differ from the grand total (prepaid, partial payments), so it loses to a plain
      // total, unless the field itself asks for the amount due ("total_due").
      if (!asksForDue && hasWord(c.labelTokens, DUE_WORDS)) c.score -= 0.3;
      if (c.value.kind === 'number' && !c.value.amount.decimals && !c.value.amount.currency) c.score -= 0.5;
      if (/%/.test(c.line.text)) c.score -= 0.3;
      c.score += 0.2 * position;
      if (c.line.index > paymentAt) c.score -= 0.6;
      if (c.line.index > taxSummaryAt) c.score -= 0.5;
      if (c.value.kind === 'number' && c.value.value === maxValue) c.score += 0.1;
      if (c.value.kind === 'number' && c.value.value <= 0) c.score -= 0.3;
      // A total right after a tip ("+ Tip: $23.00" / "= Total: $152.35") is what the card paid, tip included.
      if (lines.slice(Math.max(0, c.labelLine.index - 2), c.labelLine.index).some((l) => TIP_LINE.test(l.text) && moneyOn(l.text) !== null)) c.score += 0.3;
      // A column header ("Amount") over the first row of a table is not the total's label, nor is the
      // "TOTAL" of a two-column "ITEM  TOTAL" header over an item's row (its name left of the value).
      if (c.source === 'below' && (c.labelLine.phrases.length >= 3 || (c.labelLine.phrases.length === 2 && itemRow(c.line)))) c.score -= 0.5;
      // Under a table's header of three or more columns, an item's row is surely not the total.
      if (c.source === 'below' && c.labelLine.phrases.length >= 3 && itemRow(c.line)) c.score -= 0.5;
      // A row of sums read as one that is not its last: the column sums of a summary table ("Total
      // 2,00,888.50 18,079.97 18,079.97 36,159.94"), or the net of a "Total | net | gross" row ("Total
      // facture 24.99 29.99"). Read as its last sum such a row gives the invoice's total.
      const sums = findAmounts(c.line.text).filter((a) => a.decimals);
      const last = sums.at(-1)?.value ?? 0;
      if (c.value.kind === 'number' && Math.abs(last - c.value.value) > 0.005 && (sums.length >= 3 || (sums.length === 2 && last > c.value.value))) c.score -= 0.6;
      const rounded = roundedTotal(c, lines);
      if (rounded !== null && c.value.kind === 'number') c.value = { ...c.value, value: rounded, amount: { ...c.value.amount, value: rounded } };
      // What the payment lines say was paid confirms a total (a cash or card line is its own candidate).
      if (paid !== null && sameAmount(c, paid) && !PAYMENT_LINE.test(c.labelLine.text) && !PAYMENT_LINE.test(c.line.text)) {
        c.score += 0.4;
        if (c.value.kind === 'number' && !c.value.amount.decimals) c.value = { ...c.value, value: paid, amount: { ...c.value.amount, value: paid, decimals: true } };
      }
    } else if (terms.role === 'part') {
      // The asked part's own label ("VAT 20 %", "Net", "Base imponible"), not the total's nor the other part's.
      const inclusive = c.labelTokens.some((t) => INCLUSIVE_WORDS.has(t));
      const net = hasWord(c.labelTokens, NET_PART_WORDS);
      const toPay = c.labelTokens.some((t) => TO_PAY_WORDS.has(t));
      const own = terms.part === 'net' ? net && !toPay : !net && !inclusive && c.labelTokens.some((t) => TAX_WORDS.has(t));
      c.score += own ? 0.3 : -1.5;
      if (c.value.kind === 'number' && !c.value.amount.decimals && !c.value.amount.currency) c.score -= 0.5;
      if (c.source === 'below' && c.labelLine.phrases.length >= 3) c.score -= 0.5;
    } else if (terms.role === 'date') {
      if (c.labelTokens.some((t) => hasWord([t], OTHER_DATE_WORDS) && !asked.has(t))) c.score -= 0.8;
      // The dates of a permit or an accreditation printed at a till's foot ("Date Issued: 07/01/2019" / "Valid Until: …").
      else if (lines.some((l) => l.page === c.labelLine.page && Math.abs(l.index - c.labelLine.index) <= 2 && PERMIT_LINE.test(l.text))) c.score -= 0.8;
      // A field that asks for the due date is not answered by a label without "due".
      if (asked.size > 0 && !c.labelTokens.some((t) => asked.has(t))) c.score -= 0.8;
      // An implausible date (before 1990, far in the future) is a misread or not the document's date.
      if (c.value.kind === 'date' && !plausibleDate(c.value.date)) c.score -= 0.5;
      c.score += 0.1 * (1 - position);
    } else if (terms.role === 'identifier') {
      // "Customer No.", "Order No.", "VAT No." under an invoice_number field: another thing's number.
      // "Tax Invoice No." names the invoice: a word of the field's own name keeps the label.
      const own = new Set(terms.nameTerms.flatMap((set) => [...set]));
      const names = c.labelTokens.some((t) => own.has(t) && !NUMBER_WORDS.has(t));
      if (!names && c.labelTokens.some((t) => OTHER_NUMBER_WORDS.has(t) && !own.has(t))) c.score -= 1;
      // A number the label refers to ("Vedr. faktura nr. 20250119", "Betr. Rechnung 4711"): the invoice a credit note corrects.
      else if (REFERS_TO.has(c.labelTokens[0] ?? '')) c.score -= 1;
    } else if (terms.role === 'vendor' || terms.role === 'address') {
      if (c.value.kind === 'text' && !/\p{L}{2}/u.test(c.value.value)) c.score -= 1;
      if (c.value.kind === 'text' && c.value.value.split(/\s+/).length > 8) c.score -= 0.5;
      // "Company No: 12345-A", "Company Reg. 123": a registration label, not the name's.
      const words = [...c.labelTokens, ...(c.value.kind === 'text' ? tokenize(c.value.value).slice(0, 1) : [])];
      if (words.some((t) => NUMBER_WORDS.has(t) || t === 'reg' || t === 'registration')) c.score -= 1;
    }
  }
  if (terms.role === 'total') settleNetAndGross(cands, lines);
  // A total under a discount or coupon that takes an earlier total to it is the total (Suma 142,15 / Kupon -5,00 / RAZEM 137,15).
  if (terms.role === 'total') {
    const top = Math.max(...cands.map((c) => c.score));
    for (const c of cands.filter((x) => totalAfterDiscount(x, cands, lines))) c.score = Math.max(c.score, top + 0.05);
  }
  // A total under the rounding line, within the rounding of one over it ("TOTAL INCL. GST 94.33" /
  // "ROUNDING ADJ 0.02" / "TOTAL RM94.35"), is the rounded sum paid, whatever OCR made of the adjustment.
  if (terms.role === 'total') {
    const roundingAt = lines.find((l) => ROUNDING_LINE.test(l.text))?.index ?? Infinity;
    const top = Math.max(...cands.map((c) => c.score));
    const valueOf = (c: Candidate) => (c.value.kind === 'number' ? c.value.value : NaN);
    // Rounded: to 5 cents or more (0.05 in Malaysia or Switzerland, whole kronor in Sweden).
    const rounded = (c: Candidate) => Math.round(valueOf(c) * 100) % 5 === 0;
    const rounds = (c: Candidate) =>
      c.labelLine.index > roundingAt &&
      !c.partial &&
      rounded(c) &&
      !PAYMENT_LINE.test(c.line.text) &&
      cands.some((e) => e.labelLine.index < roundingAt && !e.partial && !rounded(e) && Math.abs(valueOf(e) - valueOf(c)) < 0.5);
    for (const c of cands.filter(rounds)) c.score = Math.max(c.score, top + 0.05);
  }
  // What is left to pay beats the total it was worked out from.
  if (terms.role === 'total' && asksToPay) {
    const top = Math.max(...cands.map((c) => c.score));
    for (const c of cands.filter((x) => isBalanceAfterDeduction(x, cands, lines, true))) c.score = Math.max(c.score + 0.6, top + 0.05);
  } else if (terms.role === 'total') {
    // ... and loses to it when the field asks for the total: a deposit or advance is a payment on the invoice.
    for (const c of cands.filter((x) => isBalanceAfterDeduction(x, cands, lines, false))) c.score -= 0.6;
  }
  cands.sort((a, b) => b.score - a.score);
  const top = cands[0]?.value;
  const summed = terms.role === 'total' && top?.kind === 'number' ? totalBySum(cands[0], lines) : null;
  if (summed !== null && top?.kind === 'number') cands[0].value = { ...top, value: summed, amount: { ...top.amount, value: summed } };
  // The best label names a part (subtotal, tax, net) and the payment lines show another sum: the
  // total's own line was not read, and what was paid is the total.
  const best = cands[0];
  if (paid !== null && best?.partial && !sameAmount(best, paid)) {
    const amount = { value: paid, start: 0, end: 0, currency: false, decimals: true };
    cands.unshift({ ...best, value: { kind: 'number', value: paid, amount }, score: best.score + 0.01, labelTokens: [], source: 'fallback', partial: false });
  }
  return cands;
}

/** A line with a name of letters before its last number: an item's row ("Masala Dosa 2 218.83"). */
const itemRow = (line: Line): boolean => /^\W*\p{L}{3}/u.test(line.text) && /\d[.,]\d{2}\W*$/.test(line.text);

/** A deposit, advance or earlier payment deducted from the total below it. */
const DEDUCTION_LINE = /^\W*less\b|\b(deposits?|advances?|prepaid|prepayments?|paid|payments?|received|credits?|applied|retainage|withheld|withholding|ritenuta|irpf|retención|retencion|anzahlung|vorauszahlung|abzgl|acompte|anticipo|aanbetaling|abschlag)\b/iu;

/**
 * A balance printed after the total and a deduction ("Total 6,922.90", "Deposit Paid -2,080.00",
 * "Balance Due 4,842.90"; "Acompte versé", "Net à payer") that is the total less the deduction: what is left to pay. A balance of 0
 * (paid in full) is not.
 */
function isBalanceAfterDeduction(c: Candidate, cands: Candidate[], lines: Line[], discounts: boolean): boolean {
  if (c.value.kind !== 'number' || c.value.value <= 0 || !(hasWord(c.labelTokens, DUE_WORDS) || c.labelTokens.some((t) => TO_PAY_WORDS.has(t)))) return false;
  const balance = c.value.value;
  return cands.some((t) => {
    if (t === c || t.value.kind !== 'number' || t.line.index >= c.line.index || t.partial || hasWord(t.labelTokens, DUE_WORDS)) return false;
    const total = t.value.value;
    return lines.slice(t.line.index + 1, c.line.index).some((l) => {
      // A discount under the sum of the items takes it to what is to pay as a deposit does.
      if (!DEDUCTION_LINE.test(l.text) && !(discounts && DISCOUNT_LINE.test(l.text))) return false;
      const deducted = findAmounts(l.text).filter((a) => a.decimals).at(-1);
      return deducted !== undefined && Math.abs(total - Math.abs(deducted.value) - balance) < 0.015;
    });
  });
}

const NUMBER_WORDS = synonymsOf('number');
/** Words of a label that name the number of something other than the document itself. */
const OTHER_NUMBER_WORDS = new Set([
  ...synonymsOf('customer'), ...synonymsOf('order'), ...synonymsOf('tax'), ...synonymsOf('phone'), 'account', 'acct', 'acc', 'a/c', 'konto', 'kto', 'compte', 'cuenta', 'conto',
  'kundennummer', 'auftragsnummer', 'bestellnummer', 'item', 'article', 'artikel', 'sku', 'iban', 'reg', 'registration', 'ein', 'abn', 'gstin',
  'pan', 'siret', 'siren', 'kvk', 'nif', 'cif', 'nip', 'tracking', 'contract', 'vertrag', 'contrato', 'contratto', 'contrat', 'kontrakt', 'member', 'membership', 'asiakasnumero', 'klantnummer',
  // A Mexican CFDI's fiscal folio (its UUID) and certificate number are not the invoice's series and folio.
  'fiscal', 'uuid', 'certificado', 'rfc',
  // A Czech or Slovak register entry ("Zapsáno u MS v Praze, oddíl C, vložka 251887").
  'vložka', 'vlozka', 'oddíl', 'oddil', 'zapsáno', 'zapsano',
  // Another paper's number the document refers to ("NFS-e correspondente nº 0000731", "related order").
  'correspondente', 'correspondiente', 'corresponding', 'related', 'referente', 'relativa', 'relativo',
  'kundenr', 'kundenummer', 'kundnr', 'kundnummer', 'klantnr', 'asiakasnro',
]);

/** Words that open a reference to another paper. */
const REFERS_TO = new Set(['vedr', 'vedrørende', 'vedrorende', 'betr', 'betreff', 'bezüglich', 'regarding', 'concerning', 'ursprungsrechnung']);

const NET_WORDS = new Set(['net', 'netto', 'nett']);
const GROSS_WORDS = new Set(['gross', 'brutto']);

/**
 * "Net" and "gross" name opposite amounts on different documents: net before tax and gross with it on
 * an invoice, gross before and net after tax and service charge on some receipts. The larger of the
 * two is the one that includes everything, so when a net amount exceeds the gross one they swap roles.
 */
function settleNetAndGross(cands: Candidate[], lines: Line[]): void {
  // A column heading over the first item ("Wartość brutto") labels an item's amount, not a total:
  // its value stands on a row of several numbers.
  const heading = (c: Candidate) => c.labelLine !== c.line && findAmounts(c.line.text).length >= 3;
  const valued = (words: Set<string>) => cands.filter((c) => c.value.kind === 'number' && !heading(c) && c.labelTokens.some((t) => words.has(t)));
  const value = (c: Candidate) => (c.value.kind === 'number' ? c.value.value : 0);
  const nets = valued(NET_WORDS);
  const grosses = valued(GROSS_WORDS);
  if (nets.length === 0 || grosses.length === 0) return;
  const maxGross = Math.max(...grosses.map(value));
  // "Gross Amt 368.35 / Less Disc 10% 36.84 / Round Off 0.49 / NET AMOUNT 332.00": the net after a
  // discount under the gross is what is paid.
  const afterDiscount = nets.filter((n) => grosses.some((g) => g.line.index < n.line.index && discountedTo(g, n, lines)));
  const biggerNets = [...nets.filter((c) => value(c) > maxGross), ...afterDiscount];
  if (biggerNets.length === 0) return;
  for (const c of biggerNets) c.score += 1;
  for (const c of grosses) c.score -= 1;
}

/** A total (not a part) that an earlier total less a discount line between them comes to. */
function totalAfterDiscount(c: Candidate, cands: Candidate[], lines: Line[]): boolean {
  if (c.value.kind !== 'number' || c.value.value <= 0 || c.partial) return false;
  const after = c.value.value;
  return cands.some((t) => {
    if (t === c || t.value.kind !== 'number' || t.partial || t.line.index >= c.line.index) return false;
    const before = t.value.value;
    return lines.slice(t.line.index + 1, c.line.index).some((l) => {
      if (!DISCOUNT_LINE.test(l.text)) return false;
      const off = findAmounts(l.text).filter((a) => a.decimals).at(-1);
      return off !== undefined && Math.abs(before - Math.abs(off.value) - after) < 0.015;
    });
  });
}

/** A discount line between the gross and the net whose amount, with a rounding of under one unit, takes the gross to the net. */
function discountedTo(gross: Candidate, net: Candidate, lines: Line[]): boolean {
  if (gross.value.kind !== 'number' || net.value.kind !== 'number') return false;
  const [g, n] = [gross.value.value, net.value.value];
  return lines.slice(gross.line.index + 1, net.line.index).some((l) => {
    if (!DISCOUNT_LINE.test(l.text)) return false;
    const off = findAmounts(l.text).filter((a) => a.decimals).at(-1);
    return off !== undefined && Math.abs(g - Math.abs(off.value) - n) < 1;
  });
}
/** A line of a permit's or accreditation's block: its number, its validity. */
const PERMIT_LINE = /\b(?:valid\s+(?:until|till|thru|through)|validity|accred(?:itation)?|permit|ptu)\b/i;
const DISCOUNT_LINE = /^\W*less\b|\b(disc\.?|discount|rabatt|rabat|remise|descuento|desconto|sconto|korting|kupon|coupon|voucher|gutschein|bon\s+de\s+réduction|sleva|alennus)\b/iu;

/**
 * The other-date words a field asks for by name ("due_date", "delivery_date") or in its description
 * ("Delivery date of the goods"): labels with them are its own, not some other date.
 */
export function askedDateWords(terms: FieldTerms): Set<string> {
  const name = tokenize(terms.name.replace(/_/g, ' '));
  const desc = tokenize(terms.description);
  // In a description, only the word right before "date" says which date it is ("Date of purchase" says none).
  const before = desc.flatMap((t, i) => (i > 0 && /^(date|datum|fecha|data)$/.test(t) ? [desc[i - 1]] : []));
  // With their synonyms: a "due_date" is answered by "Échéance" or "Vervaldatum".
  const asked = [...name, ...before].filter((t) => hasWord([t], OTHER_DATE_WORDS));
  return new Set(asked.flatMap((t) => [...synonymsOf(t)].filter((s) => hasWord([s], OTHER_DATE_WORDS))));
}

/**
 * An other-date word before a date labels it, unless a number word or sign follows it ("Order No.
 * 1000219 11/03/2018", "Check #3244 05/02/2023": the word names a number there).
 */
function labelsOtherDate(before: string[], own: Set<string> = new Set()): boolean {
  const at = before.findLastIndex((t) => hasWord([t], OTHER_DATE_WORDS));
  return at >= 0 && !own.has(before[at]) && !before.slice(at + 1).some((t) => NUMBER_WORDS.has(t) || /^#\d/.test(t));
}

/** A place, a comma and the word a letter's date line puts before the date (den, le, am, el, a, lì, dnia). */
const PLACE_AND_DATE = /^\s*\p{Lu}[\p{L}\p{M} .'’()/-]{1,40},\s*(?:(?:den|le|am|el|a|lì|li|il|dnia|d\.)\s+)?/u;

/**
 * The document's first plausible date that is not labelled as some other date. When none is printed
 * legibly, the first one on an OCR'd line once OCR's digit/letter confusions are undone (`repaired`).
 * Last, a date labelled with a word of the field's description ("Order placed October 23" for the
 * "Date of purchase" of a web shop's receipt, which prints no other date).
 */
export function dateFallback(lines: Line[], monthFirst: boolean, terms?: FieldTerms): { line: Line; match: DateMatch; repaired: boolean } | null {
  const first = (text: (l: Line) => string | null, own?: Set<string>) => {
    for (const l of lines) {
      const t = text(l);
      if (t === null) continue;
      const found = findDates(t, { monthFirst }).filter((m) => plausibleDate(m.date));
      if (found.length === 0) continue;
      if (labelsOtherDate(tokenize(t.slice(0, found[0].start)), own)) continue;
      return { line: l, match: found[0] };
    }
    return null;
  };
  // A letter's place and date ("Reutlingen, den 15.07.2025", "Paris, le 3 mars 2025") dates it, over a fax
  // header or a print stamp above it.
  if (!terms || askedDateWords(terms).size === 0) {
    for (const l of lines) {
      for (const p of l.phrases) {
        const head = PLACE_AND_DATE.exec(p.text);
        const rest = head ? p.text.slice(head[0].length).replace(/[.\s]+$/, '') : '';
        const found = head ? findDates(rest, { monthFirst }).filter((m) => m.start === 0 && m.end === rest.length && plausibleDate(m.date)) : [];
        if (found.length) return { line: l, match: { ...found[0], start: found[0].start + head![0].length + l.text.indexOf(p.text), end: found[0].end + head![0].length + l.text.indexOf(p.text) }, repaired: false };
      }
    }
  }
  const plain = first((l) => l.text);
  if (plain) return { ...plain, repaired: false };
  const fixed = first((l) => (readByOcr(l) ? undoOcrMisreads(l.text) : null));
  if (fixed) return { ...fixed, repaired: true };
  const described = new Set(terms ? tokenize(terms.description).flatMap((t) => [...synonymsOf(t)]) : []);
  const named = described.size ? first((l) => l.text, described) : null;
  return named && { ...named, repaired: false };
}
