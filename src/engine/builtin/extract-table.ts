// Table fields (line items). A header line whose words name the subFields fixes the columns
// (table/table-header.ts); without one, a run of lines ending in amounts at one right edge is the table
// (table/headerless.ts). Each line below is cut at the column boundaries; a line of text only continues
// the item above it; totals, tax and charge lines stay out (table/totals-line.ts); quantity × unit price
// = amount checks the columns and gives the table's confidence (table/row-arithmetic.ts). With
// detect_tables the rules are stricter (see docs/engine.md).
import type { FieldDefinition, SubFieldDefinition } from '../../api/types.js';
import type { Line } from '../layout/lines.js';
import type { Word } from '../types.js';
import { formatDate } from './format-date.js';
import type { DecimalMark } from './parse-amount.js';
import { findDates } from './parse-date.js';
import { cellNumber, decimalMarkOf, plausibleQuantity, type CellNumber } from './table/cell-numbers.js';
import { tableSub, type TableSub } from './table/column-roles.js';
import { countedUnder, headerlessTable, type ItemLines } from './table/headerless.js';
import { addsUp, arithmeticCount, repairRoles } from './table/row-arithmetic.js';
import { findHeaders, headerWords, type Column, type Header } from './table/table-header.js';
import { isTotalsLine } from './table/totals-line.js';
import type { ValueContext } from './typed-value.js';

export interface TableOptions {
  ctx: ValueContext;
  dateFormat: string | null;
  /** detect_tables: stricter header and alignment rules. */
  strict: boolean;
}

export interface TableResult {
  rows: Record<string, unknown>[];
  /**
   * 0..1, how far the rows can be trusted: half from the header (1 when three or more subFields, or all
   * of them, named their columns, 0.75 for fewer, 0.3 without a header line), half from the share of rows
   * whose quantity × unit price is their amount (0.5 when no row has all three). 0 for an empty table.
   */
  confidence: number;
  /** The columns came from a header line (else from aligned numbers). */
  header: boolean;
  /** Share of rows with quantity, unit price and amount where they add up; null when no row has all three. */
  arithmetic: number | null;
}

/**
 * The line's words with numbers grouped by spaces ("17 820.00", "1 485,00") made one word: their
 * groups are separate words, and the first could fall into the column before the number's own.
 */
function groupedNumbers(line: Line): Pick<Word, 'text' | 'x0' | 'x1'>[] {
  const out: Pick<Word, 'text' | 'x0' | 'x1'>[] = [];
  for (const w of line.words) {
    const prev = out.at(-1);
    // A thousands group follows its number at a space's width; columns stand further apart.
    if (prev && /^\d{1,3}(?: \d{3})*$/.test(prev.text) && /^\d{3}(?:[.,]\d{1,4})?$/.test(w.text) && w.x0 - prev.x1 < 0.5 * line.height) {
      out[out.length - 1] = { text: `${prev.text} ${w.text}`, x0: prev.x0, x1: w.x1 };
    } else out.push(w);
  }
  return out;
}

