// Chooses a label for a document from its text and the labels' words.
//
// Each label's query = its label and description words, plus the general cue words of any document
// type it names (an "invoice" label also looks for "due date", "bill to", ...). Its evidence is a
// BM25-like sum over query terms of saturated term counts, weighted down for terms that many labels
// share. Scores become probabilities by a softmax over the labels plus an implicit "none" option with
// a fixed evidence level: a document that matches no label well gives most mass to "none". That mass
// then goes to a catch-all label ("other") when there is one, else is spread evenly over all labels,
// so an unrelated document ends near uniform, never near 1 for any label.
import type { ClassifyInput, ClassifyOutput } from '../types.js';
import { documentLines, pageTextOf } from '../layout/lines.js';
import { BILLING_KINDS, DOCUMENT_TITLES, documentKinds } from './document-title.js';
import { findAmounts } from './parse-amount.js';
import { CATCH_ALL_WORDS, DOCUMENT_TYPE_CUES, DOCUMENT_TYPE_PATTERNS, foldTokens, STOPWORDS, tokenize } from './vocabulary.js';

/** Evidence a label must beat to draw mass away from "none". */
const NONE_EVIDENCE = 1.8;
/** Softmax temperature: evidence units per factor e of odds. */
const TEMPERATURE = 1.0;
const GENERIC_WORDS = new Set(['date', 'number', 'no', 'total', 'tax', 'amount', 'payment', 'name', 'address', 'document', 'page', 'price', 'paid', 'card', 'items', 'item', 'order', 'customer']);
/** Weight of a document type's cue words (its own label and description words weigh 1, the type's name 1.5). */
const CUE_WEIGHT = 0.6;
/** Only a label's strongest matching terms count, so a long cue list does not win by volume. */
const TOP_TERMS = 8;
/**
 * A title naming another kind of paper ("PURCHASE ORDER", "Lieferschein"): evidence added to a label that
 * names that kind, and the share of their evidence left to the invoice and receipt labels, whose words
 * such papers share (order numbers, quantities, VAT, totals).
 */
const TITLE_EVIDENCE = 3;
const OTHER_TITLE_SHARE = 0.25;

interface Query {
  label: string;
  /** Kinds of document the label names (invoice, purchase order, letter ...). */
  kinds: Set<string>;
  /** phrase (one or more words) -> weight */
  terms: Map<string, number>;
  catchAll: boolean;
}

const fold = (phrase: string): string => foldTokens(phrase).join(' ');

function buildQuery(label: string, description: string): Query {
  const words = foldTokens(`${label} ${description}`).filter((w) => !STOPWORDS.has(w) && w.length > 1);
  const terms = new Map<string, number>();
  // Words every business document prints (date, number, total, ...) say little about its kind.
  for (const w of words) terms.set(w, Math.max(terms.get(w) ?? 0, GENERIC_WORDS.has(w) ? 0.3 : 1));
  const own = ` ${tokenize(`${label} ${description}`).join(' ')} `;
  const folded = ` ${foldTokens(`${label.replace(/_/g, ' ')} ${description}`).join(' ')} `;
  const names = (phrase: string) => folded.includes(` ${phrase} `) || folded.includes(` ${phrase}s `);
  const kinds = new Set(Object.entries(DOCUMENT_TITLES).flatMap(([kind, titles]) => ([kind, ...titles].some(names) ? [kind] : [])));
  for (const [type, cues] of Object.entries(DOCUMENT_TYPE_CUES)) {
    if (!own.includes(` ${type} `) && !own.includes(` ${type}s `)) continue;
    kinds.add(type);
    // OCR reads umlauts without their dots ("Saule" for Säule): the cue in both spellings.
    for (const c of cues) for (const f of new Set([fold(c), fold(c.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''))])) terms.set(f, Math.max(terms.get(f) ?? 0, CUE_WEIGHT));
    for (const p of Object.keys(DOCUMENT_TYPE_PATTERNS[type] ?? {})) terms.set(`@${p}`, CUE_WEIGHT);
    terms.set(type, 1.5);
  }
  const catchAll = tokenize(label).some((w) => CATCH_ALL_WORDS.has(w));
  return { label, kinds, terms, catchAll };
}

/** Words of a bill that asks for payment by a date. */
const BILL_DUE = /\b(?:amount due|balance due|total due|due date|payment due|please pay|pay by|zahlbar bis|à payer avant|te betalen voor)\b/i;
/**
 * A statement of account lists the invoices it sums, or ages its balance (current, 1-30 days, 31-60 days):
 * though it asks for the balance by a date, it is no bill itself.
 */
