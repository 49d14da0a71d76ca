import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createDocumentEngine } from '../../src/engine/index.js';
import { fixtureDir, textPdf, type PdfLine } from './read-fixtures.js';

const invoicePage = (no: string, total: string): PdfLine[] => [
  { text: 'Northwind Supplies Ltd', x: 50, y: 740, size: 18 },
  { text: `Invoice No: ${no}`, x: 50, y: 700, size: 11 },
  { text: 'Invoice Date: 15/11/2019', x: 50, y: 684, size: 11 },
  { text: `Total: ${total}`, x: 50, y: 600, size: 11 },
];
const FIELDS = [
  { name: 'invoice_number', type: 'text' as const, required: true },
  { name: 'invoice_date', type: 'date' as const },
  { name: 'total', type: 'number' as const },
];
const OPTIONS = { useOcr: false, detectLayout: true, detectTables: false };

async function setup(t: TestContext) {
  const dir = await fixtureDir();
  const engine = createDocumentEngine();
  t.after(async () => {
    await engine.close();
    await dir.cleanup();
  });
  return { dir, engine };
}

test('extracts a text PDF, applies page_ranges and records the engine', async (t) => {
  const { dir, engine } = await setup(t);
  const file = await dir.file('two.pdf', await textPdf([invoicePage('A-1', '10.00'), invoicePage('B-2', '$1,250.00')]));
  const r = await engine.extract({ filePath: file, kind: 'pdf', fields: FIELDS, dateFormat: '%d.%m.%Y', options: { ...OPTIONS, pageRanges: '2' } });
  assert.deepEqual(r.data, { invoice_number: 'B-2', invoice_date: '15.11.2019', total: 1250 });
  assert.equal(r.numPages, 2);
  assert.deepEqual(r.pagesRead, [2]);
  assert.equal(r.chunks, undefined);
  assert.equal(r.engine.name, 'docdrop-builtin');
  assert.match(r.engine.version, /^\d+\.\d+\.\d+$/);
});

test('extracts each segment into chunks when a segmentation option is set', async (t) => {
  const { dir, engine } = await setup(t);
  const file = await dir.file('three.pdf', await textPdf([invoicePage('A-1', '10.00'), [{ text: 'Terms and conditions', x: 50, y: 700, size: 11 }], invoicePage('C-3', '30.00')]));
  const r = await engine.extract({ filePath: file, kind: 'pdf', fields: FIELDS, dateFormat: null, options: { ...OPTIONS, splitRegex: 'Invoice No', useAllMatches: true } });
  assert.deepEqual(
    r.chunks?.map((c) => ({ pages: c.pages, no: c.data.invoice_number, missing: c.has_missing_required_fields })),
    [
      { pages: [1, 2], no: 'A-1', missing: false },
      { pages: [3], no: 'C-3', missing: false },
    ],
  );
  const byPages = await engine.extract({ filePath: file, kind: 'pdf', fields: FIELDS, dateFormat: null, options: { ...OPTIONS, chunkByPages: 1 } });
  assert.deepEqual(byPages.chunks?.map((c) => c.has_missing_required_fields), [false, true, false]);
});

test('classifies the selected pages of a PDF', async (t) => {
  const { dir, engine } = await setup(t);
  const file = await dir.file('inv.pdf', await textPdf([invoicePage('A-1', '10.00'), [{ text: 'Bill to: Foo', x: 50, y: 700, size: 11 }]]));
  const r = await engine.classify({
    filePath: file,
    kind: 'pdf',
    classes: [
      { label: 'invoice', description: 'A supplier invoice' },
      { label: 'contract', description: 'A signed agreement' },
    ],
    pageRange: '1',
    useOcr: false,
  });
  assert.equal(r.label, 'invoice');
  assert.equal(r.numPages, 1);
  assert.ok(Math.abs(r.scores.invoice + r.scores.contract - 1) < 1e-3);
});
