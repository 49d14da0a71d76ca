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
