// Per-field confidence from the evidence of the selection: higher for a clear labelled value than for
// a guess, 0 for a value not found, lower for poorly read OCR words, higher when checks agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldDefinition } from '../../src/api/types.js';
import type { PageText } from '../../src/engine/types.js';
import { extractFields } from '../../src/engine/builtin/extract-fields.js';
import { fieldConfidence, NO_EVIDENCE } from '../../src/engine/builtin/confidence.js';
import { makePage, type FixtureLine } from './page-fixture.js';

const FIELDS: FieldDefinition[] = [
  { name: 'invoice_number', type: 'text' },
  { name: 'date', type: 'date' },
  { name: 'total', type: 'number' },
  { name: 'po_number', type: 'text' },
  { name: 'iban', type: 'text' },
];
const conf = (pages: PageText[]) => extractFields({ pages, fields: FIELDS, dateFormat: null, detectLayout: true, detectTables: false }).confidence!;
const ocr = (lines: FixtureLine[], c: number): PageText => {
  const p = makePage(lines);
  return { ...p, source: 'ocr', words: p.words.map((w) => ({ ...w, conf: c })) };
};
const CLEAR: FixtureLine[] = ['Blue Heron Tools Ltd', 'Invoice No: BH-1042', 'Invoice Date: 2024-10-18', 'Total: 120.00'];

test('clear labelled values score high; a field not found scores 0', () => {
  const c = conf([makePage(CLEAR)]);
  assert.ok(c.invoice_number >= 0.75 && c.date >= 0.75 && c.total >= 0.75, JSON.stringify(c));
  assert.equal(c.iban, 0);
});

test('a value under a label that matches only part of the field name scores lower than a full match', () => {
  // "Invoice No" half-matches po_number: the engine may take it, but should doubt it.
  const c = conf([makePage(CLEAR)]);
  assert.ok(c.po_number < 0.5 && c.po_number < c.invoice_number, JSON.stringify(c));
});

test('the same values read by OCR with low word confidence score lower', () => {
  const good = conf([ocr(CLEAR, 95)]);
  const poor = conf([ocr(CLEAR, 45)]);
  for (const f of ['invoice_number', 'date', 'total']) assert.ok(poor[f] < good[f], `${f}: ${poor[f]} < ${good[f]}`);
});

test('an unlabelled ambiguous date scores lower than a labelled unambiguous one', () => {
  const guessed = conf([makePage(['Blue Heron Tools Ltd', '3/4/2024', 'Total: 120.00'])]);
  assert.ok(guessed.date < 0.5 && guessed.date < conf([makePage(CLEAR)]).date, JSON.stringify(guessed));
});

test('a total confirmed by the payment lines scores higher than a competing unconfirmed one', () => {
  const confirmed = conf([makePage(['Corner Deli', 'Total 18.40', 'Cash 20.00', 'Change 1.60'])]);
  const contested = conf([makePage(['Corner Deli', 'Total 18.40', 'Total 19.40'])]);
  assert.ok(confirmed.total > contested.total, `${confirmed.total} > ${contested.total}`);
});

test('fieldConfidence: each kind of evidence moves the score the expected way', () => {
  const base = { ...NO_EVIDENCE, via: 'label' as const, labelScore: 1, margin: 0.5 };
  const s = fieldConfidence(base);
  assert.ok(s > 0 && s < 1);
  assert.ok(fieldConfidence({ ...base, validated: true }) > s);
  assert.ok(fieldConfidence({ ...base, validated: false }) < s);
  assert.ok(fieldConfidence({ ...base, guessed: true }) < s);
  assert.ok(fieldConfidence({ ...base, margin: 0.05 }) < s);
  assert.ok(fieldConfidence({ ...base, labelScore: 0.6 }) < s);
  assert.ok(fieldConfidence({ ...NO_EVIDENCE, via: 'layout' }) < s);
  assert.equal(fieldConfidence(NO_EVIDENCE), 0);
});

test('line items: rows that add up (quantity × price = amount) under a header score higher than rows that do not', () => {
  const items: FieldDefinition[] = [
    { name: 'line_items', type: 'table', subFields: [{ name: 'description', type: 'text' }, { name: 'quantity', type: 'number' }, { name: 'unit_price', type: 'number' }, { name: 'amount', type: 'number' }] },
  ];
  const table = (amounts: string[]) =>
    extractFields({
      pages: [
        makePage([
          'Blue Heron Tools Ltd',
          [[50, 'Description'], [300, 'Qty'], [380, 'Unit price'], [480, 'Amount']],
          [[50, 'Bolts'], [300, '4'], [380, '2.50'], [480, amounts[0]]],
          [[50, 'Washers'], [300, '10'], [380, '0.20'], [480, amounts[1]]],
          [[50, 'Hinges'], [300, '2'], [380, '7.00'], [480, amounts[2]]],
        ]),
      ],
      fields: items,
      dateFormat: null,
      detectLayout: true,
      detectTables: false,
    });
  const adds = table(['10.00', '2.00', '14.00']);
  const off = table(['11.00', '3.50', '19.00']);
  assert.equal((adds.data.line_items as unknown[]).length, 3);
  assert.equal((off.data.line_items as unknown[]).length, 3);
  assert.ok(adds.confidence!.line_items >= 0.85, `adds up: ${adds.confidence!.line_items}`);
  assert.ok(off.confidence!.line_items < 0.5, `does not add up: ${off.confidence!.line_items}`);
});

