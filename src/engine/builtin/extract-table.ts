// Table fields from column alignment: a header line whose words match the subFields' names or
// descriptions fixes the columns; the lines below are cut at the column boundaries until a totals
// line, a wide vertical gap or the end of the page. With detect_tables the rules are stricter (see
// docs/engine.md): the header must match more columns and every number cell must sit under its header.
import type { FieldDefinition, SubFieldDefinition } from '../../api/types.js';
import type { Line } from '../layout/lines.js';
import type { Word } from '../types.js';
import { fieldTerms, labelScore, type FieldTerms } from './field-terms.js';
import { formatDate } from './format-date.js';
import { findDates } from './parse-date.js';
import { pickAmount, type ValueContext } from './typed-value.js';
import { PARTIAL_TOTAL_WORDS, synonymsOf, tokenize } from './vocabulary.js';

interface Column {
  /** null: a header column that matches no subField (kept so its cells do not leak into neighbours). */
  sub: { def: SubFieldDefinition; terms: FieldTerms } | null;
  x0: number;
  x1: number;
}

interface Header {
  line: Line;
  /** Last line of a header printed over two lines ("Positions-" / "betrag"). */
  last: Line;
  columns: Column[];
  matched: number;
}

export interface TableOptions {
  ctx: ValueContext;
  dateFormat: string | null;
  /** detect_tables: stricter header and alignment rules. */
  strict: boolean;
}

const TOTAL_TERMS = synonymsOf('total');

/** Matches subFields to word spans of one line; each word serves one column. */
function matchHeader(line: Line, last: Line, subs: { def: SubFieldDefinition; terms: FieldTerms }[]): Header | null {
  type Span = { sub: number; start: number; end: number; score: number };
  const words = line === last ? line.words : [...line.words, ...last.words].sort((a, b) => a.x0 - b.x0);
  const tokens = words.map((w) => tokenize(w.text));
  const spans: Span[] = [];
  subs.forEach((s, si) => {
    for (let a = 0; a < words.length; a++) {
      const acc: string[] = [];
      for (let b = a; b < Math.min(words.length, a + 3); b++) {
        // A span never crosses a wide gap: header cells are separated by one.
        if (b > a && words[b].x0 - words[b - 1].x1 > 0.9 * line.height) break;
        acc.push(...tokens[b]);
        const { score } = labelScore(acc, s.terms);
        // Short tokens ("VK-Preis", "Qty.") are abbreviations around the header word, not other words.
        const unmatched = acc.filter((t) => t.length > 2 && labelScore([t], s.terms).score === 0).length;
        // Longer spans first; among equals a line total is the rightmost column ("Amount ... Total").
        const rightward = s.terms.role === 'total' ? 0.001 * (a / words.length) : 0;
        if (score >= 0.5 && unmatched === 0) spans.push({ sub: si, start: a, end: b, score: score + 0.01 * (b - a) + rightward });
      }
    }
  });
  spans.sort((x, y) => y.score - x.score);
  const usedWords = new Set<number>();
  const usedSubs = new Set<number>();
  const columns: Column[] = [];
  for (const sp of spans) {
    if (usedSubs.has(sp.sub)) continue;
    let free = true;
    for (let i = sp.start; i <= sp.end; i++) if (usedWords.has(i)) free = false;
    if (!free) continue;
    usedSubs.add(sp.sub);
    for (let i = sp.start; i <= sp.end; i++) usedWords.add(i);
    columns.push({ sub: subs[sp.sub], x0: words[sp.start].x0, x1: words[sp.end].x1 });
  }
  if (columns.length === 0) return null;
  // Unmatched header words become ignored columns, grouped like phrases.
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

/** Splits a line's words into the header's columns: each word goes to the column band holding its centre. */
function cells(line: Line, columns: Column[]): string[] {
  const bounds = columns.slice(0, -1).map((c, i) => (c.x1 + columns[i + 1].x0) / 2);
  const out = columns.map(() => [] as string[]);
  for (const w of line.words) {
    const isNumber = /\d/.test(w.text) && !/\p{L}{3}/u.test(w.text);
    // Numbers are usually right-aligned under their header, text left-aligned: judge each by that edge.
    const x = isNumber ? w.x1 - 1 : w.x0 + 1;
    let i = bounds.findIndex((b) => x < b);
    if (i < 0) i = columns.length - 1;
    out[i].push(w.text);
  }
  return out.map((ws) => ws.join(' '));
}

type Sub = { def: SubFieldDefinition; terms: FieldTerms };

/** Median distance between the tops of consecutive lines. */
function linePitch(lines: Line[]): number {
  const d = lines
    .slice(1)
    .map((l, i) => l.y0 - lines[i].y0)
    .filter((x) => x > 0)
    .sort((a, b) => a - b);
  return d.length ? d[Math.floor(d.length / 2)] : 0;
}

/** Words of the line that name some subField: header material. */
function headerWords(line: Line, subs: Sub[]): number {
  return line.words.filter((w) => {
    const t = tokenize(w.text);
    return t.length > 0 && subs.some((s) => labelScore(t, s.terms).score >= 0.5);
  }).length;
}

function isTotalsLine(line: Line): boolean {
  // A totals line carries its amount; "ohne USt." under a column header is header text.
  if (!/\d/.test(line.text)) return false;
  // OCR may glue a rate to its word ("Tax8%").
  const tokens = tokenize(line.text).map((t) => t.replace(/(?<=\p{L})\d+$/u, ''));
  return tokens.slice(0, 4).some((t) => TOTAL_TERMS.has(t) || PARTIAL_TOTAL_WORDS.has(t) || /^(sub)?total|summe$|^gesamt/.test(t));
}

function cellValue(text: string, sub: SubFieldDefinition, opts: TableOptions): unknown {
  if (sub.type === 'number') return pickAmount(text)?.value ?? null;
  if (sub.type === 'date') {
    const d = findDates(text, { monthFirst: opts.ctx.monthFirst })[0];
    return d ? formatDate(d.date, opts.dateFormat) : null;
  }
  const t = text.trim();
  return t === '' ? null : t;
}

function rowsUnder(lines: Line[], header: Header, subs: Sub[], opts: TableOptions): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const numberCols = header.columns.filter((c) => c.sub?.def.type === 'number');
  if (numberCols.length === 0) return rows;
  // A row must have its line total when the table has such a column (a "Gross price: 9.90" note
  // under an item has a price but no total); otherwise any number will do.
  const totalCols = numberCols.filter((c) => c.sub?.terms.role === 'total');
  const after = lines.slice(header.last.index + 1);
  // Small print with generous leading: gaps are judged against the usual line pitch too.
  const pitch = linePitch(lines.filter((l) => l.page === header.line.page));
  let lastY = header.last.y1;
  let page = header.line.page;
  let pageStart = 0;
  let rowsOnPage = 0;
  for (const [k, line] of after.entries()) {
    if (line.page !== page) rowsOnPage = 0;
    // A table may run on over the next page (without repeating its header): continue at its top.
    if (line.page !== page) {
      if (line.page !== page + 1 || rows.length === 0) break;
      page = line.page;
      lastY = line.y0;
      pageStart = k;
    }
    // A heading that ends with a colon ("Payment terms:") at the table's left edge opens the next section
    // (indented ones are notes of an item); so does a new header row (a sub-table of charges).
    if (line.phrases.length === 1 && /:$/.test(line.text) && line.words.length <= 4 && line.x0 <= header.line.x0 + line.height) break;
    if (!/\d/.test(line.text) && headerWords(line, subs) >= 2) break;
    // On a continuation page the rows must start right at the top, else the table ended on the last page.
    if (page !== header.line.page && k - pageStart >= 3 && rowsOnPage === 0) break;
    // Whitespace ends a table; notes printed under an item do not.
    if (line.y0 - lastY > Math.max(4 * Math.max(line.height, header.line.height), 2.5 * pitch)) break;
    lastY = line.y1;
    if (isTotalsLine(line)) {
      // Section subtotals sit inside a table; a block of totals lines, or one followed by a gap, ends it.
      const next = after[k + 1];
      if (!next || next.page !== line.page || isTotalsLine(next) || next.y0 - line.y1 > Math.max(2 * line.height, 1.8 * pitch)) break;
      continue;
    }
    const texts = cells(line, header.columns);
    const row: Record<string, unknown> = {};
    let numbers = 0;
    let totals = 0;
    header.columns.forEach((c, i) => {
      if (!c.sub) return;
      const v = cellValue(texts[i], c.sub.def, opts);
      row[c.sub.def.name] = v;
      if (c.sub.def.type === 'number' && v !== null) numbers++;
      if (c.sub.terms.role === 'total' && v !== null) totals++;
    });
    if (numbers < (opts.strict ? numberCols.length : 1) || totals < Math.min(1, totalCols.length)) continue;
    rows.push(row);
    rowsOnPage++;
  }
  return rows;
}

