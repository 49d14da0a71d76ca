// A table printed without a header line, found by its numbers: a run of lines that each end with an
// amount at one right edge, with item text on their left. Lines indented under an item are its
// breakdown (charges, tax of that item), not items of their own.
import type { Line } from '../../layout/lines.js';
import type { Word } from '../../types.js';
import type { DecimalMark } from '../parse-amount.js';
import { cellNumber } from './cell-numbers.js';
import type { TableSub } from './column-roles.js';
import type { Column } from './table-header.js';
import { countTimesPrice } from './row-arithmetic.js';
import { isTotalsLine } from './totals-line.js';

/** An item line, the lines of text that continue its description, and its count and price printed under it. */
export interface ItemLines {
  line: Line;
  /** Lines of text above that name it (receipts that print the name over the numbers). */
  above?: Line[];
  more: Line[];
  /** "2 × $111.00" under an item whose amount it gives. */
  counted?: { quantity: number; unitPrice: number };
}

export interface HeaderlessTable {
  columns: Column[];
  items: ItemLines[];
}

/** The numbers at the end of a line (right to left stops at the first word that is not one). */
function trailingNumbers(line: Line, mark: DecimalMark): Word[] {
  const out: Word[] = [];
  for (let i = line.words.length - 1; i >= 0; i--) {
    const w = line.words[i];
    if (/^[$€£¥]$|^[A-Z]{3}$/.test(w.text) && out.length) continue; // a currency printed apart from its amount
    if (!/^[-−(]?[$€£¥]?[\d.,'()-]+[$€£¥%]?\)?$/.test(w.text) || !cellNumber(w.text, mark) || w.text.endsWith('%')) break;
    out.unshift(w);
  }
  return out;
}

function isItemLine(line: Line, mark: DecimalMark): boolean {
  const nums = trailingNumbers(line, mark);
  const amount = nums.length ? cellNumber(nums[nums.length - 1].text, mark) : null;
  if (!amount?.money) return false;
  const text = line.words.filter((w) => w.x1 <= nums[0].x0 && /\p{L}{2}/u.test(w.text));
  // An item named with a charge word is still an item when its count times its price is its amount.
  return text.length > 0 && (!isTotalsLine(line) || countTimesPrice(line.text, amount.value, mark) !== null);
}

interface Block {
  items: ItemLines[];
  right: number;
}

/** Sets the item's count and price when the line under it prints them, as nothing else, multiplied out to its amount. */
export function countedUnder(item: ItemLines, line: Line, mark: DecimalMark): boolean {
  const amount = item.counted ? null : lastAmount(item.line, mark);
  const counted = amount !== null && line.y0 - item.line.y1 < 1.2 * line.height ? countTimesPrice(line.text, amount, mark, true) : null;
  if (counted) item.counted = counted;
  return counted !== null;
}

function blocksOf(lines: Line[], mark: DecimalMark): Block[] {
  const blocks: Block[] = [];
  let cur: Block | null = null;
  let indent = Infinity;
  let prev: Line | null = null;
  let lastWasItem = false;
  for (const line of lines) {
    const tol = Math.max(2, 0.5 * line.height);
    const gapBreak = prev !== null && (line.page !== prev.page || line.y0 - prev.y1 > 4 * Math.max(line.height, prev.height));
    if (cur && gapBreak) cur = null;
    const item = isItemLine(line, mark);
    const aligned = cur !== null && Math.abs(line.x1 - cur.right) <= tol;
    if (item) {
      if (!cur || !aligned) {
        cur = { items: [], right: line.x1 };
        blocks.push(cur);
        indent = line.x0;
      }
      indent = Math.min(indent, line.x0);
      cur.items.push({ line, more: [] });
      lastWasItem = true;
    } else if (cur && lastWasItem && countedUnder(cur.items[cur.items.length - 1], line, mark)) {
      // The item's count and price under it ("2 × $111.00"): the item goes on.
    } else if (cur && line.x0 < indent - 0.5 * line.height) {
      // An outdented heading or total closes the run.
      cur = null;
    } else if (cur && !/\d/.test(line.text) && lastWasItem && line.y0 - (prev?.y1 ?? 0) < 1.2 * line.height) {
      cur.items[cur.items.length - 1].more.push(line);
    } else if (cur && !(isTotalsLine(line) && aligned)) {
      cur = null;
    } else lastWasItem = false;
    prev = line;
  }
  return blocks;
}

const SUBTOTAL = /^\W*(sub-?\s?total|zwischensumme|sous-total|subtotaal|subtotale|net total|total net)\b/i;
const lastAmount = (line: Line, mark: DecimalMark): number | null => {
  const nums = trailingNumbers(line, mark);
  return nums.length ? (cellNumber(nums[nums.length - 1].text, mark)?.value ?? null) : null;
};

/**
 * Charge lines between the items and their subtotal ("Delivery and setup $29.00") that the subtotal
 * adds up with the items: printed as items, counted as items.
 */
function chargesInSubtotal(lines: Line[], block: Block, mark: DecimalMark): ItemLines[] {
  const last = block.items[block.items.length - 1].line;
  const charges: Line[] = [];
  for (const line of lines.slice(last.index + 1, last.index + 6)) {
    if (line.page !== last.page) break;
    const amount = lastAmount(line, mark);
    if (amount === null) continue;
    if (SUBTOTAL.test(line.text)) {
      const sum = [...block.items.map((it) => it.line), ...charges].reduce((n, l) => n + (lastAmount(l, mark) ?? 0), 0);
      return charges.length && Math.abs(sum - amount) < 0.015 ? charges.map((l) => ({ line: l, more: [] })) : [];
    }
    if (!isTotalsLine(line) || Math.abs(line.x1 - block.right) > Math.max(2, 0.5 * line.height)) return [];
    charges.push(line);
  }
  return [];
}

/** The longest run of at least two item lines, with its number columns given to the amount subFields. */
export function headerlessTable(lines: Line[], subs: TableSub[], mark: DecimalMark): HeaderlessTable | null {
  const blocks = blocksOf(lines, mark)
    .map((b) => {
      // Lines indented further than the block's items break an item down.
      const indent = Math.min(...b.items.map((it) => it.line.x0));
      return { ...b, items: b.items.filter((it) => it.line.x0 <= indent + 0.5 * it.line.height) };
    })
    .filter((b) => b.items.length >= 2);
  if (blocks.length === 0) return null;
  const longest = blocks.reduce((a, b) => (b.items.length > a.items.length ? b : a));
  const block = { ...longest, items: [...longest.items, ...chargesInSubtotal(lines, longest, mark)] };
  // Number columns by right edge, the widest count of trailing numbers any item has (three at most).
  const numbers = block.items.map((it) => trailingNumbers(it.line, mark).slice(-3));
  const n = Math.max(...numbers.map((ns) => ns.length));
  const numCols: Column[] = [];
  for (let k = 0; k < n; k++) {
    const ws = numbers.map((ns) => ns[ns.length - n + k]).filter((w): w is Word => w !== undefined);
    numCols.push({ sub: null, x0: Math.min(...ws.map((w) => w.x0)), x1: Math.max(...ws.map((w) => w.x1)) });
  }
  const bySub = (role: string) => subs.find((s) => s.role === role) ?? null;
  // Right to left: the amount, then the unit price, then the quantity.
  const roles = ['amount', 'unit_price', 'quantity'];
  // Two numbers: a count without decimals before the amount is the quantity, else a unit price.
  if (n === 2 && numbers.every((ns) => ns.length < 2 || !cellNumber(ns[0].text, mark)?.money)) roles[1] = 'quantity';
  numCols.forEach((c, k) => (c.sub = bySub(roles[n - 1 - k])));
  const x0 = Math.min(...block.items.map((it) => it.line.x0));
  const desc: Column = { sub: bySub('description'), x0, x1: numCols[0].x0 - 1 };
  return { columns: [desc, ...numCols], items: block.items };
}
