// The date of a receipt: OCR noise that looks like dollars, dates on identifier lines, lost separators.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldDefinition } from '../../src/api/types.js';
import { extractFields } from '../../src/engine/builtin/extract-fields.js';
import { makePage, type FixtureLine } from './page-fixture.js';

const DATE: FieldDefinition[] = [{ name: 'date', type: 'date', description: 'Date of purchase' }];
const date = (lines: FixtureLine[]) => extractFields({ pages: [makePage(lines)], fields: DATE, dateFormat: null, detectLayout: true, detectTables: false }).data.date;

test('a "$" before a long number (OCR of "S") does not make the document read dates month-first', () => {
  assert.equal(date(['DocNo $000022185 TABLE A10', 'Cashier USER Date. 06/03/2018', 'Total 12.00']), '2018-03-06');
  // A real dollar amount still does.
  assert.equal(date(['Date 06/03/2018', 'Total $12.00']), '2018-06-03');
});

test('a date on the line of an order number is the document date ("Order No. 1000219 11/03/2018")', () => {
  assert.equal(date(['ACME CAFE', 'Order No. 1000219 11/03/2018 06:26 PM', 'Total 12.00']), '2018-03-11');
  // An order date is still another date.
  assert.equal(date(['ACME CAFE', 'Order 10/03/2018', 'Delivery 11/03/2018 06:26 PM', 'Invoice 12/03/2018']), '2018-03-12');
});

test('a labelled date whose separators OCR lost is read', () => {
  assert.equal(date(['ACME CAFE', 'INV No. 1030720 Cashier: Nicole', 'Date: 05 03- 2018 19: 02: 50', 'Total 12.00']), '2018-03-05');
});
