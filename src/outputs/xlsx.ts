// XLSX through exceljs's streaming writer (rows are serialised as they are added, so a large export
// does not build a second copy of the workbook in memory). Numbers and dates are typed cells; text is
// formula-safe and always written as a string value, never as a formula object.
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { atomicWriteFile } from '../shared/atomic-write.js';
import { neutraliseFormula } from './formula-safe.js';
import type { Cell, Table } from './table.js';

export interface Sheet {
  name: string;
  table: Table;
}

export const DATE_NUM_FMT = 'yyyy-mm-dd';
/** Excel's limit per cell; longer strings make Excel "repair" (truncate) the whole file on open. */
export const MAX_CELL_CHARS = 32_767;
const SHEET_NAME_MAX = 31;

/** Writes the sheets to a path (atomically: temp file, fsync, rename) or to a stream (ends it). */
export async function writeXlsx(sheets: Sheet[], dest: string | Writable): Promise<void> {
  if (typeof dest === 'string') {
    await atomicWriteFile(dest, (tmp) => writeWorkbook(sheets, createWriteStream(tmp, { flags: 'wx' })));
  } else {
    await writeWorkbook(sheets, dest);
  }
}

// exceljs listens for stream errors only once it finalises; an error before that (ENOSPC, a client
// hanging up on an export) would be an unhandled 'error' event, or a commit waiting forever for
// 'finish'. So the stream's first error rejects the write.
async function writeWorkbook(sheets: Sheet[], stream: Writable): Promise<void> {
  let onError!: (err: unknown) => void;
  const failed = new Promise<never>((_, reject) => {
    onError = reject;
    stream.once('error', onError);
  });
  failed.catch(() => undefined); // observed by the race below; never an unhandled rejection
  try {
    await Promise.race([fillWorkbook(sheets, stream), failed]);
  } catch (err) {
    stream.destroy();
    throw err;
  } finally {
    stream.off('error', onError);
  }
}

async function fillWorkbook(sheets: Sheet[], stream: Writable): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const names = sheetNames(sheets.map((s) => s.name));
  // A workbook must have at least one sheet or Excel refuses to open it.
  const list = sheets.length ? sheets : [{ name: 'Sheet1', table: { columns: [], rows: [] } }];
  list.forEach((sheet, i) => {
    const ws = wb.addWorksheet(names[i] ?? 'Sheet1', { views: [{ state: 'frozen', ySplit: 1 }] });
    const { columns, rows } = sheet.table;
    ws.columns = columns.map((c, ci) => ({
      header: xlsxText(c.header),
      key: c.key,
      width: columnWidth(c.header, rows, ci),
      style: c.type === 'date' ? { numFmt: DATE_NUM_FMT } : {},
    }));
    const header = ws.getRow(1);
    header.font = { bold: true };
    header.commit();
    for (const cells of rows) {
      const row = ws.addRow(cells.map(xlsxValue));
      cells.forEach((cell, ci) => {
        if (cell instanceof Date) row.getCell(ci + 1).numFmt = DATE_NUM_FMT;
      });
      row.commit();
    }
    ws.commit();
  });
  await wb.commit();
}

function xlsxValue(cell: Cell): ExcelJS.CellValue {
  if (cell === null) return null;
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  if (cell instanceof Date) return cell;
  return xlsxText(cell);
}

function xlsxText(text: string): string {
  const safe = neutraliseFormula(text);
  return safe.length > MAX_CELL_CHARS ? safe.slice(0, MAX_CELL_CHARS) : safe;
}

function columnWidth(header: string, rows: Cell[][], ci: number): number {
  let max = header.length;
  for (let r = 0; r < rows.length && r < 200; r++) {
    const v = rows[r]![ci];
    const len = v === null || v === undefined ? 0 : v instanceof Date ? 10 : String(v).length;
    if (len > max) max = len;
  }
  return Math.min(Math.max(max + 2, 10), 60);
}

/**
 * Excel's sheet name rules: 1-31 characters, none of [ ] : * ? / \, no leading or trailing apostrophe,
 * not "History" (reserved), unique ignoring case. Clashes get " (2)", " (3)"... within the limit.
 */
export function sheetNames(wanted: string[]): string[] {
  const used = new Set<string>();
  return wanted.map((raw) => {
    let clean = raw
      .replace(/[\u0000-\u001f\u007f[\]:*?/\\]/g, ' ')
      .replace(/\s+/g, ' ')
      .replace(/^[\s']+|[\s']+$/g, '');
    if (clean === '') clean = 'Sheet';
    if (clean.toLowerCase() === 'history') clean = 'History_';
    const base = Array.from(clean); // code points, so a cut never splits a surrogate pair
    for (let n = 1; ; n++) {
      const suffix = n === 1 ? '' : ` (${n})`;
      const name = base.slice(0, SHEET_NAME_MAX - suffix.length).join('').replace(/'+$/, '').trimEnd() + suffix;
      if (!used.has(name.toLowerCase())) {
        used.add(name.toLowerCase());
        return name;
      }
    }
  });
}

export interface ReadSheet {
  name: string;
  headers: string[];
  rows: Cell[][];
}

/**
 * Reads back every sheet of an XLSX (first row = headers) into plain cells: number, Date, string or
 * null. A formula cell comes back as its "=..." text so a caller can see one was there.
 */
export async function readXlsxTable(path: string): Promise<ReadSheet[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb.worksheets.map((ws) => {
    const all: Cell[][] = [];
    ws.eachRow({ includeEmpty: true }, (row) => {
      const cells: Cell[] = [];
      for (let c = 1; c <= ws.columnCount; c++) cells.push(plainCell(row.getCell(c).value));
      all.push(cells);
    });
    const [header = [], ...rows] = all;
    return { name: ws.name, headers: header.map((h) => (h === null ? '' : String(h))), rows };
  });
}

function plainCell(v: ExcelJS.CellValue): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'string' || v instanceof Date) return v;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'object' && 'formula' in v) return `=${v.formula}`;
  if (typeof v === 'object' && 'sharedFormula' in v) return `=${v.sharedFormula}`;
  if (typeof v === 'object' && 'richText' in v) return v.richText.map((t) => t.text).join('');
  if (typeof v === 'object' && 'text' in v) return String(v.text);
  return String(v);
}
