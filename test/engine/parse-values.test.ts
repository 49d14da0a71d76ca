import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findDates, parseDate } from '../../src/engine/builtin/parse-date.js';
import { formatDate } from '../../src/engine/builtin/format-date.js';
import { findAmounts, parseAmount } from '../../src/engine/builtin/parse-amount.js';
import { fieldTerms } from '../../src/engine/builtin/field-terms.js';
import { cleanText } from '../../src/engine/builtin/typed-value.js';

const iso = (s: string, monthFirst = false) => {
  const d = parseDate(s, { monthFirst });
  return d && formatDate(d, null);
};

test('reads printed date forms as calendar dates', () => {
  const cases: [string, string][] = [
    ['2019-11-15', '2019-11-15'],
    ['15/11/2019', '2019-11-15'],
    ['11/15/2019', '2019-11-15'],
    ['15.11.2019', '2019-11-15'],
    ['15 Nov 2019', '2019-11-15'],
    ['Nov 15, 2019', '2019-11-15'],
    ['August 3 , 2014', '2014-08-03'],
    ['05 MAR 2018', '2018-03-05'],
    ['12-01-19', '2019-01-12'],
    ['3. März 2018', '2018-03-03'],
    ['1er mars 2019', '2019-03-01'],
    ['20180305', '2018-03-05'],
    ['27032018', '2018-03-27'],
    ['Date: 25/12/2018 10:22', '2018-12-25'],
  ];
  for (const [text, want] of cases) assert.equal(iso(text), want, text);
});

test('reads an ambiguous slash date month-first only when asked', () => {
  assert.equal(iso('06/10/2019'), '2019-10-06');
  assert.equal(iso('06/10/2019', true), '2019-06-10');
  // A dot is a day-first convention whatever the preference.
  assert.equal(iso('06.10.2019', true), '2019-10-06');
});

test('rejects impossible dates', () => {
  assert.deepEqual(findDates('31/02/2019 and 2019-13-01'), []);
});

test('writes dates with strftime-style patterns', () => {
  const d = { year: 2019, month: 3, day: 5 };
  assert.equal(formatDate(d, null), '2019-03-05');
  assert.equal(formatDate(d, '%d/%m/%Y'), '05/03/2019');
  assert.equal(formatDate(d, '%m-%d-%y'), '03-05-19');
  assert.equal(formatDate(d, '%d %B %Y'), '05 March 2019');
  assert.equal(formatDate(d, '%Y%m%d'), '20190305');
});

test('reads amounts with separators, currencies and negative forms', () => {
  const cases: [string, number][] = [
    ['$1,234.50', 1234.5],
    ['1.234,56 EUR', 1234.56],
    ['1 234,56 €', 1234.56],
    ["CHF 1'234.50", 1234.5],
    ['RM 9.00', 9],
    ['(12.00)', -12],
    ['-5,00', -5],
    ['12.00-', -12],
    ['USD 110.00', 110],
    ['1,234', 1234],
    ['Rs. 1,28,041.00', 128041],
    ['₹ 12,34,567.89', 1234567.89],
    ['INR 5,81,037.90', 581037.9],
    ['NET PAYABLE Rs .704.00', 704],
  ];
  for (const [text, want] of cases) assert.equal(parseAmount(text), want, text);
});

test("reads a bracket alone between a number and two digits as OCR's decimal comma, not brackets that pair", () => {
  assert.equal(parseAmount('BRUTTO 9)53'), 9.53);
  assert.equal(parseAmount('FLADENBROT 1(73'), 1.73);
  // Paired brackets, list numbering and a bracket after a decimal part are what they say.
  assert.equal(parseAmount('(12)34'), 34);
  assert.equal(parseAmount('1) 25'), 25);
  assert.equal(parseAmount('(9.53)'), -9.53);
});

test('reads a date whose separators OCR lost only when asked (next to a date label)', () => {
  assert.deepEqual(findDates('05 03- 2018 19: 02: 50'), []);
  assert.deepEqual(findDates('05 03- 2018 19: 02: 50', { loose: true })[0]?.date, { year: 2018, month: 3, day: 5 });
  assert.deepEqual(findDates('25 12 2019', { loose: true })[0]?.date, { year: 2019, month: 12, day: 25 });
  // Two-digit years stay strict: "12 05 18" is as likely a time or a count.
  assert.deepEqual(findDates('12 05 18', { loose: true }), []);
});

test('an identifier that holds a date-like run of digits is still the identifier; a bare date is not', () => {
  const terms = fieldTerms({ name: 'invoice_number', type: 'text' });
  assert.equal(cleanText('RE-20201121/508 issued at 2020-11-21', terms), 'RE-20201121/508');
  assert.equal(cleanText('2020-11-21 R-77', terms), 'R-77');
  assert.equal(cleanText('15.11.2019:', terms), null);
});

test('reads a date with the time glued to its year, as OCR joins them', () => {
  assert.deepEqual(findDates('09/03/201821:28 ED0001')[0]?.date, { year: 2018, month: 3, day: 9 });
  assert.deepEqual(findDates('12/11/2210:01 AM')[0]?.date, { year: 2022, month: 11, day: 12 });
  assert.deepEqual(findDates('05/03/1923:59')[0]?.date, { year: 2019, month: 3, day: 5 });
  assert.deepEqual(findDates('03Mar201818:22')[0]?.date, { year: 2018, month: 3, day: 3 });
  // Digits glued to a year without a time are not a date.
  assert.deepEqual(findDates('1/2/2019123'), []);
});

test('a star alone before an amount with decimals is a Turkish receipt\'s mark, not a masked card number', () => {
  assert.deepEqual(findAmounts('TOPLAM *570,00').map((a) => a.value), [570]);
  assert.deepEqual(findAmounts('KART ****4204').map((a) => a.value), []);
  assert.deepEqual(findAmounts('Card *4204').map((a) => a.value), []);
});

test('a dash closing a yen amount ("¥1,157,432-", as Japanese bills print it) is not a minus', () => {
  assert.equal(parseAmount('¥1,157,432-'), 1157432);
  assert.equal(parseAmount('JPY 48,000-'), 48000);
  // Other amounts keep the trailing minus of accounting systems.
  assert.equal(parseAmount('562,60-'), -562.6);
});

test('the naira as OCR reads its sign ("N2,789,087.50"), the pound read as "f", the lev after the amount', () => {
  assert.equal(parseAmount('TOTAL N2,789,087.50'), 2789087.5);
  assert.equal(parseAmount('Advance Payment -N1,000,000.00'), -1000000);
  assert.equal(parseAmount('TOTAL f102.65'), 102.65);
  assert.deepEqual(findAmounts('Сума за плащане 22 492,92 лв.').map((a) => [a.value, a.currency]), [[22492.92, true]]);
  // Only before an amount with cents: "N 12", "f12" are no sums of money.
  assert.equal(findAmounts('N 12')[0]?.currency ?? false, false);
  assert.equal(parseAmount('f12'), null);
});