/** Splits a line's words into the columns, at boundaries halfway between the header cells. */
function cells(line: Line, columns: Column[]): string[] {
  const bounds = columns.slice(0, -1).map((c, i) => (c.x1 + columns[i + 1].x0) / 2);
  const out = columns.map(() => [] as string[]);
  let prev: { x1: number; column: number; text: boolean } | null = null;
  for (const w of groupedNumbers(line)) {
    const isNumber = /\d/.test(w.text) && !/\p{L}{3}/u.test(w.text);
    // A number run on from a text cell's words at a space's width, ending before the next header starts,
    // is part of that text ("chopping board 450 × 300 × 12 mm", "(box of 100)"), not the next column's.
    const textCell = prev !== null && prev.text && columns[prev.column].sub?.def.type !== 'number';
    if (isNumber && textCell && w.x0 - prev!.x1 < 0.8 * line.height && w.x1 <= (columns[prev!.column + 1]?.x0 ?? Infinity)) {
      out[prev!.column].push(w.text);
      prev = { x1: w.x1, column: prev!.column, text: true };
      continue;
    }
    // Numbers are usually right-aligned under their header: judged by their right edge, halfway
    // between header cells. Text is left-aligned: its cell runs on to where the next header starts,
    // and text printed under a header cell (centred, or starting left of it) belongs to that cell.
    let i = bounds.findIndex((b) => w.x1 - 1 < b);
    if (i < 0) i = columns.length - 1;
    if (!isNumber) {
      i = Math.max(0, columns.findLastIndex((c) => c.x0 <= w.x0 + 1));
      const overlap = (c: Column) => Math.min(c.x1, w.x1) - Math.max(c.x0, w.x0);
      const under = columns.reduce((best, c, k) => (overlap(c) > overlap(columns[best]) ? k : best), i);
      const next = columns[i + 1];
      if (overlap(columns[under]) > 0) i = under;
      // Text well past a number column's header, before a centred text header to its right, is that
      // column's text ("QUANTITY  Test for 23 fields  DESCRIPTION"): numbers carry no words.
      else if (columns[i].sub?.def.type === 'number' && w.x0 > columns[i].x1 + line.height && next?.sub?.def.type === 'text') i++;
    }
    out[i].push(w.text);
    prev = { x1: w.x1, column: i, text: !isNumber };
  }
  return out.map((ws) => ws.join(' '));
}

/** Median distance between the tops of consecutive lines. */
function linePitch(lines: Line[]): number {
  const d = lines
    .slice(1)
    .map((l, i) => l.y0 - lines[i].y0)
    .filter((x) => x > 0)
    .sort((a, b) => a - b);
  return d.length ? d[Math.floor(d.length / 2)] : 0;
}

const descriptionColumn = (columns: Column[]): number => {
  const i = columns.findIndex((c) => c.sub?.role === 'description');
  return i >= 0 ? i : columns.findIndex((c) => c.sub?.def.type === 'text');
};

/**
 * A row whose quantity times unit price is its amount is an item, whatever its words say ("Delivery
 * and setup 1 76.50 76.50", "Shipping 2 5.00 10.00"): charges below a table print one amount.
 */
function pricedItem(texts: string[], columns: Column[], mark: DecimalMark): boolean {
  const at = (role: string) => {
    const i = columns.findIndex((c) => c.sub?.role === role);
    return i < 0 ? null : cellNumber(texts[i], mark);
  };
  const [q, p, a] = [at('quantity'), at('unit_price'), at('amount')];
  return !!q && !!p && !!a && a.value !== 0 && plausibleQuantity(q) && addsUp(q.value, p.value, a.value);
}

/** "Page 1 of 2", "Seite 1 von 2", "Page 1/2", "Pág. 1 de 2", "1 / 2". */
const PAGE_NUMBER = /^\W*(?:(?:page|seite|pagina|página|pág|blad|sida|side|strona|sivu)\.?\s*)?\d{1,3}\s*(?:of|von|de|di|van|av|af|z|\/)\s*\d{1,3}\W*$/i;

/** A footer line that ends with its page number ("ACME Ltd · Reg. No. 118734 · Page 1 of 2"). */
const PAGE_FOOT = /(?:^|\s)(?:page|seite|pagina|página|pág|blad|sida|side|strona|sivu|stránka|strana|lapa|leht|стр|σελ)\.?\s*\d{1,3}\s*(?:of|von|de|di|van|av|af|z|iš|от|из|\/)\s*\d{1,3}\W*$/iu;

