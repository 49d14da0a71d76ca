// output.confidence: a <field>_confidence column after each field (CSV, XLSX), field_confidence in JSON;
// empty when the service gave no confidence.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeOutputFile, type OutputSpec } from '../../src/outputs/write-output.js';
import { readXlsxTable } from '../../src/outputs/xlsx.js';
import { invoiceFields, invoiceRecord } from './fixtures-workflow.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docdrop-confidence-columns-'));
});
after(() => rm(dir, { recursive: true, force: true }));

const flat = (format: OutputSpec['format']): OutputSpec => ({ format, fields: invoiceFields, layout: 'flat', includeConfidence: true });
const scored = invoiceRecord({ fieldConfidence: { invoice_number: 0.91, invoice_date: 0.4, vendor: 0.77, line_items: 0.6, total: 0.95 } });
const unscored = invoiceRecord({ requestId: '22222222-2222-4222-8222-222222222222', fieldConfidence: null });

test('CSV: each field is followed by its _confidence column; empty when the service gave none', async () => {
  const file = await writeOutputFile({ ...flat('csv'), dir, baseName: 'conf', records: [scored, unscored] });
  const [header, first, second] = (await readFile(file, 'utf8')).trimEnd().split('\r\n');
  assert.equal(header, 'invoice_number,invoice_number_confidence,invoice_date,invoice_date_confidence,vendor,vendor_confidence,line_items,line_items_confidence,total,total_confidence');
  assert.match(first, /^INV-001,0\.91,2024-03-05,0\.4,"ACME, Inc\.",0\.77,.*,0\.6,\d+(\.\d+)?,0\.95$/);
  assert.match(second, /^INV-001,,2024-03-05,,"ACME, Inc\.",,.*,,\d+(\.\d+)?,$/);
});

test('without output.confidence there are no confidence columns', async () => {
  const file = await writeOutputFile({ ...flat('csv'), includeConfidence: false, dir, baseName: 'plain', records: [scored] });
  assert.doesNotMatch((await readFile(file, 'utf8')).split('\r\n')[0], /_confidence/);
});

test('XLSX: confidence cells are numbers', async () => {
  const file = await writeOutputFile({ ...flat('xlsx'), dir, baseName: 'conf', records: [scored] });
  const [t] = await readXlsxTable(file);
  const col = t.headers.indexOf('invoice_date_confidence');
  assert.ok(col > 0, JSON.stringify(t.headers));
  assert.equal(t.rows[0][col], 0.4);
});

test('JSON: field_confidence in the Workflow field order, null when the service gave none', async () => {
  const file = await writeOutputFile({ ...flat('json'), dir, baseName: 'conf', records: [scored, unscored] });
  const [a, b] = JSON.parse(await readFile(file, 'utf8'));
  assert.deepEqual(Object.keys(a.field_confidence), ['invoice_number', 'invoice_date', 'vendor', 'line_items', 'total']);
  assert.equal(a.field_confidence.invoice_date, 0.4);
  assert.equal(b.field_confidence, null);
});