const AGED_BALANCE = /\b(?:1\s?-\s?30|31\s?-\s?60|61\s?-\s?90)\s+days\b/i;
const INVOICE_REFERENCE = /\b(?:invoice|inv|rechnung|facture|factura|fattura|factuur)\b\W*(?:no\.?|nr\.?|#)?\s*[\w/-]*\d/i;
const listsInvoices = (raw: string): boolean => AGED_BALANCE.test(raw) || raw.split('\n').filter((l) => INVOICE_REFERENCE.test(l)).length >= 3;
/** A page that says it is no invoice ("This is not a tax invoice", "Keine Rechnung"): its words are not the invoice's cue. */
const NOT_AN_INVOICE = /\b(?:(?:this is )?not an? (?:tax |vat )?invoice|keine rechnung|pas une facture|no es una factura|non è una fattura|geen factuur)\b/gi;
/**
 * A sum of money: an amount with two decimals, one with a currency sign or code before or after it, or a
 * figure on a line that sums a sale ("ÖSSZESEN 2 165"). Invoices and receipts all state one; an entry
 * ticket, a points statement, an agenda or a table of counts does not.
 */
const TWO_DECIMALS = /(?<![\d.,])\d+(?:[,.' \u00a0]\d{3})*[.,]\d{2}(?![\d.,])/;
const SUM_WORDS = new Set(['total', 'totaal', 'summe', 'gesamt', 'gesamtbetrag', 'montant', 'importe', 'jumlah', 'osszesen', 'oesszesen', 'yhteensa', 'yhteensae', 'kokku', 'kopa', 'viso', 'samtals', 'razem', 'suma', 'celkem', 'ukupno', 'toplam', 'tong', '合計', '合计', '총액']);
const sumsASale = (line: string): boolean => /\d\D?\d/.test(line) && foldTokens(line).some((t) => SUM_WORDS.has(t));
const statesMoney = (raw: string): boolean => TWO_DECIMALS.test(raw) || findAmounts(raw).some((a) => a.currency) || raw.split('\n').some(sumsASale);

/**
 * Change handed back over the counter ("CHANGE 408.00", "PARA ÜSTÜ *63,70", "Rückgeld 3,85"): a sale paid
 * in cash at a till. No bill that asks for payment prints it, whatever the till calls its slip ("SALES INVOICE").
 */
const CHANGE_GIVEN =
  /^\W*(?:change(?:\s+due)?|cambio|vuelto|troco|rückgeld|rueckgeld|rendu|monnaie\s+rendue|wisselgeld|kembali(?:an)?|resto|reszta|vráceno|vraceno|vračilo|vracilo|povrat|byttepenge|växel|vaxel|veksel|takaisin|vaihtoraha|para\s+üstü|tagasi|grąža|graza|visszajáró|visszajaro)\b\W{0,3}(?:[A-Z]{0,3}\W{0,2})?\d+[.,]\d{2}\b/imu;
/** Evidence for the receipt label from change given or a receipt's title. */
const CHANGE_EVIDENCE = 1.5;

const PATTERNS: Record<string, RegExp> = Object.assign({}, ...Object.values(DOCUMENT_TYPE_PATTERNS));

/**
 * Occurrences of a term: a phrase word for word, a long single word also inside compounds
 * (Handelsrechnung) and with a plural -s, or a printed pattern ("@time of day") in the raw text.
 */
function countTerm(text: string, tokens: string[], term: string, raw = ''): number {
  if (term.startsWith('@')) return raw.match(PATTERNS[term.slice(1)])?.length ?? 0;
  if (term.includes(' ')) {
    let n = 0;
    for (let i = text.indexOf(` ${term} `); i >= 0; i = text.indexOf(` ${term} `, i + 1)) n++;
    return n;
  }
  if (term.length < 6) return tokens.filter((t) => t === term).length;
  return tokens.filter((t) => t === term || t === `${term}s` || `${t}s` === term || (t.length > term.length + 2 && (t.startsWith(term) || t.endsWith(term)))).length;
}

export function classifyPages(input: ClassifyInput): ClassifyOutput {
  const raw = input.pages
    .map((p) => pageTextOf(p))
    .join('\n')
    .replace(NOT_AN_INVOICE, ' ')
    // An abbreviation spelled with full stops is its word: "I.V.A." is IVA, "R.U.T." RUT.
    .replace(/(?<!\p{L})(?:\p{L}\.){2,}/gu, (m) => m.replaceAll('.', ''));
  const tokens = foldTokens(raw);
  const text = ` ${tokens.join(' ')} `;
  const queries = input.classes.map((c) => buildQuery(c.label, c.description ?? ''));
  // Terms that several labels share tell them apart less.
  const share = new Map<string, number>();
  for (const q of queries) for (const t of q.terms.keys()) share.set(t, (share.get(t) ?? 0) + 1);
  // A word inside a cue phrase counts for that phrase only: "invoice" in another label's "tax invoice" (a
  // receipt heading in some countries), "ust" in its own label's "ust idnr" (one print, one count).
  const phrases = [...new Set(queries.flatMap((q) => [...q.terms.keys()].filter((t) => t.includes(' '))))];
  const evidence = queries.map((q, qi) => {
    const parts: number[] = [];
    for (const [term, weight] of q.terms) {
      let tf = countTerm(text, tokens, term, raw);
      if (!term.includes(' ') && tf > 0) {
        // The label's own words ("invoice" of an invoice label) still count inside its cue phrases.
        for (const p of phrases) if (p.split(' ').includes(term) && !(q.terms.has(p) && weight > CUE_WEIGHT)) tf -= countTerm(text, tokens, p);
      }
      if (tf <= 0) continue;
      const idf = Math.log(1 + queries.length / (share.get(term) ?? 1));
      parts.push(weight * idf * ((tf * 2.2) / (tf + 1.2)));
    }
    return parts
      .sort((a, b) => b - a)
      .slice(0, TOP_TERMS)
      .reduce((a, b) => a + b, 0);
  });
  const titled = documentKinds(documentLines(input.pages.slice(0, 1), { detectLayout: true }));
  // A statement that asks to be paid by a date (a utility's or a supplier's) is a bill, not a bank's statement.
  if (titled.has('statement') && BILL_DUE.test(raw) && !listsInvoices(raw)) titled.delete('statement');
  // Without a sum of money a paper is neither an invoice nor a receipt, whatever it calls itself ("ENTRY TICKET").
  const billing = queries.map((q) => [...q.kinds].some((k) => BILLING_KINDS.has(k)));
  if (!statesMoney(raw)) evidence.forEach((e, i) => (evidence[i] = billing[i] ? e * OTHER_TITLE_SHARE : e));
  if (titled.size > 0 && ![...titled].some((k) => BILLING_KINDS.has(k))) {
    // The labels that name the titled kind gain; when none does, the catch-all ("other") is its label.
    const naming = queries.map((q) => [...titled].some((k) => q.kinds.has(k)));
    const gains = naming.some(Boolean) ? naming : queries.map((q) => q.catchAll);
    evidence.forEach((e, i) => {
      if (gains[i]) evidence[i] = e + TITLE_EVIDENCE;
      else if (billing[i]) evidence[i] = e * OTHER_TITLE_SHARE;
    });
  }
  if (CHANGE_GIVEN.test(raw)) queries.forEach((q, i) => q.kinds.has('receipt') && (evidence[i] += CHANGE_EVIDENCE));
  // A paper titled a receipt ("QUITTUNG", "Kassenbon") says what it is; tills titled "Rechnung" or "TAX INVOICE"
  // make an invoice's title no such evidence.
  if (titled.has('receipt') && !titled.has('invoice') && statesMoney(raw)) queries.forEach((q, i) => q.kinds.has('receipt') && (evidence[i] += CHANGE_EVIDENCE));
  const logits = [...evidence, NONE_EVIDENCE].map((e) => e / TEMPERATURE);
  const max = Math.max(...logits);
  const exps = logits.map((l) => Math.exp(l - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  const probs = exps.map((e) => e / sum);
  const none = probs.pop() as number;
  const catchAll = queries.map((q, i) => (q.catchAll ? i : -1)).filter((i) => i >= 0);
  const receivers = catchAll.length ? catchAll : queries.map((_, i) => i);
  for (const i of receivers) probs[i] += none / receivers.length;
  const scores: Record<string, number> = {};
  queries.forEach((q, i) => (scores[q.label] = Math.round(probs[i] * 1e6) / 1e6));
  let best = 0;
  probs.forEach((p, i) => (p > probs[best] ? (best = i) : undefined));
  return { label: queries[best]?.label ?? '', scores };
}
