import { test } from 'node:test';
import assert from 'node:assert/strict';
import { segmentPages } from '../../src/engine/segment.js';
import { DocumentError } from '../../src/engine/types.js';
import { makePage } from './page-fixture.js';

// Six pages: two documents that start with "INVOICE" and end with "Total", with a cover page between.
const texts = ['INVOICE 1', 'details', 'Total 10.00', 'Cover letter', 'INVOICE 2', 'Total 20.00'];
const pages = texts.map((t, i) => makePage([t], i + 1));
const nums = (segs: ReturnType<typeof segmentPages>) => segs.map((s) => s.map((p) => p.page));

test('chunk_by_pages groups consecutive pages', () => {
  assert.deepEqual(nums(segmentPages(pages, { chunkByPages: 4 })), [[1, 2, 3, 4], [5, 6]]);
});

test('rolling_window moves a window of n pages by one page', () => {
  assert.deepEqual(nums(segmentPages(pages.slice(0, 4), { rollingWindow: 2 })), [[1, 2], [2, 3], [3, 4]]);
});

test('start_regex and end_regex take the first match unless use_all_matches', () => {
  assert.deepEqual(nums(segmentPages(pages, { startRegex: '^INVOICE', endRegex: 'Total' })), [[1, 2, 3]]);
  assert.deepEqual(nums(segmentPages(pages, { startRegex: '^INVOICE', endRegex: 'Total', useAllMatches: true })), [[1, 2, 3], [5, 6]]);
});

test('split_regex splits at the first matching page unless use_all_matches', () => {
  const split = pages.map((p, i) => (i === 0 ? makePage(['Intro'], 1) : p));
  assert.deepEqual(nums(segmentPages(split, { splitRegex: 'INVOICE' })), [[1, 2, 3, 4], [5, 6]]);
  assert.deepEqual(nums(segmentPages(pages, { splitRegex: 'INVOICE|Cover', useAllMatches: true })), [[1, 2, 3], [4], [5, 6]]);
});

test('an invalid regex fails with a message naming the option', () => {
  assert.throws(() => segmentPages(pages, { splitRegex: '([a-z' }), (err: unknown) => err instanceof DocumentError && /split_regex is not a valid regular expression/.test(err.message));
});
