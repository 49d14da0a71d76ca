// quantity × unit price = line amount: the check that tells item rows and their columns apart. It
// repairs column roles a header got wrong (an "EP" and a "Preis" column, both read as prices) and
// gives the share of rows that add up, the main part of a table's confidence.
import type { Column } from './table-header.js';
import { cellNumber, type CellNumber } from './cell-numbers.js';
import type { DecimalMark } from '../parse-amount.js';
import type { TableSub } from './column-roles.js';

type Grid = (CellNumber | null)[][];
const ROLES = ['quantity', 'unit_price', 'amount'] as const;

/** Within rounding: unit prices carry more decimals than the amounts they are multiplied into. */
export function addsUp(qty: number, price: number, amount: number): boolean {
  return Math.abs(qty * price - amount) <= Math.max(0.011, 0.006 * Math.abs(amount));
}

function tally(grid: Grid, q: number, p: number, a: number): { ok: number; checked: number } {
  let ok = 0;
  let checked = 0;
  for (const row of grid) {
    const [x, y, z] = [row[q], row[p], row[a]];
    if (!x || !y || !z) continue;
    checked++;
    if (addsUp(x.value, y.value, z.value)) ok++;
  }
  return { ok, checked };
}

const colOf = (columns: Column[], role: string) => columns.findIndex((c) => c.sub?.role === role);

/** Rows with quantity, unit price and amount (checked), and how many of them add up (ok). */
export function arithmeticCount(columns: Column[], grid: Grid): { ok: number; checked: number } {
  const [q, p, a] = ROLES.map((r) => colOf(columns, r));
  return q < 0 || p < 0 || a < 0 ? { ok: 0, checked: 0 } : tally(grid, q, p, a);
}

/**
 * When the header's quantity, price and amount columns do not add up but three other number columns
 * do on most rows, those three are the columns: the product is the amount, the factor printed as a
 * count is the quantity. Columns holding another subField (a tax rate, a date) are never taken.
 */
export function repairRoles(columns: Column[], grid: Grid, subs: TableSub[]): Column[] {
  const current = ROLES.map((r) => colOf(columns, r));
  const now = current.every((c) => c >= 0) ? tally(grid, current[0], current[1], current[2]).ok : 0;
  const free = columns.map((c, i) => (c.sub === null || ROLES.includes(c.sub.role as (typeof ROLES)[number]) ? i : -1)).filter((i) => i >= 0);
  let best: { q: number; p: number; a: number; ok: number } | null = null;
  // The amount is the rightmost column of the three, which decides between equal counts (quantity 1).
  for (const a of [...free].reverse())
    for (const x of free)
      for (const y of free) {
        if (x >= y || x === a || y === a) continue;
        const { ok, checked } = tally(grid, x, y, a);
        if (ok === 0 || ok < 0.6 * checked || ok <= now || (best && ok <= best.ok)) continue;
        // The quantity is the factor printed without decimals more often.
        const counts = (i: number) => grid.filter((r) => r[i] && !r[i]!.money).length;
        const [q, p] = counts(x) >= counts(y) ? [x, y] : [y, x];
        best = { q, p, a, ok };
      }
  if (!best) return columns;
  // Every subField of a role takes its column, also one whose header word named no column ("Amount" for counts).
  const byRole = ROLES.map((r) => subs.find((s) => s.role === r) ?? null);
  const out = columns.map((c) => (c.sub && ROLES.includes(c.sub.role as (typeof ROLES)[number]) ? { ...c, sub: null } : c));
  [best.q, best.p, best.a].forEach((col, i) => {
    if (byRole[i]) out[col] = { ...out[col], sub: byRole[i] };
  });
  return out;
}

/** A count (with its unit) times a price: "2 × $111.00", "3 x 1,50", "0,754 kg x 2,99 EUR/kg", "2 @ £1.00 each". */
const COUNT_TIMES_PRICE =
  "(?<![\\d.,])(\\d+(?:[.,]\\d+)?)\\s*(?:kg|g|l|m|stk|st|pcs|pc|ea)?\\s*[x×@*]\\s*(?:[^\\d\\s]{1,3}\\s?)?(\\d[\\d.,']*)(?:\\s*(?:[^\\d\\s]{1,3}(?:\\/\\p{L}{1,3})?|each|ea\\.?))?";
const IN_TEXT = new RegExp(COUNT_TIMES_PRICE, 'iu');
/** ... as the whole of a line, which may name it ("Qty 2 x 5.00"). */
const WHOLE_LINE = new RegExp(`^\\W*(?:qty|quantity|menge)?\\W*${COUNT_TIMES_PRICE}\\W*$`, 'iu');

/** The count and unit price printed in a text whose product is the amount, or null. `whole`: the text is nothing else. */
export function countTimesPrice(text: string, amount: number, mark: DecimalMark, whole = false): { quantity: number; unitPrice: number } | null {
  const m = (whole ? WHOLE_LINE : IN_TEXT).exec(text.trim());
  const qty = m && cellNumber(m[1], mark);
  const price = m && cellNumber(m[2], mark);
  return qty && price && amount !== 0 && addsUp(qty.value, price.value, amount) ? { quantity: qty.value, unitPrice: price.value } : null;
}
