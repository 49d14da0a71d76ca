import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentLines, pageTextOf } from '../../src/engine/layout/lines.js';
import { makePage } from './page-fixture.js';

// Two text columns side by side (a letter with a sidebar), twelve rows each.
const rows = Array.from({ length: 12 }, (_, i) => [
  [50, `left column line ${i}`],
  [340, `right column line ${i}`],
] as [number, string][]);
const page = makePage(rows);

test('detect_layout reads a two-column page column by column', () => {
  const text = pageTextOf(page, true).split('\n');
  assert.equal(text[0], 'left column line 0');
  assert.equal(text[12], 'right column line 0');
});

test('without detect_layout the page is read straight across', () => {
  assert.equal(pageTextOf(page, false).split('\n')[0], 'left column line 0 right column line 0');
});

test('lines stay full-width rows and phrases split at the column gap', () => {
  const [first] = documentLines([page], { detectLayout: true });
  assert.deepEqual(first.phrases.map((p) => p.text), ['left column line 0', 'right column line 0']);
});

test('words a text layer wrote in touching pieces are one word; OCR words and spaced words stay apart', () => {
  const piece = (text: string, x0: number, x1: number, conf?: number) => ({ text, x0, x1, y0: 100, y1: 113.4, ...(conf === undefined ? {} : { conf }) });
  const page = (words: ReturnType<typeof piece>[]) => ({ page: 1, width: 600, height: 800, words, source: 'text' as const });
  const pdf = documentLines([page([piece('Invoice', 56.8, 94.83), piece('#', 98.38, 105.06), piece('RE-20', 108.39, 142.4), piece('201121', 142.5, 181.7), piece('/50', 181.8, 198.46), piece('8', 198.6, 205.27)])], { detectLayout: true });
  assert.equal(pdf[0].text, 'Invoice # RE-20201121/508');
  const ocr = documentLines([page([piece('Date:', 10, 40, 90), piece('05', 44, 56, 80), piece('03-', 56.1, 70, 80), piece('2018', 74, 98, 90)])], { detectLayout: true });
  assert.equal(ocr[0].text, 'Date: 05 03- 2018');
});

test('a superscript mark joins the line it stands on; a rule of dashes between lines stays its own line', () => {
  const w = (text: string, x0: number, y0: number, y1: number) => ({ text, x0, x1: x0 + 8 * text.length, y0, y1, conf: 90 });
  // OCR boxes the small "**" on its own, its centre above the centre of "VAT".
  const page = {
    page: 1,
    width: 600,
    height: 800,
    source: 'ocr' as const,
    words: [w('Charges', 60, 434, 442), w('$0.01', 520, 434, 442), w('VAT', 59, 449, 456), w('**', 86, 449, 452), w('$0.00', 520, 449, 456), w('-----', 60, 466, 468), w('Total', 60, 476, 484), w('$0.01', 520, 476, 484)],
  };
  const lines = documentLines([page], { detectLayout: true });
  assert.deepEqual(lines.map((l) => l.text), ['Charges $0.01', 'VAT ** $0.00', '-----', 'Total $0.01']);
  // The line's height is its words' own, not the mark's.
  assert.equal(lines[1].height, 7);
});
