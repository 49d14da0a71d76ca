// Finds printed labels of a field and the values next to them: on the same line after the label
// ("Invoice No: 123"), in the next phrase to the right across a column gap, or on the line below the
// label ("Date" over "15.11.2019"). Each candidate carries a score; see docs/engine.md for the rules.
import { readByOcr, type Line, type Phrase } from '../layout/lines.js';
import { undoOcrMisreads } from './parse-date.js';
import type { Word } from '../types.js';
import { labelScore, type FieldTerms } from './field-terms.js';
import { withSplitForm } from './issuer/legal-forms.js';
import { typedValue, type TypedValue, type ValueContext } from './typed-value.js';
import { synonymsOf, tokenize } from './vocabulary.js';

export interface Candidate {
  value: TypedValue;
  score: number;
  line: Line;
  /** Tokens of the label and what precedes it in its phrase (for role rules: "due date", "subtotal"). */
  labelTokens: string[];
  /** The line the label is on. */
  labelLine: Line;
  /** Where the value sat relative to its label. */
  source: 'inline' | 'right' | 'below' | 'fallback';
  /** Set by the total's role rules: the label names a part of the total (subtotal, tax, cash, ...). */
  partial?: boolean;
}

const SOURCE_BONUS = { inline: 0.2, right: 0.15, below: 0.1, fallback: 0 } as const;
/** A UK postcode, or an Australian state with its postcode. */
const POSTCODE_TEXT = /\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b|\b(?:NSW|VIC|QLD|TAS|ACT)\s+\d{4}\b/;
const MAX_LABEL_WORDS = 5;
const NUMBER_WORDS = synonymsOf('number');
/** A sum of money with cents, not part of a date ("473,01", "1.192,98"). */
const PRICE = /(?<![\d.,/])\d{1,3}(?:[.,\s]\d{3})*[.,]\d{2}(?![\d.,/])/;

