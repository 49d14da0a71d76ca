import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileDateFormat, isoDay, parseDate } from '../../src/outputs/date-format.js';

const iso = (text: string, fmt?: string | null) => {
  const d = parseDate(text, fmt);
  return d ? isoDay(d) : null;
};

test('parses strftime patterns with numeric, named-month and two-digit-year directives', () => {
  assert.equal(iso('05/03/2024', '%d/%m/%Y'), '2024-03-05');
  assert.equal(iso('03/05/2024', '%m/%d/%Y'), '2024-03-05');
  assert.equal(iso('5.3.24', '%-d.%-m.%y'), '2024-03-05');
  assert.equal(iso('5 March 2024', '%d %B %Y'), '2024-03-05');
  assert.equal(iso('05-Mar-2024', '%d-%b-%Y'), '2024-03-05');
  assert.equal(iso('Tue, 05 Mar 2024', '%a, %d %b %Y'), '2024-03-05');
  assert.equal(iso('2024-03-05 14:30', '%Y-%m-%d %H:%M'), '2024-03-05');
  assert.equal(iso('01/01/70', '%d/%m/%y'), '1970-01-01');
});

test('ISO dates parse without a pattern and before it', () => {
  assert.equal(iso('2024-03-05'), '2024-03-05');
  assert.equal(iso('2024-03-05', '%d/%m/%Y'), '2024-03-05');
  assert.equal(iso('2024-03-05T00:00:00Z'), '2024-03-05');
});

test('rejects days that do not exist and text that does not match', () => {
  assert.equal(iso('2023-02-29'), null);
  assert.equal(iso('2024-02-29'), '2024-02-29');
  assert.equal(iso('31/04/2024', '%d/%m/%Y'), null);
  assert.equal(iso('05/13/2024', '%d/%m/%Y'), null);
  assert.equal(iso('5 Smarch 2024', '%d %B %Y'), null);
  assert.equal(iso('05/03/2024 extra', '%d/%m/%Y'), null);
  assert.equal(iso('05/03/2024', null), null);
});

test('an unknown directive throws when compiled and leaves the value unparsed', () => {
  assert.throws(() => compileDateFormat('%d/%Q'), /unsupported directive %Q/);
  assert.equal(iso('05/03', '%d/%Q'), null);
});

test('a two-digit year is the same year in the engine and in the outputs (69 -> 1969, 68 -> 2068)', async () => {
  const { parseDate: readPrinted } = await import('../../src/engine/builtin/parse-date.js');
  for (const [yy, year] of [['68', 2068], ['69', 1969], ['70', 1970], ['00', 2000]] as const) {
    assert.equal(iso(`05/03/${yy}`, '%d/%m/%y'), `${year}-03-05`);
    assert.deepEqual(readPrinted(`05.03.${yy}`), { year, month: 3, day: 5 });
  }
});
