// A table's header line: word spans that name the subFields fix the columns. Unmatched header words
// become ignored columns so that their cells do not leak into neighbouring ones.
import type { Line } from '../../layout/lines.js';
import type { Word } from '../../types.js';
import { labelScore } from '../field-terms.js';
import { synonymsOf, tokenize } from '../vocabulary.js';
import { ocrHeaderToken, type TableSub } from './column-roles.js';

export interface Column {
  /** null: a column that matches no subField (kept so its cells do not leak into neighbours). */
  sub: TableSub | null;
  x0: number;
  x1: number;
}

export interface Header {
  line: Line;
  /** Last line of a header printed over two lines ("Positions-" / "betrag"). */
  last: Line;
  columns: Column[];
  matched: number;
}

const CODE_WORDS = new Set([...synonymsOf('number'), 'code', 'codice', 'codigo', 'código', 'cod', 'kod', 'kode', 'koodi', 'sku', 'ean', 'art', 'hsn', 'sac', 'κωδικός', 'κωδικος', 'κωδ']);
/** Words that head an item's text or its code column. */
const ITEM_WORDS = new Set(['item', 'items', 'article', 'artikel', 'articolo', 'artigo', 'artículo', 'product', 'produkt', 'produit', 'art']);
/** Headers of a discount column: Disc., Desc., Dto., Rabatt, Remise, Sconto, Korting. */
const DISCOUNT_HEADS = new Set(['disc', 'discount', 'desc', 'dto', 'descuento', 'desconto', 'rabatt', 'remise', 'sconto', 'korting', 'rabat', 'έκπτ', 'εκπτ', 'έκπτωση', 'εκπτωση']);
/** A code column's header written as one compound ("Artikelnr.", "Artikelnummer", "Varenr", "Produktcode"). */
const isCodeWord = (t: string): boolean => CODE_WORDS.has(t) || /^\p{L}{3,}(?:nr|nummer|code)$/u.test(t);

/** A word's tokens, OCR's one-letter misreadings of header words put right. */
function wordTokens(w: Word): string[] {
  const tokens = tokenize(w.text);
  return w.conf === undefined ? tokens : tokens.map(ocrHeaderToken);
}

/** Words of the line that name some subField: header material. */
export function headerWords(line: Line, subs: TableSub[]): number {
  return line.words.filter((w) => {
    const t = wordTokens(w);
    return t.length > 0 && subs.some((s) => labelScore(t, s.terms).score >= 0.5);
  }).length;
}

