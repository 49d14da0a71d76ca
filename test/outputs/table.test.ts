import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toJson } from '../../src/outputs/json.js';
import { buildTable, OutputOptionsError, toNumber } from '../../src/outputs/table.js';
import { invoiceFields, invoiceRecord } from './fixtures-workflow.js';

const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d));

test('flat layout gives one row per document in field order, table fields as JSON text', () => {
  const t = buildTable(invoiceFields, [invoiceRecord()], { layout: 'flat' });
  assert.deepEqual(
    t.columns.map((c) => [c.key, c.type]),
    [
      ['invoice_number', 'text'],
      ['invoice_date', 'date'],
      ['vendor', 'text'],
      ['line_items', 'text'],
      ['total', 'number'],
    ],
  );
  assert.equal(t.rows.length, 1);
  const [num, date, vendor, items, total] = t.rows[0]!;
  assert.equal(num, 'INV-001');
  assert.deepEqual(date, day(2024, 3, 5));
  assert.equal(vendor, 'ACME, Inc.');
  assert.deepEqual(JSON.parse(items as string), invoiceRecord().data.line_items);
  assert.equal(total, 1244.5);
});

test('line_items layout gives one row per line item with document fields repeated', () => {
  const t = buildTable(invoiceFields, [invoiceRecord()], { layout: 'line_items', mergeField: 'line_items' });
  assert.deepEqual(
    t.columns.map((c) => c.header),
    ['invoice_number', 'invoice_date', 'vendor', 'line_items.description', 'line_items.quantity', 'line_items.amount', 'total'],
  );
  assert.deepEqual(t.rows, [
    ['INV-001', day(2024, 3, 5), 'ACME, Inc.', 'Widget', 2, 1234.5, 1244.5],
    ['INV-001', day(2024, 3, 5), 'ACME, Inc.', 'Gadget', 1, 10, 1244.5],
  ]);
});

test('a document without line items still yields one row in line_items layout', () => {
  const noItems = invoiceRecord({ requestId: 'r2', data: { invoice_number: 'INV-002', line_items: [] } });
  const missing = invoiceRecord({ requestId: 'r3', data: { invoice_number: 'INV-003' } });
  const t = buildTable(invoiceFields, [noItems, missing], { layout: 'line_items', mergeField: 'line_items' });
  assert.deepEqual(t.rows, [
    ['INV-002', null, null, null, null, null, null],
    ['INV-003', null, null, null, null, null, null],
  ]);
});

test('filename and request id columns come first, then classification label and confidence', () => {
  const rec = invoiceRecord({ classification: 'invoice', confidence: 0.93 });
  const t = buildTable(invoiceFields, [rec], {
    layout: 'flat',
    includeFilename: true,
    includeRequestId: true,
    includeClassification: true,
  });
  assert.deepEqual(
    t.columns.slice(0, 5).map((c) => c.header),
    ['file_name', 'request_id', 'classification', 'confidence', 'invoice_number'],
  );
  assert.deepEqual(t.rows[0]!.slice(0, 4), ['inv-001.pdf', rec.requestId, 'invoice', 0.93]);
  assert.equal(t.columns[3]!.type, 'number');
});

test('extra column keys cannot collide with a field named like them', () => {
  const fields = [{ name: 'file_name', type: 'text' as const }];
  const t = buildTable(fields, [invoiceRecord({ data: { file_name: 'from data' } })], { layout: 'flat', includeFilename: true });
  assert.equal(new Set(t.columns.map((c) => c.key)).size, 2);
  assert.deepEqual(t.rows[0], ['inv-001.pdf', 'from data']);
});

test('rejects a merge field that is missing, unknown or not a table, naming the table fields', () => {
  assert.throws(() => buildTable(invoiceFields, [], { layout: 'line_items' }), /merge_field is required.*line_items/);
  assert.throws(
    () => buildTable(invoiceFields, [], { layout: 'line_items', mergeField: 'items' }),
    (err: Error) => err instanceof OutputOptionsError && /"items" is not a field.*one of: line_items/.test(err.message),
  );
  assert.throws(
    () => buildTable(invoiceFields, [], { layout: 'line_items', mergeField: 'total' }),
    /"total" is a number field, not a table field/,
  );
});

test('number cells parse only clean numbers; anything else stays text', () => {
  assert.equal(toNumber('1,234.50'), 1234.5);
  assert.equal(toNumber(' -12 '), -12);
  assert.equal(toNumber('.5'), 0.5);
  assert.equal(toNumber('12 EUR'), null);
  assert.equal(toNumber('1.234,50'), null);
  assert.equal(toNumber('12,34'), null);
  assert.equal(toNumber('$5'), null);
  assert.equal(toNumber('-'), null);
  assert.equal(toNumber(Number.NaN), null);
  const t = buildTable(invoiceFields, [invoiceRecord({ data: { total: '12 EUR' } })], { layout: 'flat' });
  assert.equal(t.rows[0]![4], '12 EUR');
});

test('date cells parse ISO or the record date format, and keep unparsable text', () => {
  const rows = ['2024-12-31', '31/12/2024', '31/02/2024', 'next week'].map(
    (d) => buildTable(invoiceFields, [invoiceRecord({ data: { invoice_date: d } })], { layout: 'flat' }).rows[0]![1],
  );
  assert.deepEqual(rows, [day(2024, 12, 31), day(2024, 12, 31), '31/02/2024', 'next week']);
  const noFormat = buildTable(invoiceFields, [invoiceRecord({ dateFormat: null, data: { invoice_date: '31/12/2024' } })], {
    layout: 'flat',
  });
  assert.equal(noFormat.rows[0]![1], '31/12/2024');
});

test('includeMail adds mail_from, mail_subject, mail_date, mail_message_id after the fixed columns; empty for a file not from mail', () => {
  const mail = { from: 'Vendor <v@example.com>', subject: 'Invoice 1', date: '2026-11-03T09:15:00.000Z', messageId: '<1@example.com>' };
  const records = [{ ...invoiceRecord(), mail }, { ...invoiceRecord(), mail: null }];
  const t = buildTable(invoiceFields, records, { layout: 'flat', includeRequestId: true, includeMail: true });
  assert.deepEqual(t.columns.slice(0, 5).map((c) => [c.header, c.type]), [
    ['request_id', 'text'],
    ['mail_from', 'text'],
    ['mail_subject', 'text'],
    ['mail_date', 'text'],
    ['mail_message_id', 'text'],
  ]);
  assert.deepEqual(t.rows.map((r) => r.slice(1, 5)), [
    ['Vendor <v@example.com>', 'Invoice 1', '2026-11-03T09:15:00.000Z', '<1@example.com>'],
    [null, null, null, null],
  ]);
  const json = JSON.parse(toJson(records, invoiceFields)) as { mail: unknown }[];
  assert.deepEqual(json.map((r) => r.mail), [{ from: mail.from, subject: mail.subject, date: mail.date, message_id: mail.messageId }, null]);
});