const wordsText = (ws: Word[]): string => ws.map((w) => w.text).join(' ');
/** A label word with its value glued to it: "n°562044387", "No.123", "#A-77", "Factuurnr.2024-100453". */
const GLUED_VALUE = /^(?:\p{L}*(?:n°|nº|no\.|nr\.)|#)[:.]?(\S*\d\S*)$/iu;

/** A word that ends a label: "Invoice No:", "Total:", "Nr." */
const endsLabel = (w: Word | undefined): boolean => Boolean(w && /[:#]$/.test(w.text));

/** Best label span that starts in this phrase: [start, end] word indexes and its score. */
function bestLabelSpan(phrase: Phrase, terms: FieldTerms): { start: number; end: number; score: number } | null {
  const wordTokens = phrase.words.map((w) => tokenize(w.text));
  let best: { start: number; end: number; score: number } | null = null;
  for (let s = 0; s < phrase.words.length; s++) {
    if (wordTokens[s].length === 0) continue;
    // Labels start a phrase or follow punctuation; a label word inside running text is just a word.
    if (s > 0 && !/[:;,.|)=+]$/.test(phrase.words[s - 1].text)) continue;
    const tokens: string[] = [];
    for (let e = s; e < Math.min(phrase.words.length, s + MAX_LABEL_WORDS); e++) {
      // A number's label does not run over a number ("FACTURA A-3391 · Folio fiscal 6F2A…"): that is its value,
      // unless the label's own number sign is glued to it ("Facture n°562044387").
      if (terms.role === 'identifier' && e > s && /\d/.test(phrase.words[e].text) && !GLUED_VALUE.test(phrase.words[e].text)) break;
      tokens.push(...wordTokens[e]);
      const { score, matched } = labelScore(tokens, terms);
      // Words in the label that match no term dilute it ("Customer Order No" vs "Order No").
      const unmatched = tokens.filter((t, i) => !matched.includes(i) && labelScore([t], terms).score === 0).length;
      const adjusted = score - 0.08 * unmatched - 0.05 * s;
      if (score >= 0.5 && (!best || adjusted > best.score)) best = { start: s, end: e, score: adjusted };
      // A label ends at its colon.
      if (endsLabel(phrase.words[e])) break;
    }
  }
  return best;
}

function valueRightOf(lines: Line[], line: Line, x: number): Phrase[] {
  const cy = (line.y0 + line.y1) / 2;
  const out: Phrase[] = [];
  for (const l of lines) {
    if (l.page !== line.page) continue;
    const lcy = (l.y0 + l.y1) / 2;
    if (Math.abs(lcy - cy) > 0.6 * Math.max(line.height, l.height)) continue;
    for (const p of l.phrases) if (p.x0 >= x - 1) out.push(p);
  }
  return out.sort((a, b) => a.x0 - b.x0);
}

function valueBelow(lines: Line[], line: Line, x0: number, x1: number): Phrase[] {
  const out: Phrase[] = [];
  // The phrase under the label is placed by its own box: a big title beside it makes its line start higher.
  const below = lines
    .filter((l) => l.page === line.page && l !== line)
    .map((l) => {
      const p = l.phrases.find((ph) => ph.x0 < x1 + line.height && ph.x1 > x0 - line.height);
      return { l, p, y0: p ? Math.min(...p.words.map((w) => w.y0)) : l.y0, y1: p ? Math.max(...p.words.map((w) => w.y1)) : l.y1 };
    })
    // Below: starting at the label's foot, or centred under it where tight boxes overlap (6 pt labels in a grid).
    .filter((b) => (b.y0 >= line.y1 - 0.2 * line.height || (b.y0 + b.y1) / 2 > line.y1) && b.y0 > line.y0 && b.y0 - line.y1 < 3 * line.height)
    .sort((a, b) => a.y0 - b.y0)
    .slice(0, 3);
  for (const { l, p } of below) {
    // A line that holds its own "label: value" is not the value of the label above it (a time's colon is no label's).
    if (p && !/(?:^|[^\d\s])\s*:\s*\S/u.test(l.text) && !/:$/.test(p.text)) out.push(p);
  }
  return out;
}

/** The one phrase right of a label on the line under it, nothing under the label itself: a value set to its box's right edge. */
function valueBelowRight(lines: Line[], line: Line, x0: number, x1: number): { p: Phrase; at: Line } | null {
  const at = lines.find((l) => l.page === line.page && l.y0 >= line.y1 - 0.2 * line.height && l.index > line.index);
  if (!at || at.y0 - line.y1 > 1.5 * line.height) return null;
  if (at.phrases.some((p) => p.x0 < x1 + line.height && p.x1 > x0 - line.height)) return null;
  const right = at.phrases.filter((p) => p.x0 > x1);
  return right.length === 1 ? { p: right[0], at } : null;
}

/** Tokens of the words of `text` before its value `value` (an identifier taken from inside a phrase). */
function leadingWords(text: string, value: string): string[] {
  const at = text.indexOf(value);
  return at > 0 ? tokenize(text.slice(0, at)).filter((t) => !/\d/.test(t)) : [];
}

/** A number's label in the phrase just left of it on its line ("Klantnummer | C3907", "Order No: | 4411"). */
const NUMBER_LABEL = /(?:nummer|number|numero|número|numéro|no\.?|nr\.?|n°|nº|#|id)\s*:?$/iu;
function labelLeftOf(line: Line, text: string): string[] {
  const i = line.phrases.findIndex((p) => p.text === text);
  const left = i > 0 ? line.phrases[i - 1].text : '';
  return !/\d/.test(left) && (NUMBER_LABEL.test(left) || /:$/.test(left)) ? tokenize(left) : [];
}

/** Every labelled candidate for the field in the document. */
/**
 * Eight digits that read as a date without separators ("č. 20240518"): right after a label that ends in a
 * number sign, the document's number (numbered by day and sequence, as Czech and Slovak invoices often are).
 */
function compactNumber(text: string, terms: FieldTerms, lastLabelWord: string): TypedValue | null {
  const digits = /^\s*(\d{8})(?![\d./-])/.exec(text)?.[1];
  const sign = tokenize(lastLabelWord).at(-1);
  return terms.role === 'identifier' && digits && sign !== undefined && NUMBER_WORDS.has(sign) ? { kind: 'text', value: digits } : null;
}

/** Words of two letters or more after the value in its phrase. */
const trailingWords = (text: string, value: string): number =>
  text.includes(value) ? text.slice(text.indexOf(value) + value.length).split(/\s+/).filter((w) => /\p{L}{2}/u.test(w)).length : 0;

export function labelCandidates(lines: Line[], terms: FieldTerms, ctx: ValueContext): Candidate[] {
  const out: Candidate[] = [];
  for (const line of lines) {
    for (const phrase of line.phrases) {
      const span = bestLabelSpan(phrase, terms);
      if (!span) continue;
      const colon = endsLabel(phrase.words[span.end]) || /^[:#]/.test(phrase.words[span.end + 1]?.text ?? '');
      const wholePhrase = span.end === phrase.words.length - 1;
      const push = (text: string, source: Candidate['source'], at: Line, passed: string[] = [], gap = 0): TypedValue | null => {
        // On an OCR line, a date with digits read for its month's letters ("09-0ct-2023").
        const value =
          typedValue(text, terms, ctx) ??
          (terms.type === 'date' && readByOcr(at) ? typedValue(undoOcrMisreads(text), terms, ctx) : null) ??
          compactNumber(text, terms, phrase.words[span.end].text);
        if (!value) return null;
        // A text value that is itself a label ("Date:") is not a value.
        if (value.kind === 'text' && /:/.test(text) && terms.role !== 'identifier') return null;
        let score = span.score + SOURCE_BONUS[source];
        // A label without a colon stacked over its value ("Invoice Number" over "INV-4308"): a number far
        // to its right is in another column (the seller's "Cardiff CF10 1EP"), so the value under it goes first.
        if (terms.role === 'identifier' && source === 'right' && !colon && gap > 6 * line.height) score -= 0.2;
        // A header row over its values ("Tipo documento | Numero" over "FATTURA | 127/2024", "TD01 Fattura"):
        // the document's kind printed beside the number, its code aside, completes a label that names only the number.
        if (terms.role === 'identifier' && source === 'below') {
          // Its words, not a number's label ("n. 88 del 01/10/2025" is another paper's number).
          const kindWords = (p: Phrase) => tokenize(p.text).filter((t) => !/\d/.test(t));
          const kindScore = (p: Phrase) => labelScore([...tokenize(phrase.text), ...kindWords(p)], terms).score;
          const kind = at.phrases.find((p) => p.text !== text && kindWords(p).length > 0 && !kindWords(p).some((t) => NUMBER_WORDS.has(t)) && kindScore(p) > span.score);
          if (kind) score += 0.8 * (kindScore(kind) - span.score);
        }
        // A postcode is no document number ("Cardiff CF10 1EP", "Brisbane QLD 4000").
        if (terms.role === 'identifier' && POSTCODE_TEXT.test(text)) score -= 0.5;
        // Words before a number under the label are the number's own label ("Klantnummer C3907" under a
        // "FACTUUR" title) or the text it belongs to ("Avenue Louise 180"), not the label's value.
        const own = source === 'below' && terms.role === 'identifier' && value.kind === 'text' ? [...labelLeftOf(at, text), ...leadingWords(text, value.value)] : [];
        if (own.length > 0) score -= 0.4;
        // Nor is the number that opens a line of words ("3/F Mapfre Bldg., 105 Pasong Tamo Ext." under the title): an address.
        if (source === 'below' && terms.role === 'identifier' && value.kind === 'text' && trailingWords(text, value.value) >= 2) score -= 0.4;
        // A bare "No." heading a column of an item table over a priced row: the item's position, not the document's number.
        if (source === 'below' && terms.role === 'identifier' && line.phrases.length >= 4 && PRICE.test(at.text) && tokenize(phrase.text).every((t) => NUMBER_WORDS.has(t))) score -= 0.5;
        // A value buried in a sentence after the label is weak evidence.
        if (source === 'inline' && text.split(/\s+/).length > 5) score -= 0.25;
        if (value.kind === 'number' && (value.amount.decimals || value.amount.currency)) score += 0.1;
        // Beyond the line, the whole phrase is the label ("TOTAL DUE" whose value sits to the right).
        const tokens = source === 'inline' ? tokenize(phrase.text).filter((t) => !/\d/.test(t)) : [...tokenize([phrase.text, ...passed].join(' ')).filter((t) => !/\d/.test(t)), ...own];
        out.push({ value, score, line: at, labelTokens: tokens, labelLine: line, source });
        return value;
      };
      // "n°562044387", "No.123", "#A-77": the value is glued to the label word.
      // Also a compound label run into its value by OCR ("Factuurnr.2024-100453", "Rechnungsnr.:4711").
      const glued = GLUED_VALUE.exec(phrase.words[span.end].text)?.[1];
      const restWords = phrase.words.slice(span.end + 1);
      const rest = glued ? [{ ...phrase.words[span.end], text: glued }, ...restWords] : restWords;
      // Text right after a label needs a separator ("Vendor: ACME"), else it is likely one phrase ("Vendor Services").
      const inlineOk = terms.type !== 'text' || colon || terms.role === 'identifier';
      const inlineValue = rest.length > 0 && inlineOk ? push(wordsText(rest), 'inline', line) : null;
      // A count after a total's label ("TOTAL (21 art.) | 64,15") leaves the money further right to be read.
      const count = inlineValue?.kind === 'number' && !inlineValue.amount.decimals && !inlineValue.amount.currency;
      // Words after the label that hold no value are part of the label ("Total Sales"), so look further.
      if (!wholePhrase && !colon && ((inlineValue && !count) || terms.type === 'text')) continue;
      const labelX1 = phrase.words[span.end].x1;
      // The first phrase to the right that holds a value; phrases passed on the way belong to the
      // label ("Total | Incl. | GST | RM 3.90"). A count before a sum of money ("Total | 38 Nos |
      // Rs. 2,37,048.00") is a value, but the money after it is one too.
      const passed: string[] = [];
      let money = false;
      let prev: Phrase | null = null;
      for (const p of valueRightOf(lines, line, labelX1)) {
        // OCR boxes a number grouped by a space as two phrases ("3" | "702,48" for 3 702,48): one amount.
        const group = prev && /^\d{1,3}$/.test(prev.text) && /^\d{3}[.,]\d{2}(?!\d)/.test(p.text) && p.x0 - prev.x1 < 1.5 * line.height;
        const value = group ? push(`${prev!.text} ${p.text}`, 'right', line, passed.slice(0, -1), prev!.x0 - labelX1) : push(p.text, 'right', line, passed, p.x0 - labelX1);
        prev = p;
        money = value?.kind === 'number' && (value.amount.decimals || value.amount.currency);
        if (value && !(value.kind === 'number' && !money)) break;
        passed.push(p.text);
        if (passed.length > 3) break;
      }
      // An amount beside its label is its value: nothing under it is (the footer's "Cap. Soc. € 12.000.000").
      if (money) continue;
      const x0 = phrase.words[span.start].x0;
      let found = false;
      for (const p of valueBelow(lines, line, x0, labelX1)) {
        const at = lines.find((l) => l.phrases.includes(p)) ?? line;
        if (push(terms.type === 'text' ? withSplitForm(at, p) : p.text, 'below', at)) {
          found = true;
          break;
        }
      }
      // A sum in a box under its label, set to the box's right edge ("INVOICE TOTAL GBP" / "      1,597.24"):
      // the only phrase right of the label on the next line.
      const corner = !found && terms.type === 'number' && !phrase.words.slice(span.end + 1).some((w) => /\d/.test(w.text)) ? valueBelowRight(lines, line, x0, labelX1) : null;
      if (corner) push(corner.p.text, 'below', corner.at);
    }
  }
  return out;
}