function itemsUnder(lines: Line[], header: Header, subs: TableSub[], opts: TableOptions, mark: DecimalMark): ItemLines[] {
  const items: ItemLines[] = [];
  const numberCols = header.columns.filter((c) => c.sub?.def.type === 'number');
  if (numberCols.length === 0) return items;
  // A row must have its line total when the table has such a column (a "Gross price: 9.90" note
  // under an item has a price but no total); otherwise any number will do.
  const totalCols = numberCols.filter((c) => c.sub?.terms.role === 'total');
  const desc = descriptionColumn(header.columns);
  const after = lines.slice(header.last.index + 1);
  // Small print with generous leading: gaps are judged against the usual line pitch too.
  const pitch = linePitch(lines.filter((l) => l.page === header.line.page));
  let lastY = header.last.y1;
  let page = header.line.page;
  let pageStart = 0;
  let rowsOnPage = 0;
  let open: ItemLines | null = null;
  // Receipts often print each item's name on a line of its own above its code and numbers
  // ("TABLE LAMP" over "62483 1 55.90 55.90"): when the table opens with such a text line and the first
  // item's description cell holds no words, text lines name the item below them, not the one above.
  let nameAbove: boolean | null = null;
  let pending: Line[] = [];
  for (const [k, line] of after.entries()) {
    if (line.page !== page) rowsOnPage = 0;
    // A table may run on over the next page (without repeating its header): continue at its top.
    if (line.page !== page) {
      if (line.page !== page + 1 || items.length === 0) break;
      page = line.page;
      lastY = line.y0;
      pageStart = k;
      open = null;
    }
    // A heading that ends with a colon ("Payment terms:") at the table's left edge opens the next section
    // (indented ones are notes of an item); so does a new header row (a sub-table of charges).
    if (line.phrases.length === 1 && /:$/.test(line.text) && line.words.length <= 4 && line.x0 <= header.line.x0 + line.height) break;
    if (!/\d/.test(line.text) && headerWords(line, subs) >= 2) break;
    // On a continuation page the rows must start right at the top, else the table ended on the last page.
    if (page !== header.line.page && k - pageStart >= 3 && rowsOnPage === 0) break;
    // A page number at the page's foot ("Page 1 of 2") is no item, and the table may go on over the page.
    if (PAGE_NUMBER.test(line.text) || PAGE_FOOT.test(line.text)) continue;
    const gap = line.y0 - lastY;
    // Whitespace ends a table; notes printed under an item do not.
    if (gap > Math.max(4 * Math.max(line.height, header.line.height), 2.5 * pitch)) break;
    lastY = line.y1;
    if (isTotalsLine(line) && !pricedItem(cells(line, header.columns), header.columns, mark)) {
      // Section subtotals sit inside a table; a block of totals lines, or one followed by a gap, ends it.
      const next = after[k + 1];
      if (!next || next.page !== line.page || isTotalsLine(next) || next.y0 - line.y1 > Math.max(2 * line.height, 1.8 * pitch)) break;
      // Totals printed as a row of labels over a row of their amounts ("Subtotal  Moms 25 %  I alt" / "19.410,00 …"): the amounts name no item.
      if (!/\p{L}{2}/u.test(desc >= 0 ? cells(next, header.columns)[desc] : next.text)) break;
      open = null;
      continue;
    }
    const texts = cells(line, header.columns);
    let numbers = 0;
    let totals = 0;
    header.columns.forEach((c, i) => {
      if (c.sub?.def.type !== 'number' || !cellNumber(texts[i], mark)) return;
      numbers++;
      if (c.sub.terms.role === 'total') totals++;
    });
    const textAlone = numbers === 0 && desc >= 0 && texts[desc] !== '' && line.x0 >= header.columns[desc].x0 - 2 * line.height;
    if (numbers >= (opts.strict ? numberCols.length : 1) && totals >= Math.min(1, totalCols.length)) {
      if (nameAbove === null && pending.length) nameAbove = desc >= 0 && !/\p{L}{2}/u.test(texts[desc]);
      open = { line, above: nameAbove && pending.length && gap < 1.2 * line.height ? pending : [], more: [] };
      items.push(open);
      pending = [];
      rowsOnPage++;
    } else if (textAlone && (nameAbove || (nameAbove === null && items.length === 0))) {
      pending = items.length === 0 || gap < 1.2 * line.height ? [...pending, line] : [line];
    } else if (open && countedUnder(open, line, mark)) {
      // "2 x 1,99" under the item: its count and price.
    } else if (open && textAlone && gap < 1.2 * line.height) {
      // Text alone, close under an item and inside the description column: its description wraps.
      open.more.push(line);
    } else open = null;
  }
  return items;
}

