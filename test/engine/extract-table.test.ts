import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldDefinition } from '../../src/api/types.js';
import { extractFields } from '../../src/engine/builtin/extract-fields.js';
import { makePage } from './page-fixture.js';

const ITEMS: FieldDefinition = {
  name: 'line_items',
  type: 'table',
  subFields: [
    { name: 'description', type: 'text' },
    { name: 'quantity', type: 'number' },
    { name: 'unit_price', type: 'number' },
    { name: 'amount', type: 'number' },
  ],
};

const page = makePage([
  'Invoice 2041',
  [[50, 'Pos'], [80, 'Item'], [300, 'Qty'], [380, 'Unit Price'], [480, 'Amount']],
  [[50, '1'], [80, 'Blue widget'], [300, '2'], [380, '10.00'], [480, '20.00']],
  [[80, 'with long description']],
  [[50, '2'], [80, 'Red widget'], [300, '1'], [380, '1,250.00'], [480, '1,250.00']],
  [[300, 'Subtotal'], [480, '1,270.00']],
  [[300, 'Total'], [480, '1,270.00']],
]);

test('reads table rows aligned under the header words that match the subFields, a wrapped description joined', () => {
  const r = extractFields({ pages: [page], fields: [ITEMS], dateFormat: null, detectLayout: true, detectTables: false });
  assert.deepEqual(r.data.line_items, [
    { description: 'Blue widget with long description', quantity: 2, unit_price: 10, amount: 20 },
    { description: 'Red widget', quantity: 1, unit_price: 1250, amount: 1250 },
  ]);
});

test('detect_tables requires every number column of a row to be filled', () => {
  const sparse = makePage([
    [[80, 'Description'], [300, 'Quantity'], [380, 'Price'], [480, 'Amount']],
    [[80, 'Service fee'], [480, '50.00']],
    [[80, 'Widget'], [300, '3'], [380, '5.00'], [480, '15.00']],
  ]);
  const loose = extractFields({ pages: [sparse], fields: [ITEMS], dateFormat: null, detectLayout: true, detectTables: false });
  const strict = extractFields({ pages: [sparse], fields: [ITEMS], dateFormat: null, detectLayout: true, detectTables: true });
  assert.equal((loose.data.line_items as unknown[]).length, 2);
  assert.deepEqual(strict.data.line_items, [{ description: 'Widget', quantity: 3, unit_price: 5, amount: 15 }]);
});

test('gives an empty table and a missing required field when no header matches', () => {
  const r = extractFields({ pages: [makePage(['Nothing tabular here'])], fields: [{ ...ITEMS, required: true }], dateFormat: null, detectLayout: true, detectTables: false });
  assert.deepEqual(r.data.line_items, []);
  assert.deepEqual(r.missingRequired, ['line_items']);
});

test('a tax line whose rate OCR glued to the word ("Tax8%") ends the table with the subtotal above it', () => {
  const glued = makePage([
    [[80, 'Services'], [300, 'Quantity'], [380, 'Price'], [480, 'Amount']],
    [[80, 'Web hosting'], [300, '1'], [380, '$65.00'], [480, '$65.00']],
    [[80, 'Website design'], [300, '3'], [380, '$700.00'], [480, '$2,100.00']],
    [[380, 'Subtotal:'], [480, '$2,165.00']],
    [[380, 'Tax8%:'], [480, '$173.20']],
    [[380, 'Total:'], [480, '$2,338.20']],
  ]);
  const r = extractFields({ pages: [glued], fields: [ITEMS], dateFormat: null, detectLayout: true, detectTables: false });
  assert.deepEqual((r.data.line_items as { amount: number }[]).map((x) => x.amount), [65, 2100]);
});
