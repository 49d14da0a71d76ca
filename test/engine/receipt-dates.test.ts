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

test('a month name with the day glued on and an apostrophe year ("22Sep\'18") is a date', () => {
  assert.equal(date(['Kaffeehaus Beispiel', "Chk 2284 22Sep'18 12:46", 'Total 9.28']), '2018-09-22');
  assert.equal(date(['Kaffeehaus Beispiel', 'Chk 2284 22SEP18 12:46', 'Total 9.28']), '2018-09-22');
});

test('OCR digits for the letters of a month name ("225ep\'18", "3 0ct 2019") and a C for a 0 in a year are undone on OCR pages', () => {
  const ocrDate = (lines: FixtureLine[]) => {
    const page = makePage(lines);
    return extractFields({ pages: [{ ...page, source: 'ocr', words: page.words.map((w) => ({ ...w, conf: 80 })) }], fields: DATE, dateFormat: null, detectLayout: true, detectTables: false }).data.date;
  };
  assert.equal(ocrDate(['Kaffeehaus Beispiel', "Chk 2284 225ep'18 12:46", 'Total 9.28']), '2018-09-22');
  assert.equal(ocrDate(['Corner Deli', 'Served 3 0ct 2019', 'Total 9.28']), '2019-10-03');
  // Labelled, with dashes, above the due date: the labelled one.
  assert.equal(ocrDate(['Aravali Print House', 'Invoice date : 09-0ct-2023', 'Due date : 24-0ct-2023', 'Total 5,227.56']), '2023-10-09');
  assert.equal(ocrDate(['Gare Exemple', 'AEROPORT CDG 1 le 05.02.2C18', 'MONTANT 10.30 EUR']), '2018-02-05');
  // A text layer spells its dates right: no repair there.
  assert.equal(date(['Corner Deli', 'Ref 3 0ct 2019', 'Total 9.28']), null);
});

test('a web shop\'s receipt that prints only its order date: the date of purchase is the order\'s; an invoice date is not', () => {
  const receipt = ['Birch & Loom', 'Order #1235', 'Thank you for your purchase!', 'Order placed October 23, 2024 at 01:06 pm', 'Wool Dryer Balls × 1 $18.00', 'Total $18.00 USD'];
  assert.equal(date(receipt), '2024-10-23');
  const invoiceDate: FieldDefinition[] = [{ name: 'date', type: 'date', description: 'Invoice date' }];
  assert.equal(extractFields({ pages: [makePage(receipt)], fields: invoiceDate, dateFormat: null, detectLayout: true, detectTables: false }).data.date, null);
});

test('an ISO date with the time glued to it, and a month before the day spelt with a 0 for its O, are dates', () => {
  assert.equal(date(['Boulangerie Exemple', 'Caisse 2', '2023-04-1716:05:12', 'Total 9.28']), '2023-04-17');
  // OCR's 0 for an O: only read back on OCR'd pages.
  const ocrDate = (lines: FixtureLine[]) => {
    const page = { ...makePage(lines), source: 'ocr' as const };
    for (const w of page.words) w.conf = 90;
    return extractFields({ pages: [page], fields: DATE, dateFormat: null, detectLayout: true, detectTables: false }).data.date;
  };
  assert.equal(ocrDate(['CORNER DRUG MART', '0CT 07 2021 10:37', 'Total 9.28']), '2021-10-07');
  assert.equal(ocrDate(['CORNER DRUG MART', 'N0V 3, 2021', 'Total 9.28']), '2021-11-03');
});

test('the dates of a till\'s permit block ("Date Issued" beside "Valid Until") are not the sale\'s', () => {
  const lines = ['SARI FRESH CONVENIENCE CORP.', 'OFFICIAL RECEIPT', 'OR#: 00084215 Cashier: Joy', '02/29/2024 12:05:33 PM', 'PANDESAL 10PCS 45.00', 'TOTAL DUE PHP 359.25', 'POS Provider: ABC Systems Inc.', 'Accred No: 0123456789012345', 'Date Issued: 07/01/2019', 'Valid Until: 06/30/2024'];
  assert.equal(date(lines), '2024-02-29');
});
