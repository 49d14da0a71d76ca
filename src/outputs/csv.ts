// RFC 4180 CSV: fields quoted only when they contain a comma, quote, CR or LF; quotes doubled; CRLF
// after every record. Dates as yyyy-mm-dd; text formula-safe. An optional UTF-8 BOM makes Excel read
// the file as UTF-8 instead of the machine's ANSI code page.
import { isoDay } from './date-format.js';
import { neutraliseFormula } from './formula-safe.js';
import type { Cell, Table } from './table.js';

export interface CsvOptions {
  bom?: boolean;
}

export function toCsv(table: Table, opts: CsvOptions = {}): string {
  const lines = [table.columns.map((c) => c.header), ...table.rows].map(
    (row) => row.map((cell) => csvField(cell)).join(',') + '\r\n',
  );
  return (opts.bom ? '\uFEFF' : '') + lines.join('');
}

function csvField(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  if (cell instanceof Date) return isoDay(cell);
  const text = neutraliseFormula(cell);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