function cellValue(text: string, num: CellNumber | null, sub: TableSub, opts: TableOptions): unknown {
  if (sub.def.type === 'number') return num && (sub.role !== 'quantity' || plausibleQuantity(num)) ? num.value : null;
  if (sub.def.type === 'date') {
    const d = findDates(text, { monthFirst: opts.ctx.monthFirst })[0];
    return d ? formatDate(d.date, opts.dateFormat) : null;
  }
  const t = text.trim();
  return t === '' ? null : t;
}

/**
 * A row is an item when it has a number of its own (a barcode read as a quantity is none) and is not a
 * deduction: a negative amount without a quantity among positive ones is a discount or a voucher.
 */
function isItem(row: Record<string, unknown>, subs: TableSub[], rows: Record<string, unknown>[]): boolean {
  const numberSubs = subs.filter((s) => s.def.type === 'number');
  if (!numberSubs.some((s) => typeof row[s.def.name] === 'number')) return false;
  const amount = subs.find((s) => s.role === 'amount')?.def.name;
  const quantity = subs.find((s) => s.role === 'quantity')?.def.name;
  if (!amount || typeof row[amount] !== 'number' || (row[amount] as number) >= 0) return true;
  const positives = rows.filter((r) => typeof r[amount] === 'number' && (r[amount] as number) > 0).length;
  return !(positives > 0 && (quantity === undefined || row[quantity] === null));
}

/**
 * A row whose only number is an amount that is the sum of the items above it: the subtotal, printed
 * without a label ("2,00,888.50" under the amount column) or with a word no vocabulary knows ("Goods",
 * "Suma").
 */
function unlabelledSum(row: Record<string, unknown>, above: Record<string, unknown>[], subs: TableSub[]): boolean {
  const amount = subs.find((s) => s.role === 'amount')?.def.name;
  if (!amount || typeof row[amount] !== 'number' || above.length < 2) return false;
  if (subs.some((s) => s.def.name !== amount && s.def.type === 'number' && row[s.def.name] !== null)) return false;
  const sum = above.reduce((n, r) => n + (typeof r[amount] === 'number' ? (r[amount] as number) : 0), 0);
  return Math.abs(sum - (row[amount] as number)) < 0.015;
}

/** Rows of one table: columns checked by the row arithmetic, descriptions joined over their lines. */
function tableRows(columns: Column[], items: ItemLines[], subs: TableSub[], opts: TableOptions, mark: DecimalMark) {
  const texts = items.map((it) => cells(it.line, columns));
  const grid = texts.map((row) => row.map((t, i) => (columns[i].sub === null || columns[i].sub!.def.type === 'number' ? cellNumber(t, mark) : null)));
  const cols = repairRoles(columns, grid, subs);
  const desc = descriptionColumn(cols);
  const rows = items.map((it, r) => {
    const row: Record<string, unknown> = Object.fromEntries(subs.map((s) => [s.def.name, null]));
    cols.forEach((c, i) => {
      if (!c.sub) return;
      const text = i === desc ? [...(it.above ?? []).map((l) => l.text), texts[r][i], ...it.more.map((l) => l.text)].filter((t) => t.trim() !== '').join(' ') : texts[r][i];
      row[c.sub.def.name] = cellValue(text, grid[r][i], c.sub, opts);
    });
    // The count and price printed under the item fill the cells its line leaves empty.
    for (const [role, value] of [['quantity', it.counted?.quantity], ['unit_price', it.counted?.unitPrice]] as const) {
      const sub = subs.find((s) => s.role === role);
      if (sub && value !== undefined && row[sub.def.name] === null) row[sub.def.name] = value;
    }
    return row;
  });
  // In a table of sums of money, a row whose amount is a long bare number (a bank routing number in a note
  // under the table) is no item.
  const amountAt = cols.findIndex((c) => c.sub?.role === 'amount');
  const moneyRows = amountAt < 0 ? 0 : grid.filter((g) => g[amountAt]?.money).length;
  const bareNumber = (r: number) => moneyRows >= 2 && !grid[r][amountAt]?.money && (grid[r][amountAt]?.digits ?? 0) >= 5;
  const kept = rows.filter((row, r) => !bareNumber(r) && isItem(row, subs, rows));
  return { rows: kept.filter((row, i) => !unlabelledSum(row, kept.slice(0, i), subs)), count: arithmeticCount(cols, grid) };
}

