// The document's date: the issue date over other dates in several languages, a field that asks for
// another date, OCR's letters for digits, a year OCR misread (checked against the other dates), and
// implausible dates. Made-up documents.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldDefinition } from '../../src/api/types.js';
import type { PageText } from '../../src/engine/types.js';
import { extractFields } from '../../src/engine/builtin/extract-fields.js';
import { checkDate, plausibleDate } from '../../src/engine/builtin/date-checks.js';
import { undoOcrMisreads } from '../../src/engine/builtin/parse-date.js';
import { makePage, type FixtureLine } from './page-fixture.js';

const field = (name: string, description?: string): FieldDefinition[] => [{ name, type: 'date', ...(description ? { description } : {}) }];
const run = (pages: PageText[], fields: FieldDefinition[]) => extractFields({ pages, fields, dateFormat: null, detectLayout: true, detectTables: false });
const dateOf = (lines: FixtureLine[], name = 'date', description?: string) => run([makePage(lines)], field(name, description)).data[name];

/** An OCR'd page: every word read with confidence `conf`, except the words given their own. */
function ocrPage(lines: FixtureLine[], conf: number, own: Record<string, number> = {}): PageText {
  const p = makePage(lines);
  return { ...p, source: 'ocr', words: p.words.map((w) => ({ ...w, conf: own[w.text] ?? conf })) };
}

test('the issue date wins over due, delivery and order dates, with labels in several languages', () => {
  assert.equal(dateOf(['Fecha de vencimiento: 30/11/2024', 'Fecha: 15/10/2024', 'Total 10,00']), '2024-10-15');
  assert.equal(dateOf(['Fälligkeitsdatum: 30.11.2024', 'Rechnungsdatum: 15.10.2024']), '2024-10-15');
  assert.equal(dateOf(['Data di consegna: 02/10/2024', 'Data: 01/10/2024']), '2024-10-01');
  assert.equal(dateOf(['Tarikh: 12/03/2018', 'Jumlah 12.00']), '2018-03-12');
  assert.equal(dateOf(['Delivery date: 2024-10-20', 'Invoice date: 2024-10-18'], 'invoice_date'), '2024-10-18');
});

test('a field that asks for the due or delivery date takes that date, by name or description, and never the first date', () => {
  const lines = ['Invoice date: 2024-10-18', 'Due date: 2024-11-17', 'Delivery date: 2024-10-20'];
  assert.equal(dateOf(lines, 'due_date'), '2024-11-17');
  assert.equal(dateOf(lines, 'delivery_date'), '2024-10-20');
  assert.equal(dateOf(lines, 'date', 'Delivery date of the goods'), '2024-10-20');
  assert.equal(dateOf(['Invoice date: 2024-10-18'], 'due_date'), null);
  // "Date of purchase" names no other date: the purchase date is the document's.
  assert.equal(dateOf(lines, 'date', 'Date of purchase'), '2024-10-18');
});

test('letters OCR reads for digits inside a date are read as the digits, next to a label', () => {
  assert.equal(undoOcrMisreads('Date: 2O18-03-O5'), 'Date: 2018-03-05');
  assert.equal(undoOcrMisreads('l5/03/2018 Sales'), '15/03/2018 Sales');
  // Words are left alone.
  assert.equal(undoOcrMisreads('Sold/Ship 2018'), 'Sold/Ship 2018');
  assert.equal(dateOf(['ACME KIOSK', 'Date: l5/03/2O18', 'Total 4.00']), '2018-03-15');
});

test('a blurred 0 or 1 leading a day or month read as another digit is undone when that alone makes a date', () => {
  assert.equal(undoOcrMisreads('87/23/2019 07:51:33 AM'), '07/23/2019 07:51:33 AM');
  assert.equal(undoOcrMisreads('23.72.2019'), '23.12.2019');
  // A valid date, or one that two fixes would make, is left as read; so are other figures.
  assert.equal(undoOcrMisreads('12/08/2019'), '12/08/2019');
  assert.equal(undoOcrMisreads('87/93/2019'), '87/93/2019');
  assert.equal(undoOcrMisreads('Total 95.80'), 'Total 95.80');
  const receipt = ocrPage(['SUNRISE FUEL', '4801 N MAIN ST', 'LUBBOCK, TX 79415', '87/23/2019 07:51:33 AM', 'TOTAL 40.17', 'CASH 60.00'], 85);
  assert.equal(run([receipt], field('date')).data.date, '2019-07-23');
});

