import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readLookalikesAsLatin } from '../../src/engine/read/script-lookalikes.js';
import type { Word } from '../../src/engine/types.js';

const page = (...texts: string[]): Word[] => texts.map((text, i) => ({ text, x0: i * 50, y0: 0, x1: i * 50 + 40, y1: 10 }));
const texts = (words: Word[]) => words.map((w) => w.text);

test("reads Greek and Cyrillic lookalikes in a Latin page's words as Latin letters", () => {
  const words = page('KARTENZAHLUNG', 'ZU', 'ΖΑΗΙ-ΕΝ', 'EURO', '9,53', 'PAN', 'ΧΧΧΧ2825', 'TZATZIKI', 'Кarte', 'Debit', 'MasterCard', 'Terminal');
  assert.deepEqual(texts(readLookalikesAsLatin(words)), ['KARTENZAHLUNG', 'ZU', 'ZAHI-EN', 'EURO', '9,53', 'PAN', 'XXXX2825', 'TZATZIKI', 'Karte', 'Debit', 'MasterCard', 'Terminal']);
});

test('keeps a word with a Greek or Cyrillic letter that has no Latin twin, and every word of a Greek or Russian page', () => {
  const mixed = page('Rechnung', 'Lieferung', 'Hotel', 'ΑΘΗΝΑ', 'Ω', 'Zimmer', 'Betrag', 'Datum', 'Summe', 'Danke');
  assert.deepEqual(texts(readLookalikesAsLatin(mixed)), texts(mixed));
  const greek = page('ΤΙΜΟΛΟΓΙΟ', 'ΑΡΙΘΜΟΣ', 'ΚΑΙ', 'ΤΟ', 'ΠΟΣΟ', 'EUR');
  assert.deepEqual(texts(readLookalikesAsLatin(greek)), texts(greek));
  const russian = page('Счёт', 'на', 'оплату', 'ООО', 'Ромашка', 'ИНН');
  assert.deepEqual(texts(readLookalikesAsLatin(russian)), texts(russian));
});

test("reads full-width brackets and colons on a Latin page as ASCII, and leaves a Greek page's alone", () => {
  const receipt = page('MR', 'D.I.Y.', '（M)', 'SDN', 'BHD', 'TEL：03-1234', 'TOTAL');
  assert.deepEqual(texts(readLookalikesAsLatin(receipt)), ['MR', 'D.I.Y.', '(M)', 'SDN', 'BHD', 'TEL:03-1234', 'TOTAL']);
  const greek = page('ΤΙΜΟΛΟΓΙΟ', 'ΑΡΙΘΜΟΣ', '（1）');
  assert.deepEqual(texts(readLookalikesAsLatin(greek)), texts(greek));
});