/**
 * The rows without a recap at their end: rows of an amount alone ("Professional services $8,148.75",
 * "Pass-through expenses $412.38") that together sum the items above them are the items' sums by kind.
 */
function withoutRecap(rows: Record<string, unknown>[], subs: TableSub[]): Record<string, unknown>[] {
  const amount = subs.find((s) => s.role === 'amount')?.def.name;
  if (!amount) return rows;
  const others = subs.filter((s) => s.def.type === 'number' && s.def.name !== amount).map((s) => s.def.name);
  const amountOf = (r: Record<string, unknown>) => (typeof r[amount] === 'number' ? (r[amount] as number) : NaN);
  const sum = (rs: Record<string, unknown>[]) => rs.reduce((n, r) => n + amountOf(r), 0);
  for (let k = 1; k <= rows.length - 2; k++) {
    const tail = rows.slice(rows.length - k);
    if (!tail.every((r) => others.every((o) => r[o] === null))) break;
    const items = rows.slice(0, rows.length - k);
    if (k >= 2 && Math.abs(sum(items) - sum(tail)) < 0.015) return items;
  }
  return rows;
}

export function readTable(lines: Line[], field: FieldDefinition & { subFields: SubFieldDefinition[] }, opts: TableOptions): TableResult {
  const empty: TableResult = { rows: [], confidence: 0, header: false, arithmetic: null };
  const subs = (field.subFields ?? []).map(tableSub);
  if (subs.length === 0) return empty;
  const mark = decimalMarkOf(lines);
  const minMatched = opts.strict ? Math.min(3, subs.length) : Math.min(2, subs.length);
  // One header per page (tables repeat their header on continuation pages): the best match of each page.
  const best = new Map<number, Header>();
  for (const h of findHeaders(lines, subs, minMatched)) {
    const cur = best.get(h.line.page);
    if (!cur || h.matched > cur.matched) best.set(h.line.page, h);
  }
  const all = [...best.values()].sort((a, b) => a.line.index - b.line.index);
  const top = Math.max(0, ...all.map((h) => h.matched));
  const parts = all.filter((h) => h.matched === top).map((h) => tableRows(h.columns, itemsUnder(lines, h, subs, opts, mark), subs, opts, mark));
  // A table over two pages recaps the items of both.
  const rows = withoutRecap(parts.flatMap((p) => p.rows), subs);
  if (rows.length > 0) {
    const ok = parts.reduce((n, p) => n + p.count.ok, 0);
    const checked = parts.reduce((n, p) => n + p.count.checked, 0);
    return result(rows, top >= Math.min(3, subs.length) ? 1 : 0.75, checked ? ok / checked : null, true);
  }
  // No header, or none with rows under it: a table of aligned amounts. Not with detect_tables, which asks for a header.
  const bare = opts.strict ? null : headerlessTable(lines, subs, mark);
  if (!bare) return empty;
  const t = tableRows(bare.columns, bare.items, subs, opts, mark);
  return result(t.rows, 0.3, t.count.checked ? t.count.ok / t.count.checked : null, false);
}

function result(rows: Record<string, unknown>[], headerScore: number, arithmetic: number | null, header: boolean): TableResult {
  const confidence = rows.length ? Math.round(100 * (0.5 * headerScore + 0.5 * (arithmetic ?? 0.5))) / 100 : 0;
  return { rows, confidence, header, arithmetic };
}