const PARTY: FieldDefinition[] = [
  { name: 'company', type: 'text', description: 'Name of the shop or business' },
  { name: 'address', type: 'text', description: 'Address of the shop' },
];
/** An OCR receipt top: every word read at 95, the lines in `unsure` at 40. */
const receipt = (lines: string[], unsure: number[] = []) => {
  const p = makePage(lines);
  const words = p.words.map((w) => ({ ...w, conf: unsure.includes(Math.round((w.y0 - 50) / 14)) ? 40 : 95 }));
  return extractFields({ pages: [{ ...p, source: 'ocr', words }], fields: PARTY, dateFormat: null, detectLayout: true, detectTables: false });
};

test('an address OCR ran together with case changes or digits inside its words scores lower than a clean one', () => {
  const clean = receipt(['KEDAI MAWAR TRADING', 'No 12, Jalan Merah 3,', 'Taman Melati, 56030 Kota Baru', 'TEL: 03-1234567']);
  const garbled = receipt(['KEDAI MAWAR TRADING', 'No 12, JalanMe7ah 3,', 'Tamanelati56030KotaBaru', 'TEL: 03-1234567']);
  assert.equal(garbled.data.address, 'No 12, JalanMe7ah 3, Tamanelati56030KotaBaru');
  assert.ok(garbled.confidence!.address < clean.confidence!.address, `${garbled.confidence!.address} < ${clean.confidence!.address}`);
});

test('an address read past an unsurely read row scores lower: the row may be its misread start', () => {
  const clean = receipt(['KEDAI MAWAR TRADING', 'WQ,ZXKRTP', '56030 KOTA BARU, KELANTAN', 'TEL: 03-1234567']);
  const unsure = receipt(['KEDAI MAWAR TRADING', 'WQ,ZXKRTP', '56030 KOTA BARU, KELANTAN', 'TEL: 03-1234567'], [1]);
  assert.equal(unsure.data.address, '56030 KOTA BARU, KELANTAN');
  assert.ok(unsure.confidence!.address < clean.confidence!.address, `${unsure.confidence!.address} < ${clean.confidence!.address}`);
});

test('a name OCR ran into one word (spacing restored) scores lower than the same name read with its spaces', () => {
  const spaced = receipt(['KEDAI MAWAR TRADING SDN BHD', '(554433-K)', 'No 12, Jalan Merah 3,']);
  const glued = receipt(['KEDAIMAWARTRADINGSDNBHD', '(554433-K)', 'No 12, Jalan Merah 3,']);
  assert.equal(glued.data.company, 'KEDAIMAWAR TRADING SDN BHD');
  assert.ok(glued.confidence!.company < spaced.confidence!.company, `${glued.confidence!.company} < ${spaced.confidence!.company}`);
});

test('an address scores by the mean OCR confidence of its words: one unsure comma does not sink it', () => {
  const p = makePage(['KEDAI MAWAR TRADING', 'No 12 , Jalan Merah 3', 'Taman Melati 56030 Kota Baru', 'TEL: 03-1234567']);
  const words = p.words.map((w) => ({ ...w, conf: w.text === ',' ? 30 : 95 }));
  const r = extractFields({ pages: [{ ...p, source: 'ocr', words }], fields: PARTY, dateFormat: null, detectLayout: true, detectTables: false });
  assert.ok(r.confidence!.address >= 0.7, String(r.confidence!.address));
});

test("a vendor's read confidence is its own words': not another phrase of its line, nor a mark", () => {
  const fields: FieldDefinition[] = [{ name: 'vendor', type: 'text', description: 'Name of the seller issuing the invoice' }];
  const vendor = (confOf: (text: string) => number) => {
    const p = ocr([[[50, 'Blue & Heron Tools Ltd'], [400, 'INVOICE']], 'Invoice No: BH-1042', 'Invoice Date: 2024-10-18', 'Total: 120.00'], 95);
    const words = p.words.map((w) => ({ ...w, conf: confOf(w.text) }));
    const r = extractFields({ pages: [{ ...p, words }], fields, dateFormat: null, detectLayout: true, detectTables: false });
    return { value: r.data.vendor, c: r.confidence!.vendor };
  };
  const clear = vendor(() => 95);
  // The title beside the name and the ampersand read poorly: the name's letters are as sure as before.
  const doubtfulAround = vendor((t) => (t === 'INVOICE' ? 6 : t === '&' ? 20 : 95));
  assert.equal(clear.value, 'Blue & Heron Tools Ltd');
  assert.equal(doubtfulAround.value, clear.value);
  assert.equal(doubtfulAround.c, clear.c);
  // A poorly read letter of the name itself does lower it.
  assert.ok(vendor((t) => (t === 'Heron' ? 30 : 95)).c < clear.c);
});
