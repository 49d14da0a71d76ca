import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCsv } from '../../src/outputs/csv.js';
import type { Table } from '../../src/outputs/table.js';

const table = (rows: Table['rows']): Table => ({
  columns: [
    { key: 'a', header: 'a', type: 'text' },
    { key: 'b', header: 'b', type: 'number' },
  ],
  rows,
});

test('quotes fields with commas, quotes and line breaks, doubling quotes, with CRLF line ends', () => {
  const csv = toCsv(table([['ACME, Inc.', 1], ['say "hi"', 2], ['two\nlines', 3], ['cr\rhere', 4], ['plain', null]]));
  assert.equal(csv, 'a,b\r\n"ACME, Inc.",1\r\n"say ""hi""",2\r\n"two\nlines",3\r\n"cr\rhere",4\r\nplain,\r\n');
});

test('writes dates as yyyy-mm-dd and numbers as plain numbers, negatives included', () => {
  const t: Table = {
    columns: [
      { key: 'd', header: 'd', type: 'date' },
      { key: 'n', header: 'n', type: 'number' },
    ],
    rows: [[new Date(Date.UTC(2024, 2, 5)), -12.5]],
  };
  assert.equal(toCsv(t), 'd,n\r\n2024-03-05,-12.5\r\n');
});

test('neutralises text that a spreadsheet would run as a formula or DDE', () => {
  const hostile = ['=1+1', '+1', '-1+1', '@SUM(A1)', '\t=cmd', '\rx', '  =HYPERLINK("http://x")', '=cmd|" /C calc"!A0'];
  const csv = toCsv(table(hostile.map((h) => [h, null])));
  const lines = csv.split('\r\n');
  assert.equal(lines[1], "'=1+1,");
  assert.equal(lines[2], "'+1,");
  assert.equal(lines[3], "'-1+1,");
  assert.equal(lines[4], "'@SUM(A1),");
  assert.equal(lines[5], "'\t=cmd,");
  assert.ok(csv.includes(`"'\rx",`), 'a leading CR is prefixed and the field quoted');
  assert.ok(csv.includes(`"'  =HYPERLINK(""http://x"")",`));
  assert.ok(csv.includes(`"'=cmd|"" /C calc""!A0",`));
  // Nothing left that starts (after optional quote and spaces) with a trigger character.
  for (const line of lines.slice(1, -1)) assert.match(line, /^"?'/);
});

test('leaves ordinary text alone, including a dash inside a value', () => {
  assert.equal(toCsv(table([['INV-001', 1], ['a = b', 2]])), "a,b\r\nINV-001,1\r\na = b,2\r\n");
});

test('adds a UTF-8 byte order mark only when asked', () => {
  assert.ok(toCsv(table([['é', 1]]), { bom: true }).startsWith('\uFEFFa,b'));
  assert.ok(toCsv(table([['é', 1]])).startsWith('a,b'));
});