test('an OCR year one confusable digit off the other dates of the page is repaired; a text layer is not', () => {
  const lines: FixtureLine[] = ['ACME KIOSK', 'Date: 06/03/2016', 'Total 4.00', '06-03-2018 12:30 Thank you'];
  const doc = run([ocrPage(lines, 92, { '06/03/2016': 61 })], field('date'));
  assert.equal(doc.data.date, '2018-03-06');
  assert.equal(run([makePage(lines)], field('date')).data.date, '2016-03-06');
  // Two other dates in different years: no single year to repair to.
  assert.equal(run([ocrPage([...lines, 'Valid until 01-01-2019'], 92, { '06/03/2016': 61 })], field('date')).data.date, '2016-03-06');
});

test('checkDate repairs an implausible OCR year even when read as confidently as the others', () => {
  const others = [{ date: { year: 2019, month: 5, day: 2 }, line: makePage(['x']).words as never, ocr: 0.9 }];
  const c = checkDate({ year: 2079, month: 5, day: 1 }, 0.95, others as never);
  assert.deepEqual([c.date.year, c.repaired], [2019, true]);
  const kept = checkDate({ year: 2017, month: 5, day: 1 }, 0.95, others as never);
  assert.deepEqual([kept.date.year, kept.repaired], [2017, false]);
});

test('dates before 1990 or far in the future are not the document date', () => {
  assert.equal(plausibleDate({ year: 1985, month: 1, day: 1 }), false);
  assert.equal(plausibleDate({ year: 2026, month: 1, day: 1 }, new Date('2026-11-24')), true);
  assert.equal(plausibleDate({ year: 2027, month: 6, day: 1 }, new Date('2026-11-24')), false);
  assert.equal(dateOf(['Member since 01/01/1985', 'Receipt 14/02/2019', 'Total 3.00']), '2019-02-14');
});

test('a date OCR glued to a number before it and a time after it is read ("100021911/03/201806:20")', () => {
  assert.equal(dateOf(['ACME CAFE', 'Order No. 100021911/03/201806:20 PM', 'Total 12.00']), '2018-03-11');
  // Without the glued time, digits before a date keep it from being one.
  assert.equal(dateOf(['ACME CAFE', 'Ref 100021911/03/2018', 'Total 12.00']), null);
});

test('image-only pages: OCR words reach the date finder', () => {
  assert.equal(run([ocrPage(['CAFE NOIR', 'Date 14/02/2019 18:22', 'Total 3.00'], 88)], field('date')).data.date, '2019-02-14');
});

test('a document number that begins with the date (yyyymmdd + serial) repairs an OCR year one confusable digit off', () => {
  const lines = (number: string): FixtureLine[] => ['ACME STORE', `Invoice No: ${number}`, 'Total 75.00', '06/03/2016 20:01'];
  const dateOf = (number: string, layer: 'ocr' | 'text' = 'ocr') =>
    run([layer === 'ocr' ? ocrPage(lines(number), 97, { '06/03/2016': 90 }) : makePage(lines(number))], field('date')).data.date;
  assert.equal(dateOf('2018030610100080498'), '2018-03-06');
  // Digits that give another month or day are a serial, not a print of this date.
  assert.equal(dateOf('2018042210100080498'), '2016-03-06');
  // A text layer prints what it means.
  assert.equal(dateOf('2018030610100080498', 'text'), '2016-03-06');
  // A number with decimals is an amount, not a dated serial.
  assert.equal(dateOf('20180306.55'), '2016-03-06');
});

test("a letter's place and date line dates it, over a fax header or a print stamp above it", () => {
  const fax = ['16.07.2025 07:58 07121 55513 ELEKTRO HANSELMANN - S. 01/01', 'Elektro Hanselmann GmbH', [[50, 'Immobilien Schönbuch GmbH'], [330, 'Reutlingen, den 15.07.2025']], 'RECHNUNG Nr. 25-0142', 'Rechnungsbetrag 1.952,27 €'];
  assert.equal(dateOf(fax as FixtureLine[]), '2025-07-15');
  assert.equal(dateOf(['Imprimé 04/03/2025 10:12', 'Atelier Lumen SARL', 'Paris, le 3 mars 2025', 'FACTURE N° 2025-031', 'Total TTC 1 200,00 €']), '2025-03-03');
  // A due date field takes no letter date.
  assert.equal(dateOf(['Atelier Lumen SARL', 'Paris, le 3 mars 2025', 'FACTURE N° 2025-031'], 'due_date'), null);
});

test('a receipt\'s points expiry and return-by dates are other dates; the sale\'s date, even one OCR misread, is the receipt\'s', () => {
  const receipt = ocrPage(['AL WAHA HYPER MARKET L.L.C', 'TRN 100234567800003', '20-0ct-2024 20:11:36 POS 12', 'NET TOTAL 558.41', 'Points expire on 31-Dec-2025', 'Returns accepted until 03-Nov-2024'], 85);
  assert.equal(run([receipt], field('date')).data.date, '2024-10-20');
});