/** Matches subFields to word spans of one line (or two, for a header over two lines); each word serves one column. */
export function matchHeader(line: Line, last: Line, subs: TableSub[]): Header | null {
  type Span = { sub: number; start: number; end: number; score: number };
  const words = line === last ? line.words : [...line.words, ...last.words].sort((a, b) => a.x0 - b.x0);
  const tokens = words.map(wordTokens);
  const upper = new Set(line.words);
  // Words of one phrase a word space apart are one header cell ("Ext. Price", "Item No.").
  const phraseOf = new Map<Word, unknown>([line, last].flatMap((l) => l.phrases.flatMap((p) => p.words.map((w) => [w, p] as const))));
  const samePhrase = (i: number, j: number) =>
    words[j] !== undefined && phraseOf.get(words[i]) !== undefined && phraseOf.get(words[i]) === phraseOf.get(words[j]) && words[j].x0 - words[i].x1 < 0.7 * line.height;
  const spans: Span[] = [];
  subs.forEach((s, si) => {
    for (let a = 0; a < words.length; a++) {
      const acc: string[] = [];
      for (let b = a; b < Math.min(words.length, a + 3); b++) {
        // A span never crosses a wide gap: header cells are separated by one.
        if (b > a && words[b].x0 - words[b - 1].x1 > 0.9 * line.height) break;
        acc.push(...tokens[b]);
        const { score } = labelScore(acc, s.terms);
        // Short tokens ("VK-Preis", "Qty.") are abbreviations around the header word, not other words; a
        // header phrase of the column's words ("Unit price") is matched whole.
        const phrase = s.terms.nameTerms.some((set) => set.has(acc.join(' ')));
        const unmatched = phrase ? 0 : acc.filter((t) => t.length > 2 && !s.modifiers.has(t) && labelScore([t], s.terms).score === 0).length;
        // Longer spans first; among equals a line total is the rightmost column ("Amount ... Total").
        const rightward = s.terms.role === 'total' ? 0.001 * (a / words.length) : 0;
        // "Item No.", "Article #": a column of codes, not of the items' text; also over two lines ("Codice" / "articolo").
        const next = samePhrase(b, b + 1) ? tokens[b + 1] : [];
        const stacked = line === last ? [] : words.flatMap((w, j) => (upper.has(w) !== upper.has(words[a]) && w.x0 < words[b].x1 && w.x1 > words[a].x0 ? tokens[j] : []));
        const codes = s.role === 'description' && [...acc, ...next, ...stacked].some(isCodeWord) ? 0.3 : 0;
        // "Artikel | Bezeichnung", "Item | Description": the word that names the text wins over the one that may name a code.
        const generic = s.role === 'description' && acc.every((t) => ITEM_WORDS.has(t)) ? 0.05 : 0;
        // "Desc. %" heads a discount: the abbreviation is not the description's ("Descrição ... Desc. %").
        const discount = s.role === 'description' && acc.includes('desc') && /%/.test(words[b + 1]?.text ?? words[b].text) ? 0.3 : 0;
        // A word without letters adds nothing to a span's match ("Desc. %" is no better a header than "Desc.").
        if (b > a && tokens[b].length === 0) continue;
        if (score >= 0.5 && unmatched === 0) spans.push({ sub: si, start: a, end: b, score: score + 0.01 * (b - a) + rightward - codes - discount - generic });
      }
    }
  });
  spans.sort((x, y) => y.score - x.score);
  const usedWords = new Set<number>();
  const usedSubs = new Set<number>();
  const columns: Column[] = [];
  const columnOf = new Map<number, Column>();
  for (const sp of spans) {
    if (usedSubs.has(sp.sub)) continue;
    let free = true;
    for (let i = sp.start; i <= sp.end; i++) if (usedWords.has(i)) free = false;
    if (!free) continue;
    usedSubs.add(sp.sub);
    const column = { sub: subs[sp.sub], x0: words[sp.start].x0, x1: words[sp.end].x1 };
    for (let i = sp.start; i <= sp.end; i++) usedWords.add(i), columnOf.set(i, column);
    columns.push(column);
  }
  if (columns.length === 0) return null;
  // A word in the same phrase after a column's words is more of its header ("Ext. | Price", "Qty | Ord"):
  // it widens that column rather than opening one that would take half of its cells. A rate's or a
  // discount's header is a column of its own ("Preço Unit. Desc.%"); a tax word qualifies ("Totaal excl. btw").
  const ownColumn = (i: number) => /%/.test(words[i].text) || tokens[i].some((t) => DISCOUNT_HEADS.has(t));
  for (let i = 1; i < words.length; i++) {
    const left = columnOf.get(i - 1);
    if (!usedWords.has(i) && left && samePhrase(i - 1, i) && !ownColumn(i)) {
      left.x1 = Math.max(left.x1, words[i].x1);
      usedWords.add(i);
      columnOf.set(i, left);
    }
  }
  // ... and a word of no column's before them qualifies them ("Καθαρή | αξία", net value): it widens the
  // column leftward, unless it heads a code column of its own ("Art.nr | Benämning").
  for (let i = words.length - 2; i >= 0; i--) {
    const right = columnOf.get(i + 1);
    if (!usedWords.has(i) && right && samePhrase(i, i + 1) && !ownColumn(i) && !tokens[i].some(isCodeWord)) {
      right.x0 = Math.min(right.x0, words[i].x0);
      usedWords.add(i);
      columnOf.set(i, right);
    }
  }
  // A header over two lines stacks a column's words ("Prezzo" / "totale"): a word over or under a column's is its own.
  if (line !== last) {
    words.forEach((w, i) => {
      const col = usedWords.has(i) ? undefined : columns.find((c) => w.x0 < c.x1 && w.x1 > c.x0);
      if (!col) return;
      col.x0 = Math.min(col.x0, w.x0);
      col.x1 = Math.max(col.x1, w.x1);
      usedWords.add(i);
    });
  }
  let group: Word[] = [];
  const flush = () => {
    if (group.length) columns.push({ sub: null, x0: group[0].x0, x1: group[group.length - 1].x1 });
    group = [];
  };
  words.forEach((w, i) => {
    if (usedWords.has(i)) return flush();
    const prev = group[group.length - 1];
    if (prev && w.x0 - prev.x1 > 0.9 * line.height) flush();
    group.push(w);
  });
  flush();
  columns.sort((a, b) => a.x0 - b.x0);
  return { line, last, columns, matched: usedSubs.size };
}

/** Header lines of the document: one line, or two when together they match more subFields than either alone. */
export function findHeaders(lines: Line[], subs: TableSub[], minMatched: number): Header[] {
  const headers: Header[] = [];
  // Cheap pre-check first: only lines with header words are matched in full.
  const named = lines.map((line) => headerWords(line, subs));
  const singles = lines.map((line, i) => (named[i] >= minMatched ? matchHeader(line, line, subs) : null));
  for (const [i, line] of lines.entries()) {
    const next = lines[i + 1];
    const joinable = next && next.page === line.page && next.y0 - line.y1 < 0.8 * line.height && !/\d[.,]\d/.test(next.text);
    const double = joinable && named[i] > 0 && named[i] + named[i + 1] >= minMatched ? matchHeader(line, next, subs) : null;
    const best = Math.max(singles[i]?.matched ?? 0, (joinable && singles[i + 1]?.matched) || 0);
    // A second line of header words ("Cena / netto", "Wartość / brutto") is the header's, though it names no more columns.
    const secondLine = joinable && named[i + 1] > 0 && !/\d/.test(next.text);
    const h = double && (double.matched > best || (secondLine && double.matched === best)) ? double : singles[i];
    if (h && h.matched >= minMatched) headers.push(h);
  }
  return headers;
}
