import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldDefinition } from '../../src/api/types.js';
import { extractFields } from '../../src/engine/builtin/extract-fields.js';
import { makePage, type FixtureLine } from './page-fixture.js';

const run = (lines: FixtureLine[], fields: FieldDefinition[], dateFormat: string | null = null) =>
  extractFields({ pages: [makePage(lines)], fields, dateFormat, detectLayout: true, detectTables: false });

const INVOICE: FieldDefinition[] = [
  { name: 'invoice_number', type: 'text' },
  { name: 'invoice_date', type: 'date' },
  { name: 'total', type: 'number' },
  { name: 'vendor', type: 'text' },
];

test('reads label and value on one line, typed by the field type', () => {
  const r = run(['ACME Widgets Ltd', '1 Main Street', 'Invoice No: INV-2041', 'Invoice Date: 15 Nov 2019', '', 'Total: $1,234.50'], INVOICE);
  assert.deepEqual(r.data, { invoice_number: 'INV-2041', invoice_date: '2019-11-15', total: 1234.5, vendor: 'ACME Widgets Ltd' });
  assert.deepEqual(r.missingRequired, []);
});

test('reads a value printed below its label', () => {
  const r = run(
    [
      [[50, 'Rechnungsnummer'], [250, 'Datum']],
      [[50, 'R-77812'], [250, '05.03.2018']],
    ],
    [{ name: 'invoice_number', type: 'text' }, { name: 'date', type: 'date' }],
  );
  assert.equal(r.data.invoice_number, 'R-77812');
  assert.equal(r.data.date, '2018-03-05');
});

test('reads a value right of its label across a column gap', () => {
  const r = run([[[50, 'Amount due'], [400, '1.234,56 EUR']]], [{ name: 'amount_due', type: 'number' }]);
  assert.equal(r.data.amount_due, 1234.56);
});

test('writes dates with the Workflow date_format', () => {
  const r = run(['Invoice date: 2019-11-15'], [{ name: 'invoice_date', type: 'date' }], '%d/%m/%Y');
  assert.equal(r.data.invoice_date, '15/11/2019');
});

test('chooses the grand total over a subtotal and tax', () => {
  const r = run(
    [
      [[50, 'Widget'], [400, '100.00']],
      [[300, 'Subtotal'], [400, '100.00']],
      [[300, 'VAT 19%'], [400, '19.00']],
      [[300, 'Total'], [400, '119.00']],
    ],
    [{ name: 'total', type: 'number', description: 'Total amount including tax' }],
  );
  assert.equal(r.data.total, 119);
});

test('a field that asks for the amount due takes the "Total Due" line, not an "Amount" column header\'s first row', () => {
  const r = run(
    [
      [[50, 'Description'], [400, 'Amount']],
      [[50, 'Bolts'], [400, '10.00']],
      [[50, 'Nuts'], [400, '20.00']],
      [[300, 'Total Due:'], [400, '30.00']],
    ],
    [{ name: 'total_due', type: 'number', description: 'total amount due' }],
  );
  assert.equal(r.data.total_due, 30);
});

test('a plain total field prefers the grand total over a lower amount due', () => {
  const r = run(
    [
      [[300, 'Total'], [400, '119.00']],
      [[300, 'Prepaid'], [400, '19.00']],
      [[300, 'Amount due'], [400, '100.00']],
    ],
    [{ name: 'total', type: 'number' }],
  );
  assert.equal(r.data.total, 119);
});

test('takes the document date, not the due date', () => {
  const r = run(['Due date: 30/12/2019', 'Date: 30/11/2019'], [{ name: 'date', type: 'date' }]);
  assert.equal(r.data.date, '2019-11-30');
});

test('lists required fields that were not found', () => {
  const r = run(['Hello world'], [{ name: 'po_number', type: 'text', required: true }, { name: 'notes', type: 'text' }]);
  assert.equal(r.data.po_number, null);
  assert.deepEqual(r.missingRequired, ['po_number']);
});

test('reads a receipt: company from the top, address below it, total and date', () => {
  const r = run(
    ['GOLDEN LEAF TRADING SDN BHD', '(123456-A)', 'NO 12, JALAN MERAH 3,', '81100 JOHOR BAHRU', 'TEL: 07-1234567', 'Date: 05/03/2018', 'Item A 2.00', [[50, 'TOTAL'], [300, 'RM 12.50']], [[50, 'CASH'], [300, '20.00']], [[50, 'CHANGE'], [300, '7.50']]],
    [
      { name: 'company', type: 'text' },
      { name: 'address', type: 'text' },
      { name: 'date', type: 'date' },
      { name: 'total', type: 'number' },
    ],
  );
  assert.deepEqual(r.data, { company: 'GOLDEN LEAF TRADING SDN BHD', address: 'NO 12, JALAN MERAH 3, 81100 JOHOR BAHRU', date: '2018-03-05', total: 12.5 });
});

test('a grand total labelled only by a gross word (Brutto, Gross) is the total, over the net above it', () => {
  for (const [net, gross] of [['Netto', 'Brutto'], ['Net', 'Gross']]) {
    const r = run(
      ['Muster GmbH', 'Rechnung R-1001', [[300, net], [480, '87,39 €']], [[300, 'USt. (19 %)'], [480, '16,61 €']], [[300, gross], [480, '104,00 €']]],
      [{ name: 'total', type: 'number', description: 'Total amount to pay, including tax' }],
    );
    assert.equal(r.data.total, 104, `${gross} labels the total`);
  }
});

test('a label OCR ran together ("InvoiceNo:") matches the whole field name, over an order number', () => {
  const r = run(['ACME Widgets Ltd', 'InvoiceNo: #BLR_2041', 'Order ID: OD3041750960', 'Total: 12.00'], [{ name: 'invoice_number', type: 'text', description: 'Invoice number' }]);
  assert.equal(r.data.invoice_number, 'BLR_2041');
  assert.ok(r.confidence!.invoice_number >= 0.7, String(r.confidence!.invoice_number));
});