export function extractTable(lines: Line[], field: FieldDefinition & { subFields: SubFieldDefinition[] }, opts: TableOptions): Record<string, unknown>[] {
  const subs = (field.subFields ?? []).map((def) => ({ def, terms: fieldTerms(def) }));
  if (subs.length === 0) return [];
  const minMatched = opts.strict ? Math.min(3, subs.length) : Math.min(2, subs.length);
  const headers: Header[] = [];
  // Cheap pre-check first: only lines with header words are matched in full.
  const named = lines.map((line) => headerWords(line, subs));
  const singles = lines.map((line, i) => (named[i] >= minMatched ? matchHeader(line, line, subs) : null));
  for (const [i, line] of lines.entries()) {
    const next = lines[i + 1];
    const joinable = next && next.page === line.page && next.y0 - line.y1 < 0.8 * line.height && !/\d[.,]\d/.test(next.text);
    const double = joinable && named[i] > 0 && named[i] + named[i + 1] >= minMatched ? matchHeader(line, next, subs) : null;
    // Two lines form one header only when together they match more columns than either alone.
    const best = Math.max(singles[i]?.matched ?? 0, (joinable && singles[i + 1]?.matched) || 0);
    const h = double && double.matched > best ? double : singles[i];
    if (h && h.matched >= minMatched) headers.push(h);
  }
  if (headers.length === 0) return [];
  // One header per page (tables repeat their header on continuation pages): the best match of each page.
  const best = new Map<number, Header>();
  for (const h of headers) {
    const cur = best.get(h.line.page);
    if (!cur || h.matched > cur.matched) best.set(h.line.page, h);
  }
  const all = [...best.values()].sort((a, b) => a.line.index - b.line.index);
  const top = Math.max(...all.map((h) => h.matched));
  return all.filter((h) => h.matched === top).flatMap((h) => rowsUnder(lines, h, subs, opts));
}
