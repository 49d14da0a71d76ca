import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, readdir } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { buildTable } from '../../src/outputs/table.js';
import { readXlsxTable, sheetNames, writeXlsx, DATE_NUM_FMT } from '../../src/outputs/xlsx.js';
import { invoiceFields, invoiceRecord } from './fixtures-workflow.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docdrop-xlsx-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(file: string): Promise<ExcelJS.Worksheet[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  return wb.worksheets;
}

test('writes typed number and date cells and formula-safe string cells, never formulas', async () => {
  const rec = invoiceRecord({
    data: {
      invoice_number: '=HYPERLINK("http://evil","click")',
      invoice_date: '2024-03-05',
      vendor: '@SUM(1+1)',
      line_items: [{ description: '-1+1', quantity: -3, amount: '1,234.50' }],
      total: -5,
    },
  });
  const table = buildTable(invoiceFields, [rec], { layout: 'line_items', mergeField: 'line_items', includeFilename: true });
  const file = path.join(dir, 'typed.xlsx');
  await writeXlsx([{ name: 'Invoices', table }], file);

  const [ws] = await load(file);
  assert.equal(ws!.name, 'Invoices');
  const header = ws!.getRow(1).values as unknown[];
  assert.deepEqual(header.slice(1), table.columns.map((c) => c.header));
  const row = ws!.getRow(2);
  const cell = (header: string) => row.getCell(table.columns.findIndex((c) => c.header === header) + 1);

  assert.equal(cell('invoice_number').type, ExcelJS.ValueType.String);
  assert.equal(cell('invoice_number').value, `'=HYPERLINK("http://evil","click")`);
  assert.equal(cell('vendor').value, `'@SUM(1+1)`);
  assert.equal(cell('line_items.description').value, `'-1+1`);
  assert.equal(cell('invoice_date').type, ExcelJS.ValueType.Date);
  assert.deepEqual(cell('invoice_date').value, new Date(Date.UTC(2024, 2, 5)));
  assert.equal(cell('invoice_date').numFmt, DATE_NUM_FMT);
  assert.equal(cell('line_items.quantity').type, ExcelJS.ValueType.Number);
  assert.equal(cell('line_items.quantity').value, -3);
  assert.equal(cell('line_items.amount').value, 1234.5);
  assert.equal(cell('total').value, -5);
  ws!.eachRow((r) =>
    r.eachCell((c) => assert.notEqual(c.type, ExcelJS.ValueType.Formula, `cell ${c.address} is a formula`)),
  );
});

test('readXlsxTable returns headers and plain typed cells', async () => {
  const table = buildTable(invoiceFields, [invoiceRecord()], { layout: 'flat' });
  const file = path.join(dir, 'read.xlsx');
  await writeXlsx([{ name: 'a', table }], file);
  const [sheet] = await readXlsxTable(file);
  assert.deepEqual(sheet!.headers, ['invoice_number', 'invoice_date', 'vendor', 'line_items', 'total']);
  assert.equal(sheet!.rows.length, 1);
  assert.equal(sheet!.rows[0]![0], 'INV-001');
  assert.ok(sheet!.rows[0]![1] instanceof Date);
  assert.equal(sheet!.rows[0]![4], 1244.5);
});

test('sanitises sheet names to Excel rules and keeps them unique', async () => {
  const names = sheetNames(['a/b:c', 'a/b:c', "'quoted'", '', 'History', 'x'.repeat(40), 'x'.repeat(40), 'A?B', 'a*b']);
  assert.deepEqual(names, [
    'a b c',
    'a b c (2)',
    'quoted',
    'Sheet',
    'History_',
    'x'.repeat(31),
    `${'x'.repeat(27)} (2)`,
    'A B',
    'a b (2)',
  ]);
  for (const n of names) {
    assert.ok(n.length >= 1 && n.length <= 31);
    assert.doesNotMatch(n, /[[\]:*?/\\]/);
  }
  const table = buildTable(invoiceFields, [invoiceRecord()], { layout: 'flat' });
  const file = path.join(dir, 'multi.xlsx');
  await writeXlsx([{ name: 'inv/1', table }, { name: 'inv/1', table }], file);
  assert.deepEqual((await load(file)).map((w) => w.name), ['inv 1', 'inv 1 (2)']);
});

test('writes to a stream and leaves no temp file next to a path destination', async () => {
  const table = buildTable(invoiceFields, [invoiceRecord()], { layout: 'flat' });
  const file = path.join(dir, 'streamed.xlsx');
  await writeXlsx([{ name: 's', table }], createWriteStream(file));
  const [sheet] = await readXlsxTable(file);
  assert.equal(sheet!.rows[0]![0], 'INV-001');
  assert.deepEqual((await readdir(dir)).filter((f) => f.endsWith('.tmp')), []);
});

test('rejects, rather than crashing or hanging, when the destination stream fails', async () => {
  const { Writable } = await import('node:stream');
  const broken = new Writable({
    write(_chunk, _enc, cb) {
      cb(new Error('client went away'));
    },
  });
  const table = buildTable(invoiceFields, [invoiceRecord()], { layout: 'flat' });
  await assert.rejects(writeXlsx([{ name: 's', table }], broken), /client went away/);
});
