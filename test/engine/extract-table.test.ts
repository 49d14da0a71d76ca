import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldDefinition, SubFieldDefinition } from '../../src/api/types.js';
import { extractFields } from '../../src/engine/builtin/extract-fields.js';
import { readTable } from '../../src/engine/builtin/extract-table.js';
import { documentLines } from '../../src/engine/layout/lines.js';
import type { PageText } from '../../src/engine/types.js';
import { makePage, type FixtureLine } from './page-fixture.js';

const ITEMS: FieldDefinition & { subFields: SubFieldDefinition[] } = {
  name: 'line_items',
  type: 'table',
  subFields: [
    { name: 'description', type: 'text' },
    { name: 'quantity', type: 'number' },
    { name: 'unit_price', type: 'number' },
    { name: 'amount', type: 'number', description: 'Line total' },
  ],
};

/** The rows readTable gives for a text-layer page of these lines. */
const tableRows = (lines: FixtureLine[]) => readTable(documentLines([makePage(lines)], { detectLayout: true }), ITEMS, { ctx: { monthFirst: false }, dateFormat: null, strict: false }).rows;

const page = makePage([
  'Invoice 2041',
  [[50, 'Pos'], [80, 'Item'], [300, 'Qty'], [380, 'Unit Price'], [480, 'Amount']],
  [[50, '1'], [80, 'Blue widget'], [300, '2'], [380, '10.00'], [480, '20.00']],
  [[80, 'with long description']],
  [[50, '2'], [80, 'Red widget'], [300, '1'], [380, '1,250.00'], [480, '1,250.00']],
  [[300, 'Subtotal'], [480, '1,270.00']],
  [[300, 'Total'], [480, '1,270.00']],
]);

test('reads table rows aligned under the header words that match the subFields, a wrapped description joined', () => {
  const r = extractFields({ pages: [page], fields: [ITEMS], dateFormat: null, detectLayout: true, detectTables: false });
  assert.deepEqual(r.data.line_items, [
    { description: 'Blue widget with long description', quantity: 2, unit_price: 10, amount: 20 },
    { description: 'Red widget', quantity: 1, unit_price: 1250, amount: 1250 },
  ]);
});

test('detect_tables requires every number column of a row to be filled', () => {
  const sparse = makePage([
    [[80, 'Description'], [300, 'Quantity'], [380, 'Price'], [480, 'Amount']],
    [[80, 'Service fee'], [480, '50.00']],
    [[80, 'Widget'], [300, '3'], [380, '5.00'], [480, '15.00']],
  ]);
  const loose = extractFields({ pages: [sparse], fields: [ITEMS], dateFormat: null, detectLayout: true, detectTables: false });
  const strict = extractFields({ pages: [sparse], fields: [ITEMS], dateFormat: null, detectLayout: true, detectTables: true });
  assert.equal((loose.data.line_items as unknown[]).length, 2);
  assert.deepEqual(strict.data.line_items, [{ description: 'Widget', quantity: 3, unit_price: 5, amount: 15 }]);
});

test('gives an empty table and a missing required field when no header matches', () => {
  const r = extractFields({ pages: [makePage(['Nothing tabular here'])], fields: [{ ...ITEMS, required: true }], dateFormat: null, detectLayout: true, detectTables: false });
  assert.deepEqual(r.data.line_items, []);
  assert.deepEqual(r.missingRequired, ['line_items']);
});

test('a tax line whose rate OCR glued to the word ("Tax8%") ends the table with the subtotal above it', () => {
  const glued = makePage([
    [[80, 'Services'], [300, 'Quantity'], [380, 'Price'], [480, 'Amount']],
    [[80, 'Web hosting'], [300, '1'], [380, '$65.00'], [480, '$65.00']],
    [[80, 'Website design'], [300, '3'], [380, '$700.00'], [480, '$2,100.00']],
    [[380, 'Subtotal:'], [480, '$2,165.00']],
    [[380, 'Tax8%:'], [480, '$173.20']],
    [[380, 'Total:'], [480, '$2,338.20']],
  ]);
  const r = extractFields({ pages: [glued], fields: [ITEMS], dateFormat: null, detectLayout: true, detectTables: false });
  assert.deepEqual((r.data.line_items as { amount: number }[]).map((x) => x.amount), [65, 2100]);
});

// Line items read by readTable: headers in several languages, tables without a header, wrapped
// descriptions, rows that are not items, the row arithmetic and the table's confidence.
function read(pages: PageText[] | FixtureLine[], field = ITEMS) {
  const ps = typeof pages[0] === 'object' && !Array.isArray(pages[0]) ? (pages as PageText[]) : [makePage(pages as FixtureLine[])];
  return readTable(documentLines(ps, { detectLayout: true }), field, { ctx: { monthFirst: false }, dateFormat: null, strict: false });
}
const amounts = (rows: Record<string, unknown>[]) => rows.map((r) => r.amount);

test('a German header (Bezeichnung, Menge, Einzelpreis, Gesamt) with comma decimals gives the items', () => {
  const t = read([
    'Holzwerk Beispiel GmbH',
    [[50, 'Pos'], [80, 'Bezeichnung'], [300, 'Menge'], [380, 'Einzelpreis'], [480, 'Gesamt']],
    [[50, '1'], [80, 'Eichenbrett geölt'], [300, '2,500'], [380, '12,00'], [480, '30,00']],
    [[50, '2'], [80, 'Montage'], [300, '3'], [380, '1.250,00'], [480, '3.750,00']],
    [[300, 'Summe netto'], [480, '3.780,00']],
    [[300, 'Umsatzsteuer 19 %'], [480, '718,20']],
    [[300, 'Rechnungsbetrag'], [480, '4.498,20']],
  ]);
  assert.deepEqual(t.rows, [
    { description: 'Eichenbrett geölt', quantity: 2.5, unit_price: 12, amount: 30 },
    { description: 'Montage', quantity: 3, unit_price: 1250, amount: 3750 },
  ]);
  assert.equal(t.header, true);
  assert.equal(t.arithmetic, 1);
  assert.equal(t.confidence, 1);
});

test('a French header (Désignation, Qté, Prix unitaire, Montant) names the columns', () => {
  const t = read([
    [[50, 'Désignation'], [300, 'Qté'], [360, 'Prix unitaire'], [480, 'Montant']],
    [[50, 'Pommes bio'], [300, '4'], [360, '2,50'], [480, '10,00']],
    [[50, 'Poires'], [300, '2'], [360, '3,10'], [480, '6,20']],
    [[360, 'Total TTC'], [480, '16,20']],
  ]);
  assert.deepEqual(t.rows, [
    { description: 'Pommes bio', quantity: 4, unit_price: 2.5, amount: 10 },
    { description: 'Poires', quantity: 2, unit_price: 3.1, amount: 6.2 },
  ]);
});

test('shipping, discount and tax lines below the items are not items', () => {
  const t = read([
    [[50, 'Item'], [300, 'Qty'], [380, 'Price'], [480, 'Amount']],
    [[50, 'Garden hose'], [300, '1'], [380, '24.00'], [480, '24.00']],
    [[50, 'Watering can'], [300, '2'], [380, '8.50'], [480, '17.00']],
    [[50, 'Shipping'], [480, '5.00']],
    [[50, 'Discount'], [480, '-2.00']],
    [[300, 'VAT 20%'], [480, '8.80']],
    [[300, 'Total'], [480, '52.80']],
  ]);
  assert.deepEqual(amounts(t.rows), [24, 17]);
});

test('an amount alone under the items that is their sum is the subtotal printed without its label, not an item', () => {
  const t = read([
    [[50, 'Description'], [300, 'Qty'], [380, 'Rate'], [480, 'Amount']],
    [[50, 'Laptop stand'], [300, '1'], [380, '4,342.00'], [480, '4,342.00']],
    [[50, 'Consulting services'], [300, '2'], [380, '1,100.00'], [480, '2,200.00']],
    [[480, '6,542.00']],
    [[300, 'CGST 9%'], [480, '588.78']],
  ]);
  assert.deepEqual(amounts(t.rows), [4342, 2200]);
  // Czech tax rows under the items: "Základ DPH 21 %", "DPH 12 %".
  const czech = read([
    [[50, 'Položka'], [250, 'Počet'], [320, 'Cena'], [400, 'DPH'], [480, 'Celkem']],
    [[50, 'Mléko plnotučné 1 l'], [250, '480'], [320, '21,90'], [400, '12 %'], [480, '10 512,00']],
    [[50, 'Máslo 82 % 250 g'], [250, '160'], [320, '46,50'], [400, '12 %'], [480, '7 440,00']],
    [[50, 'Základ DPH 12 %'], [480, '17 952,00']],
    [[50, 'DPH 12 %'], [480, '2 154,24']],
    [[50, 'Celkem s DPH'], [480, '20 106,24']],
  ]);
  assert.deepEqual(amounts(czech.rows), [10512, 7440]);
  // ... or with a word no vocabulary knows ("Goods", "Suma").
  for (const word of ['Goods', 'Suma']) {
    const labelled = read([
      [[50, 'Description'], [300, 'Qty'], [380, 'Rate'], [480, 'Amount']],
      [[50, 'Laptop stand'], [300, '1'], [380, '4,342.00'], [480, '4,342.00']],
      [[50, 'Consulting services'], [300, '2'], [380, '1,100.00'], [480, '2,200.00']],
      [[50, word], [480, '6,542.00']],
      [[300, 'VAT 20%'], [480, '1,308.40']],
    ]);
    assert.deepEqual(amounts(labelled.rows), [4342, 2200], word);
  }
});

test('"Ext. Price" is one amount column, "Item No." a code column beside the description, and totals beside a text block end the table', () => {
  const t = read([
    [[40, 'Item No.'], [110, 'Description'], [330, 'Qty Ord'], [390, 'Qty Shp'], [450, 'Unit Price'], [530, 'Ext. Price']],
    [[40, 'B3223-67'], [110, 'Graphic design - logo refresh'], [366, '1'], [426, '1'], [462, '1,639.00'], [542, '1,639.00']],
    [[40, 'A3276-95'], [110, 'Toner cartridge'], [360, '18'], [420, '18'], [480, '29.50'], [554, '531.00']],
    [[40, 'Remit To:'], [330, 'Merchandise'], [536, '$2,170.00']],
    [[40, 'Lakeside Cleaning Services Corp.'], [330, 'Shipping'], [554, '$25.00']],
    [[40, 'Denver, CO 80202'], [330, 'Sales Tax 7%'], [548, '$151.90']],
  ]);
  assert.deepEqual(
    t.rows.map((r) => [r.description, r.amount]),
    [
      ['Graphic design - logo refresh', 1639],
      ['Toner cartridge', 531],
    ],
  );
});

test('a table without a header: an item named with a charge word, multiplied out in its text or summed into the subtotal, is an item', () => {
  const t = read([
    'Invoice number: INV-2197',
    [[50, 'Cat6 patch cable 2m (196 x $3.24)'], [452, '$635.04']],
    [[50, 'Courier - same day delivery (6 x $57.50)'], [452, '$345.00']],
    [[50, 'Delivery and setup'], [458, '$29.00']],
    [[300, 'Subtotal'], [440, '$1,009.04']],
    [[300, 'Shipping'], [458, '$15.00']],
    [[300, 'Total due'], [440, '$1,024.04']],
  ]);
  assert.deepEqual(amounts(t.rows), [635.04, 345, 29]);
});

test('an item named with a charge word is an item when its quantity times unit price is its amount', () => {
  const t = read([
    [[50, 'Description'], [300, 'Qty'], [380, 'Unit Price'], [480, 'Amount']],
    [[50, 'Delivery and setup'], [300, '1'], [380, '76.50'], [480, '76.50']],
    [[50, 'Ergonomic office chair'], [300, '6'], [380, '302.00'], [480, '1,812.00']],
    [[50, 'Shipping'], [480, '15.00']],
    [[300, 'Total'], [480, '1,903.50']],
  ]);
  assert.deepEqual(amounts(t.rows), [76.5, 1812]);
});

test('a line of text alone under an item continues its description; a section heading does not', () => {
  const t = read([
    [[50, 'Description'], [300, 'Qty'], [380, 'Unit price'], [480, 'Total']],
    [[50, '--- Tools ---']],
    [[50, 'Cordless drill 18 V'], [300, '1'], [380, '89.00'], [480, '89.00']],
    [[50, 'with two batteries and case']],
    [[50, 'Drill bits, set of 10'], [300, '2'], [380, '6.50'], [480, '13.00']],
  ]);
  assert.deepEqual(
    t.rows.map((r) => r.description),
    ['Cordless drill 18 V with two batteries and case', 'Drill bits, set of 10'],
  );
});

test('a table without a header line is found by its amounts at one right edge; indented breakdown lines are not items', () => {
  // Amounts right-aligned, as printed.
  const t = read([
    'Cloudy Hosting Ltd. statement',
    [[40, 'Detail']],
    [[50, 'Object storage'], [530, '$3.20']],
    [[60, 'Charges'], [530, '$3.20']],
    [[60, 'VAT'], [530, '$0.00']],
    [[50, 'Virtual machines'], [524, '$41.75']],
    [[60, 'Charges'], [524, '$41.75']],
    [[50, 'Backup'], [530, '$1.05']],
    [[40, 'Total for this invoice'], [524, '$46.00']],
  ]);
  assert.deepEqual(t.rows, [
    { description: 'Object storage', quantity: null, unit_price: null, amount: 3.2 },
    { description: 'Virtual machines', quantity: null, unit_price: null, amount: 41.75 },
    { description: 'Backup', quantity: null, unit_price: null, amount: 1.05 },
  ]);
  assert.equal(t.header, false);
  assert.ok(t.confidence < 0.5, `a table without header is less sure: ${t.confidence}`);
});

test('a receipt without a header gives its items and none of its total, tax, cash and change lines', () => {
  const t = read([
    'KEDAI RUNCIT CONTOH',
    'Tel 03-1234 5678',
    [[50, 'Milk 1L'], [200, '2'], [260, '3.50'], [330, '7.00']],
    [[50, 'Bread'], [200, '1'], [260, '2.80'], [330, '2.80']],
    [[50, 'Eggs 10'], [200, '1'], [260, '5.20'], [330, '5.20']],
    [[50, 'TOTAL'], [330, '15.00']],
    [[50, 'GST 6%'], [330, '0.85']],
    [[50, 'CASH'], [330, '20.00']],
    [[50, 'CHANGE'], [330, '5.00']],
  ]);
  assert.deepEqual(t.rows, [
    { description: 'Milk 1L', quantity: 2, unit_price: 3.5, amount: 7 },
    { description: 'Bread', quantity: 1, unit_price: 2.8, amount: 2.8 },
    { description: 'Eggs 10', quantity: 1, unit_price: 5.2, amount: 5.2 },
  ]);
  assert.equal(t.arithmetic, 1);
});

test('the column whose numbers are quantity × unit price is the amount, whatever its header says', () => {
  // "EP" (unit price) and "Preis" both read as prices; "Preis" holds the line totals.
  const t = read([
    [[50, 'Stk'], [90, 'Artikel'], [380, 'EP'], [480, 'Preis']],
    [[50, '3'], [90, 'Tee'], [380, '2,40'], [480, '7,20']],
    [[50, '1'], [90, 'Kuchen'], [380, '3,90'], [480, '3,90']],
  ]);
  assert.deepEqual(t.rows, [
    { description: 'Tee', quantity: 3, unit_price: 2.4, amount: 7.2 },
    { description: 'Kuchen', quantity: 1, unit_price: 3.9, amount: 3.9 },
  ]);
});

test('a barcode or article number in the quantity column is not a quantity', () => {
  const t = read([
    [[50, 'Description'], [300, 'Qty'], [380, 'Price'], [480, 'Amount']],
    [[50, 'Paint white 5 l'], [290, '4006381333931'], [380, '19.90'], [480, '19.90']],
    [[50, 'Brush'], [300, '2'], [380, '3.45'], [480, '6.90']],
  ]);
  assert.deepEqual(
    t.rows.map((r) => r.quantity),
    [null, 2],
  );
});

test('rows that do not add up lower the confidence', () => {
  const t = read([
    [[50, 'Item'], [300, 'Qty'], [380, 'Price'], [480, 'Amount']],
    [[50, 'Lamp'], [300, '2'], [380, '10.00'], [480, '35.00']],
    [[50, 'Shade'], [300, '1'], [380, '4.00'], [480, '9.00']],
  ]);
  assert.equal(t.rows.length, 2);
  assert.equal(t.arithmetic, 0);
  assert.ok(t.confidence <= 0.5, `confidence ${t.confidence}`);
  assert.deepEqual(read(['Nothing tabular here']), { rows: [], confidence: 0, header: false, arithmetic: null });
});

test('a table over two pages with its header repeated gives the rows of both pages once', () => {
  const head: FixtureLine = [[50, 'Description'], [300, 'Qty'], [380, 'Price'], [480, 'Amount']];
  const p1 = makePage(['Invoice 77 - Lumber Yard Example', head, [[50, 'Plank A'], [300, '1'], [380, '5.00'], [480, '5.00']], [[50, 'Plank B'], [300, '2'], [380, '5.00'], [480, '10.00']]], 1);
  const p2 = makePage(['Invoice 77 - page 2', head, [[50, 'Plank C'], [300, '3'], [380, '5.00'], [480, '15.00']], [[300, 'Total'], [480, '30.00']]], 2);
  assert.deepEqual(amounts(read([p1, p2]).rows), [5, 10, 15]);
});

test('a discount line under the items (negative, without quantity) and totals OCR split or misread ("Tota l", "Totai") are not items', () => {
  const t = read([
    [[50, 'Desc/Item'], [200, 'Qty'], [260, 'Price'], [330, 'Amount']],
    [[50, 'Table lamp'], [200, '1'], [260, '55.90'], [330, '55.90']],
    [[110, 'DISC 10.00%'], [330, '-5.59']],
    [[50, 'Tota l'], [330, '50.31']],
    [[50, 'Totai Arnount'], [330, '50.31']],
  ]);
  assert.deepEqual(amounts(t.rows), [55.9]);
});

test('OCR header words misread by one letter ("ltem", "AMOUNI") still name their columns', () => {
  const page = makePage([
    [[50, 'ltem'], [200, 'Qty'], [260, 'Price'], [330, 'AMOUNI']],
    [[50, 'Spark plug'], [200, '2'], [260, '8.00'], [330, '16.00']],
    [[50, 'Engine oil'], [200, '1'], [260, '10.00'], [330, '10.00']],
  ]);
  for (const w of page.words) w.conf = 90;
  const t = read([page]);
  assert.deepEqual(t.rows, [
    { description: 'Spark plug', quantity: 2, unit_price: 8, amount: 16 },
    { description: 'Engine oil', quantity: 1, unit_price: 10, amount: 10 },
  ]);
  assert.equal(t.header, true);
});

test('a "Unit price" header is one column even where the rows do not add up (no arithmetic to repair it)', () => {
  const t = read([
    [[50, 'Description'], [300, 'Qty'], [380, 'Unit price'], [480, 'Amount']],
    [[50, 'Bolts'], [300, '4'], [380, '2.50'], [480, '11.00']],
    [[50, 'Washers'], [300, '10'], [380, '0.20'], [480, '3.50']],
  ]);
  assert.deepEqual(t.rows.map((r) => r.unit_price), [2.5, 0.2]);
  assert.equal(t.arithmetic, 0);
});

test('item text between a quantity header and a centred description header is the description, numbers in it included', () => {
  const t = read([
    [[58, 'QUANTITY'], [240, 'DESCRIPTION'], [425, 'UNIT PRICE'], [518, 'TOTAL']],
    [[42, '1'], [136, 'Annual support for 23 sites'], [470, '40.00'], [530, '$40.00']],
    [[42, '2'], [136, 'On-site visit'], [470, '30.00'], [530, '$60.00']],
  ]);
  assert.deepEqual(t.rows, [
    { description: 'Annual support for 23 sites', quantity: 1, unit_price: 40, amount: 40 },
    { description: 'On-site visit', quantity: 2, unit_price: 30, amount: 60 },
  ]);
});

test("a receipt that prints each item's name above its code and numbers gives the name to the row below it", () => {
  // (A section heading over items with their own names stays out of them: the test of text lines above.)
  const t = read([
    [[50, 'Desc/Item'], [250, 'Qty'], [320, 'Price'], [400, 'Amt']],
    [[50, 'TABLE LAMP STITCH']],
    [[50, '62483'], [250, '1'], [320, '55.90'], [400, '55.90']],
    [[50, 'PRIVILEGE CARD']],
    [[50, '88888'], [250, '2'], [320, '5.00'], [400, '10.00']],
    [[50, 'TOTAL'], [400, '65.90']],
  ]);
  assert.deepEqual(t.rows, [
    { description: 'TABLE LAMP STITCH 62483', quantity: 1, unit_price: 55.9, amount: 55.9 },
    { description: 'PRIVILEGE CARD 88888', quantity: 2, unit_price: 5, amount: 10 },
  ]);
});

test('"Prix unit." is the unit price column, not a quantity; "Qté" is the quantity', () => {
  const t = read([
    [[50, 'Désignation'], [300, 'Qté'], [380, 'Prix unit. HT'], [480, 'Montant HT']],
    [[50, 'Pose de carrelage'], [300, '12'], [380, '45,00 €'], [480, '540,00 €']],
    [[50, 'Fourniture joints'], [300, '3'], [380, '12,50 €'], [480, '37,50 €']],
    [[380, 'Total HT'], [480, '577,50 €']],
  ]);
  assert.deepEqual(t.rows, [
    { description: 'Pose de carrelage', quantity: 12, unit_price: 45, amount: 540 },
    { description: 'Fourniture joints', quantity: 3, unit_price: 12.5, amount: 37.5 },
  ]);
});

test('a count times a price printed under an item ("2 × $111.00", "2 x 0,99") gives its quantity and unit price', () => {
  const rowsOf = (lines: FixtureLine[]) => extractFields({ pages: [makePage(lines)], fields: [ITEMS], dateFormat: null, detectLayout: true, detectTables: false }).data.line_items;
  // Without a header, as point-of-sale apps print their receipts and invoices: the breakdown keeps the run of items going.
  assert.deepEqual(
    rowsOf([
      'Blue Harbor Coffee Roasters',
      '',
      [[40, 'Widget Pro'], [480, '$222.00']],
      [[40, '2 × $111.00']],
      [[40, 'Setup fee'], [486, '$50.00']],
      [[40, '1 × $50.00']],
      [[40, 'Loose tea'], [492, '$9.00']],
      [[40, '0.75 kg @ $12.00/kg']],
      [[300, 'Subtotal'], [480, '$281.00']],
      [[300, 'Total'], [480, '$281.00']],
    ]),
    [
      { description: 'Widget Pro', quantity: 2, unit_price: 111, amount: 222 },
      { description: 'Setup fee', quantity: 1, unit_price: 50, amount: 50 },
      { description: 'Loose tea', quantity: 0.75, unit_price: 12, amount: 9 },
    ],
  );
  // Under a header with no count or price columns.
  assert.deepEqual(
    rowsOf([
      [[50, 'Artikel'], [400, 'Betrag']],
      [[50, 'Milch 1,5%'], [406, '1,98']],
      [[60, '2 x 0,99']],
      [[50, 'Brot'], [406, '2,49']],
      [[50, 'Summe'], [406, '4,47']],
    ]),
    [
      { description: 'Milch 1,5%', quantity: 2, unit_price: 0.99, amount: 1.98 },
      { description: 'Brot', quantity: null, unit_price: null, amount: 2.49 },
    ],
  );
  // A line of other figures under an item is no breakdown of it.
  assert.deepEqual((rowsOf([[[50, 'Artikel'], [400, 'Betrag']], [[50, 'Milch'], [406, '1,98']], [[60, '3 x 0,99']], [[50, 'Summe'], [406, '1,98']]]) as unknown[])[0], {
    description: 'Milch 3 x 0,99',
    quantity: null,
    unit_price: null,
    amount: 1.98,
  });
});

test('totals printed as a row of labels over a row of amounts end the table; the footer under them adds no rows', () => {
  const lines: FixtureLine[] = [
    [[50, 'Beskrivelse'], [280, 'Antal'], [360, 'Stk. pris'], [480, 'Beløb']],
    [[50, 'Udskiftning af tagvinduer'], [290, '1'], [360, '9.090,00'], [480, '9.090,00']],
    [[50, 'Tømrerarbejde'], [290, '16'], [366, '510,00'], [480, '8.160,00']],
    [[50, 'Subtotal'], [200, 'Moms 25 %'], [380, 'I alt at betale']],
    [[50, '17.250,00'], [200, '4.312,50'], [380, '21.562,50 DKK']],
    [[50, 'Skovgaard Tømrer ApS'], [250, 'Tlf. 33 22 18 47'], [400, 'Danske Bank']],
    [[50, 'Vesterbrogade 149'], [250, 'kontor@skovgaard.dk'], [400, 'Kontonr. 0011874471']],
  ];
  const rows = extractFields({ pages: [makePage(lines)], fields: [ITEMS], dateFormat: null, detectLayout: true, detectTables: false }).data.line_items as { amount: number }[];
  assert.deepEqual(rows.map((r) => r.amount), [9090, 8160]);
});

test('a page number at the foot of a page ("Page 1 of 2") is no item, and the table goes on over the page', () => {
  const p1 = makePage([
    [[50, 'Description'], [300, 'Qty'], [380, 'Unit Price'], [480, 'Amount']],
    [[50, 'Copy paper A4'], [300, '5'], [380, '5.55'], [480, '27.75']],
    [[50, 'Toner TN-2420'], [300, '1'], [380, '64.95'], [480, '64.95']],
    [[480, 'Page 1 of 2']],
  ]);
  const p2 = makePage([[[50, 'Office chair'], [300, '1'], [380, '145.50'], [480, '145.50']], [[300, 'Total'], [480, '238.20']]], 2);
  const rows = extractFields({ pages: [p1, p2], fields: [ITEMS], dateFormat: null, detectLayout: true, detectTables: false }).data.line_items as { amount: number }[];
  assert.deepEqual(rows.map((r) => r.amount), [27.75, 64.95, 145.5]);
});

test('shipping after the subtotal and a sum carried to the next page, in French and Italian, are no items', () => {
  const fr = read([
    [[50, 'Désignation'], [300, 'Qté'], [360, 'Prix unitaire'], [480, 'Montant']],
    [[50, 'Cahiers A5'], [300, '10'], [360, '2,50'], [480, '25,00']],
    [[50, 'Stylos bille'], [300, '20'], [360, '0,80'], [480, '16,00']],
    [[300, 'Sous-total HT'], [480, '41,00']],
    [[300, 'Frais de port'], [480, '6,90']],
    [[300, 'TVA 20 %'], [480, '9,58']],
  ]);
  assert.deepEqual(amounts(fr.rows), [25, 16]);
  const it = read([
    [[50, 'Descrizione'], [300, 'Q.tà'], [360, 'Prezzo'], [480, 'Importo']],
    [[50, 'Guanti da lavoro'], [300, '12'], [360, '3,50'], [480, '42,00']],
    [[300, 'A riportare'], [480, '42,00']],
    [[300, 'Spese di spedizione'], [480, '9,00']],
  ]);
  assert.deepEqual(amounts(it.rows), [42]);
});

test('amounts grouped by spaces ("17 820.00") are read whole, though the group before the space stands under another header word', () => {
  // Word boxes as a PDF's text layer gives them: the thousands space is narrow (2 pt at 9 pt text).
  const row = (y: number, cells: [string, number, number][]) => cells.map(([text, x0, x1]) => ({ text, x0, x1, y0: y, y1: y + 9 }));
  const za: PageText = {
    page: 1,
    width: 595,
    height: 842,
    source: 'text',
    words: [
      ...row(100, [['Code', 51, 71], ['Description', 113, 157], ['Qty', 399, 412], ['Excl.', 434, 453], ['Price', 455, 475], ['Excl.', 506, 525], ['Total', 527, 546]]),
      ...row(116, [['DRP-16', 51, 80], ['Dripline', 113, 142], ['16', 144, 154], ['mm', 156, 170], ['12', 403, 412], ['1', 441, 446], ['485.00', 448, 474], ['17', 506, 516], ['820.00', 518, 544]]),
      ...row(131, [['PVC-50', 51, 80], ['PVC', 113, 130], ['pipe', 133, 149], ['40', 403, 412], ['168.90', 448, 474], ['6', 511, 516], ['756.00', 518, 544]]),
      ...row(156, [['Total', 400, 420], ['Excl.', 423, 442], ['VAT', 445, 462], ['24', 501, 511], ['576.00', 513, 544]]),
    ],
  };
  const r = extractFields({ pages: [za], fields: [ITEMS], dateFormat: null, detectLayout: true, detectTables: false });
  assert.deepEqual(r.data.line_items, [
    { description: 'Dripline 16 mm', quantity: 12, unit_price: 1485, amount: 17820 },
    { description: 'PVC pipe', quantity: 40, unit_price: 168.9, amount: 6756 },
  ]);
});

test('a header printed over two lines ("Cena / netto", "Wartość / brutto") heads the rows under its second line', () => {
  const pl = makePage([
    [[70, 'Nazwa'], [260, 'Ilość'], [310, 'Cena'], [360, 'Wartość'], [430, 'VAT'], [480, 'Wartość']],
    [[310, 'netto'], [372, 'netto'], [486, 'brutto']],
    [[70, 'Druk przewodnika'], [260, '1500'], [310, '9,40'], [360, '14 100,00'], [430, '5 %'], [480, '14 805,00']],
    [[70, 'Plakaty B2'], [266, '300'], [310, '3,20'], [372, '960,00'], [430, '23 %'], [480, '1 180,80']],
    [[310, 'Razem netto'], [480, '15 060,00']],
  ]);
  const r = extractFields({ pages: [pl], fields: [ITEMS], dateFormat: null, detectLayout: true, detectTables: false });
  assert.deepEqual(r.data.line_items, [
    { description: 'Druk przewodnika', quantity: 1500, unit_price: 9.4, amount: 14100 },
    { description: 'Plakaty B2', quantity: 300, unit_price: 3.2, amount: 960 },
  ]);
});

test('tax rows named in other languages or with full stops (TPS, TVQ, ISS, I.V.A.) are no items', () => {
  const qc = read([
    [[50, 'Désignation'], [300, 'Qté'], [360, 'Prix unitaire'], [480, 'Total']],
    [[50, 'Formation bureautique'], [300, '3'], [360, '1 455,00'], [480, '4 365,00']],
    [[50, 'Maintenance annuelle'], [300, '1'], [360, '576,50'], [480, '576,50']],
    [[300, 'Montant HT'], [480, '4 941,50']],
    [[50, 'TPS (5 %)'], [480, '247,08']],
    [[50, 'TVQ (9,975 %)'], [480, '492,91']],
  ]);
  assert.deepEqual(amounts(qc.rows), [4365, 576.5]);
  const cl = read([
    [[50, 'Descripción'], [300, 'Cantidad'], [360, 'Precio'], [480, 'Valor']],
    [[50, 'Alquiler de andamio'], [300, '4'], [360, '108.000'], [480, '432.000']],
    [[50, 'Mantenimiento de ascensores'], [300, '12'], [360, '210.000'], [480, '2.520.000']],
    [[300, 'Monto Neto'], [480, '2.952.000']],
    [[50, 'I.V.A. 19%'], [480, '560.880']],
  ]);
  assert.deepEqual(amounts(cl.rows), [432000, 2520000]);
  const br = read([
    [[50, 'Designação'], [300, 'Quantidade'], [360, 'Preço unit.'], [480, 'Total']],
    [[50, 'Consultoria informática'], [300, '12'], [360, '282,00'], [480, '3.384,00']],
    [[50, 'Deslocação'], [300, '1'], [360, '216,50'], [480, '216,50']],
    [[300, 'Subtotal'], [480, '3.600,50']],
    [[50, 'ISS 5%'], [480, '180,03']],
  ]);
  assert.deepEqual(amounts(br.rows), [3384, 216.5]);
});

test('an article number column ("Artikelnr.") is no description, and the table goes on under its header repeated on the next page', () => {
  const header: FixtureLine = [[50, 'Pos'], [80, 'Artikelnr.'], [150, 'Leistung'], [300, 'Anzahl'], [360, 'Preis/Einh.'], [480, 'Gesamt']];
  const p1 = makePage([
    header,
    [[50, '1'], [80, 'A11262'], [150, 'Monteurstunden'], [300, '3'], [360, '86,20'], [480, '258,60']],
    [[50, '2'], [80, 'A37963'], [150, 'Schutzhandschuhe'], [300, '14'], [360, '15,00'], [480, '210,00']],
    [[300, 'Übertrag'], [480, '468,60']],
  ]);
  const p2 = makePage([
    header,
    [[300, 'Übertrag'], [480, '468,60']],
    [[50, '3'], [80, 'A47753'], [150, 'Kupferrohr 22 mm'], [300, '120'], [360, '15,10'], [480, '1.812,00']],
    [[300, 'Nettobetrag'], [480, '2.280,60']],
    [[300, '19 % USt.'], [480, '433,31']],
  ], 2);
  const rows = extractFields({ pages: [p1, p2], fields: [ITEMS], dateFormat: null, detectLayout: true, detectTables: false }).data.line_items as { description: string; unit_price: number; amount: number }[];
  assert.deepEqual(rows.map((r) => [r.description, r.unit_price, r.amount]), [
    ['Monteurstunden', 86.2, 258.6],
    ['Schutzhandschuhe', 15, 210],
    ['Kupferrohr 22 mm', 15.1, 1812],
  ]);
});

test('tables headed and taxed in Latvian, Slovene and Icelandic: their header words, and PVN, DDV and VSK rows no items', () => {
  const lv = read([
    [[50, 'Nosaukums'], [300, 'Daudzums'], [370, 'Cena'], [480, 'Summa']],
    [[50, 'Priedes dēļi 50x150'], [300, '12'], [370, '18,40'], [480, '220,80']],
    [[50, 'Piegāde'], [300, '1'], [370, '45,00'], [480, '45,00']],
    [[300, 'Kopā bez PVN'], [480, '265,80']],
    [[300, 'PVN 21%'], [480, '55,82']],
  ]);
  assert.deepEqual(amounts(lv.rows), [220.8, 45]);
  const si = read([
    [[50, 'Opis'], [300, 'Količina'], [370, 'Cena'], [480, 'Znesek']],
    [[50, 'Svetovanje'], [300, '4'], [370, '85,00'], [480, '340,00']],
    [[300, 'DDV 22 %'], [480, '74,80']],
  ]);
  assert.deepEqual(amounts(si.rows), [340]);
  const is = read([
    [[50, 'Lýsing'], [300, 'Magn'], [370, 'Einingarverð'], [480, 'Upphæð']],
    [[50, 'Ljósastaur'], [300, '3'], [370, '18.900'], [480, '56.700']],
    [[50, 'Uppsetning'], [300, '2'], [370, '15.340'], [480, '30.680']],
    [[300, 'VSK 24%'], [480, '20.971']],
  ]);
  assert.deepEqual(amounts(is.rows), [56700, 30680]);
});

test("a description keeps its own figures; a carriage row run into a footer and a routing number in a note under the table are no items", () => {
  const lines: FixtureLine[] = [
    'Thornbury Catering Supplies Ltd   Invoice TCS-2024-118',
    [[50, 'Description'], [380, 'Qty'], [430, 'Rate'], [500, 'Amount']],
    [[50, 'Chopping board 450 × 300 × 12 mm, red'], [380, '6.00'], [430, '9.20'], [500, '55.20']],
    [[50, 'Nitrile gloves, size M (box of 100)'], [380, '30.00'], [430, '4.15'], [500, '124.50']],
    [[50, 'Project calls (May 6, 13, 20 and 28)'], [380, '3.25'], [430, '85.00'], [500, '276.25']],
    [[300, 'Subtotal'], [500, '455.95']],
    [[50, 'Thornbury Catering Supplies Ltd · Sort code 30-96-41 · Account Carriage'], [500, '15.00']],
    [[300, 'TOTAL DUE'], [500, '$470.95']],
    'Payment details',
    [[50, 'Please pay by ACH within 15 days. ACH: First Harbor Credit Union, routing 323075882,']],
    'account 0048817730. A 1.5% monthly late fee applies to balances over 30 days.',
  ];
  const rows = tableRows(lines);
  assert.deepEqual(rows.map((r) => r.amount), [55.2, 124.5, 276.25]);
  assert.deepEqual(rows.map((r) => r.description), ['Chopping board 450 × 300 × 12 mm, red', 'Nitrile gloves, size M (box of 100)', 'Project calls (May 6, 13, 20 and 28)']);
  assert.deepEqual(rows.map((r) => r.quantity), [6, 30, 3.25]);
});

test('a quantity printed with decimals is a count, however many digits ("2.000,00 Unidades"), beside a tax column', () => {
  const lines: FixtureLine[] = [
    'Talleres Gráficos Albaicín S.L.   Factura FACT/2024/00342',
    [[50, 'Descripción'], [290, 'Cantidad'], [345, 'Precio unitario'], [425, 'Impuestos'], [505, 'Importe']],
    [[50, 'Impresión catálogo A4'], [260, '500,00 Unidades'], [385, '3,42'], [430, 'IVA 21%'], [505, '1.710,00 €']],
    [[50, 'Folletos tríptico A4'], [250, '2.000,00 Unidades'], [380, '0,185'], [430, 'IVA 21%'], [505, '370,00 €']],
    [[50, 'Tarjetas de visita'], [268, '4,00 Unidades'], [380, '22,50'], [430, 'IVA 21%'], [505, '90,00 €']],
    [[330, 'Base imponible'], [505, '2.170,00 €']],
    [[330, 'Total'], [505, '2.625,70 €']],
  ];
  const rows = tableRows(lines);
  assert.deepEqual(rows.map((r) => [r.quantity, r.unit_price, r.amount]), [[500, 3.42, 1710], [2000, 0.185, 370], [4, 22.5, 90]]);
});

test('an item whose description ends "(no VAT)" is an item, not a tax row', () => {
  const lines: FixtureLine[] = [
    'Ashcombe Whitley LLP   Invoice AW/24/0918',
    [[50, 'Description'], [500, 'Amount']],
    [[50, 'Partner – 3.2 hours at £320.00 per hour'], [500, '£1,024.00']],
    [[50, 'HM Land Registry registration fee (no VAT)'], [500, '£150.00']],
    [[50, 'Local authority and drainage searches (no VAT)'], [500, '£312.40']],
    [[300, 'Total'], [500, '£1,486.40']],
  ];
  const rows = tableRows(lines);
  assert.deepEqual(rows.map((r) => r.amount), [1024, 150, 312.4]);
});

test('a code column headed over two lines ("Codice" / "articolo") is no description: the "Descrizione" column is', () => {
  const rows = tableRows([
    [[40, 'Codice'], [110, 'Descrizione'], [330, 'Quantità'], [400, 'Prezzo'], [480, 'Prezzo']],
    [[40, 'articolo'], [400, 'unitario'], [480, 'totale']],
    [[40, 'FL-316-80'], [110, 'Lavorazione flange inox'], [340, '40,00'], [400, '37,5000'], [480, '1.500,00']],
    [[40, 'AL-060R'], [110, 'Albero di trasmissione'], [340, '6,00'], [400, '284,0000'], [480, '1.704,00']],
  ]);
  assert.deepEqual(rows.map((r) => [r.description, r.quantity, r.amount]), [
    ['Lavorazione flange inox', 40, 1500],
    ['Albero di trasmissione', 6, 1704],
  ]);
});

test('Swedish items under "Benämning", and totals printed as a row of boxes over their amounts, with or without a known description header', () => {
  const table = (descHeader: string) =>
    tableRows([
      [[50, 'Art.nr'], [90, descHeader], [300, 'Antal'], [335, 'Enh'], [386, 'À-pris'], [432, 'Moms'], [512, 'Belopp']],
      [[50, '1010'], [90, 'Konferenslunch'], [300, '46'], [335, 'st'], [386, '129,00'], [432, '12 %'], [512, '5 934,00']],
      [[50, '9000'], [90, 'Transport och utkörning'], [300, '1'], [335, 'st'], [386, '850,00'], [432, '25 %'], [512, '850,00']],
      [[90, 'Netto'], [180, 'Moms 12 %'], [260, 'Moms 25 %'], [340, 'Öresavrundning'], [470, 'ATT BETALA SEK']],
      [[90, '6 784,00'], [180, '712,08'], [260, '212,50'], [340, '-0,58'], [470, '7 708,00']],
    ]);
  assert.deepEqual(table('Benämning').map((r) => [r.description, r.amount]), [['Konferenslunch', 5934], ['Transport och utkörning', 850]]);
  assert.deepEqual(table('Specifikation').map((r) => r.amount), [5934, 850]);
});

test('amounts alone under the items that together sum them are a recap by kind, no items; one such amount that sums nothing is an item', () => {
  const items: FixtureLine[] = [
    [[50, 'Date'], [100, 'Description of Services'], [330, 'Hours'], [400, 'Rate'], [480, 'Amount']],
    [[50, '11/04/24'], [100, 'Discovery workshop'], [330, '6.00'], [400, '165.00'], [480, '990.00']],
    [[50, '11/06/24'], [100, 'Database schema design'], [330, '8.50'], [400, '165.00'], [480, '1,402.50']],
    [[50, '11/29/24'], [100, 'Cloud hosting pass-through'], [330, '1'], [400, 'pass-through'], [480, '412.38']],
  ];
  const recap: FixtureLine[] = [
    [[100, 'Professional services'], [480, '$2,392.50']],
    [[100, 'Pass-through expenses'], [480, '$412.38']],
    [[100, 'Total this invoice'], [480, '$2,804.88']],
  ];
  assert.deepEqual(tableRows([...items, ...recap]).map((r) => r.amount), [990, 1402.5, 412.38]);
  const notRecap: FixtureLine[] = [[[100, 'Site visit'], [480, '$150.00']], [[100, 'Travel'], [480, '$42.00']], [[100, 'Total this invoice'], [480, '$2,996.88']]];
  assert.deepEqual(tableRows([...items, ...notRecap]).map((r) => r.amount), [990, 1402.5, 412.38, 150, 42]);
});

test('a discount or rate header run on from the unit price\'s ("Preço Unit. Desc.%") is a column of its own', () => {
  const rows = tableRows([
    [[50, 'Artigo'], [92, 'Descrição'], [297, 'Qtd.'], [327, 'Un. Preço Unit. Desc.%'], [459, 'IVA'], [521, 'Valor']],
    [[50, 'DTR19'], [92, 'Douro DOC Tinto Reserva 2019'], [293, '60,00'], [327, 'UN'], [371, '14,200'], [422, '0,00'], [457, '13%'], [516, '852,00']],
    [[50, 'PT10A'], [92, 'Vinho do Porto Tawny 10 Anos'], [293, '36,00'], [327, 'UN'], [371, '22,500'], [422, '0,00'], [457, '13%'], [516, '810,00']],
  ]);
  assert.deepEqual(rows.map((r) => [r.quantity, r.unit_price, r.amount]), [[60, 14.2, 852], [36, 22.5, 810]]);
});

test('notes under an item that name its parts or labour ("Parts: 1 x cap") do not end the table', () => {
  const rows = tableRows([
    [[50, 'Item'], [300, 'Quantity'], [380, 'Rate'], [480, 'Amount']],
    [[50, 'Service A'], [300, '12'], [380, '$10.00'], [480, '$120.00']],
    [[60, 'Parts: 1 x cap_a']],
    [[60, 'Labour: 2 h']],
    [[50, 'Service B'], [300, '5'], [380, '$1.50'], [480, '$7.50']],
    [[300, 'Total:'], [480, '$127.50']],
  ]);
  assert.deepEqual(rows.map((r) => r.amount), [120, 7.5]);
});

test('a charge added under the items ("zzgl. Anfahrtspauschale") and a discount beside an amount in words ("… M.N.) Descuento") are no items', () => {
  const header: FixtureLine = [[50, 'Pos.'], [80, 'Bezeichnung'], [330, 'Menge'], [400, 'Einzelpreis'], [490, 'Gesamt']];
  const de = tableRows([
    header,
    [[50, '1'], [80, 'Gas-Brennwerttherme 25 kW'], [330, '1'], [400, '4.890,00'], [490, '4.890,00']],
    [[50, '2'], [80, 'Umwälzpumpe 25-60'], [330, '2'], [400, '389,00'], [490, '778,00']],
    [[80, 'zzgl. Anfahrtspauschale (6 Anfahrten à € 28,00)'], [490, '168,00']],
    [[400, 'Nettobetrag'], [490, '5.836,00']],
  ]);
  assert.deepEqual(de.map((r) => r.amount), [4890, 778]);
  const mx = tableRows([
    [[50, 'Cantidad'], [120, 'Descripción'], [400, 'Precio unitario'], [490, 'Importe']],
    [[50, '12'], [120, 'Válvula de bola 1" NPT'], [400, '$1,245.00'], [490, '$14,940.00']],
    [[50, '20'], [120, 'Tornillo hexagonal grado 8'], [400, '$386.50'], [490, '$7,730.00']],
    [[50, '(VEINTIDOS MIL SEISCIENTOS SETENTA PESOS 00/100 M.N.) Descuento'], [490, '$2,796.00']],
    [[400, 'Subtotal'], [490, '$19,874.00']],
  ]);
  assert.deepEqual(mx.map((r) => r.amount), [14940, 7730]);
});

test('a tax word after a qualifier is more of the amount\'s header ("Totaal excl. btw"); transport costs under the items are a charge', () => {
  const rows = tableRows([
    [[51, 'Artikelnr.'], [103, 'Omschrijving'], [285, 'Aantal'], [321, 'Eenheidsprijs'], [390, 'Korting'], [440, 'BTW'], [473, 'Totaal excl. btw']],
    [[51, '40-1310'], [103, 'Draagverpakking 6-pack'], [290, '5.000'], [340, '0,420'], [400, '5 %'], [440, '21 %'], [514, '1.995,00']],
    [[51, '55-0020'], [103, 'Stretchfolie 23 μm, rol 500 m'], [300, '24'], [345, '18,90'], [440, '21 %'], [520, '453,60']],
    [[103, 'Transportkosten (levering Dendermonde)'], [440, '21 %'], [526, '65,00']],
    [[380, 'Totaal excl. btw'], [500, '€ 2.513,60']],
  ]);
  assert.deepEqual(rows.map((r) => r.amount), [1995, 453.6]);
});

test('tables headed in Turkish and Hungarian: "Mal Hizmet | Miktar | Birim Fiyat | Tutarı", "Megnevezés | Mennyiség | Egységár | Érték"', () => {
  const tr = tableRows([
    [[30, 'Sıra No'], [90, 'Mal Hizmet'], [270, 'Miktar'], [340, 'Birim Fiyat'], [420, 'KDV Oranı'], [500, 'Tutarı']],
    [[30, '1'], [90, 'Pamuklu tişört bisiklet yaka'], [270, '1.200 Adet'], [340, '84,50 TL'], [420, '%10,00'], [500, '91.260,00 TL']],
    [[30, '2'], [90, 'Denim pantolon slim fit'], [270, '400 Adet'], [340, '389,90 TL'], [420, '%10,00'], [500, '148.162,00 TL']],
  ]);
  assert.deepEqual(tr.map((r) => [r.description, r.quantity, r.amount]), [['Pamuklu tişört bisiklet yaka', 1200, 91260], ['Denim pantolon slim fit', 400, 148162]]);
  const hu = tableRows([
    [[50, 'Megnevezés'], [280, 'Mennyiség'], [360, 'Egységár'], [470, 'Érték']],
    [[50, 'Szórólap A5, 4+4 szín'], [280, '5 000'], [360, '34,80'], [470, '174 000']],
    [[50, 'Névjegykártya'], [280, '2 000'], [360, '57,50'], [470, '115 000']],
  ]);
  assert.deepEqual(hu.map((r) => r.description), ['Szórólap A5, 4+4 szín', 'Névjegykártya']);
});

test('a Belgian service invoice\'s "Prestation" column is the description', () => {
  const rows = tableRows([
    [[40, 'Réf.'], [110, 'Prestation'], [330, 'Qté'], [370, 'P.U. HTVA'], [440, 'TVA'], [490, 'Total HTVA']],
    [[40, 'L01'], [110, 'Location chapiteau 10 x 20 m'], [335, '1'], [370, '3 450,00'], [440, '21 %'], [490, '3 450,00']],
    [[40, 'T02'], [110, 'Service traiteur, menu gala'], [335, '120'], [375, '68,00'], [440, '12 %'], [490, '8 160,00']],
  ]);
  assert.deepEqual(rows.map((r) => [r.description, r.amount]), [['Location chapiteau 10 x 20 m', 3450], ['Service traiteur, menu gala', 8160]]);
});

test('"Desc. %" heads a discount column, and "Artikel" beside "Bezeichnung" the code: the description is the text column', () => {
  const pt = read([
    [[50, 'Artigo'], [100, 'Descrição'], [290, 'Qtd.'], [330, 'Preço Unit.'], [410, 'Desc. %'], [470, 'Valor']],
    [[50, 'AZ-0112'], [100, 'Azeite Virgem Extra 5 L'], [290, '6'], [330, '32,90'], [410, '5,00'], [470, '187,53']],
    [[50, 'AR-0450'], [100, 'Arroz Carolino 1 kg'], [290, '8'], [330, '14,80'], [410, '0,00'], [470, '118,40']],
    [[330, 'Total (EUR)'], [470, '305,93']],
  ]);
  assert.deepEqual(pt.rows.map((r) => r.description), ['Azeite Virgem Extra 5 L', 'Arroz Carolino 1 kg']);
  assert.deepEqual(amounts(pt.rows), [187.53, 118.4]);
  const ch = read([
    [[50, 'Pos.'], [80, 'Artikel'], [140, 'Bezeichnung'], [330, 'Menge'], [380, 'Preis'], [470, 'Betrag']],
    [[50, '10'], [80, '41.2210'], [140, 'Wärmepumpe Luft/Wasser'], [330, '1'], [380, '12490.00'], [470, '12490.00']],
    [[50, '20'], [80, '55.0102'], [140, 'Montage Heizung'], [330, '18.50'], [380, '118.00'], [470, '2183.00']],
    [[380, 'Total'], [470, '14673.00']],
  ]);
  assert.deepEqual(ch.rows.map((r) => r.description), ['Wärmepumpe Luft/Wasser', 'Montage Heizung']);
});

test('a Greek item table (Περιγραφή, Ποσ., Τιμή, Έκπτ.%, Καθαρή αξία) gives its rows', () => {
  const t = read([
    [[50, 'Κωδικός'], [110, 'Περιγραφή'], [280, 'Ποσ.'], [320, 'Τιμή'], [370, 'Έκπτ.%'], [420, 'Καθαρή αξία']],
    [[50, 'HW-1187'], [110, 'Φορητός υπολογιστής'], [280, '5'], [320, '849,00'], [370, '8,00'], [420, '3.905,40']],
    [[50, 'SW-0400'], [110, 'Άδεια Microsoft 365'], [280, '5'], [320, '148,00'], [370, '0,00'], [420, '740,00']],
    [[320, 'Σύνολο αξίας'], [420, '4.645,40']],
  ]);
  assert.deepEqual(t.rows, [
    { description: 'Φορητός υπολογιστής', quantity: 5, unit_price: 849, amount: 3905.4 },
    { description: 'Άδεια Microsoft 365', quantity: 5, unit_price: 148, amount: 740 },
  ]);
});

test('Bulgarian headers; a footer ending in its page number and a transport charge beside the bank details are no items', () => {
  const p1 = makePage([
    [[43, '№'], [60, 'Код'], [110, 'Наименование'], [330, 'Мярка'], [370, 'К-во'], [420, 'Ед. цена'], [500, 'Стойност']],
    [[43, '1'], [60, 'EL-0101'], [110, 'Кабел СВТ 3x2,5 мм²'], [330, 'м'], [370, '500'], [420, '2,48'], [500, '1 240,00']],
    [[43, '2'], [60, 'EL-0102'], [110, 'Кабел СВТ 3x1,5 мм²'], [330, 'м'], [370, '800'], [420, '1,62'], [500, '1 296,00']],
    [[148, 'Балкан Електро Инженеринг ЕООД · IBAN BG80 STSA 9300 0012 3456 78 Стр. 1 от 2']],
  ]);
  const p2 = makePage([
    [[43, '№'], [60, 'Код'], [110, 'Наименование'], [330, 'Мярка'], [370, 'К-во'], [420, 'Ед. цена'], [500, 'Стойност']],
    [[43, '3'], [60, 'EL-0900'], [110, 'Транспорт до обект'], [330, 'курс'], [370, '2'], [420, '90,00'], [500, '180,00']],
    [[42, 'Банкова сметка'], [300, 'Данъчна основа'], [500, '2 716,00']],
    [[42, 'Equity Bank, A/C 0240291846732'], [300, 'Transport to Kerugoya'], [500, '12,00']],
    [[300, 'Сума за плащане'], [500, '3 259,20']],
  ], 2);
  const rows = readTable(documentLines([p1, p2], { detectLayout: true }), ITEMS, { ctx: { monthFirst: false }, dateFormat: null, strict: false }).rows;
  assert.deepEqual(rows.map((r) => r.amount), [1240, 1296, 180]);
});

test('an item row whose description starts with a transport word stays an item', () => {
  const rows = tableRows([
    [[40, 'Código'], [110, 'Descripción'], [330, 'Cant.'], [400, 'Valor unitario'], [500, 'Valor total']],
    [[40, 'ALM-PAL'], [110, 'Almacenamiento en bodega'], [330, '140'], [400, '42.000,00'], [500, '5.880.000,00']],
    [[40, 'TR-BAQ'], [110, 'Transporte terrestre Barranquilla'], [330, '9'], [400, '2.150.000,00'], [500, '19.350.000,00']],
    [[300, 'Subtotal'], [500, '25.230.000,00']],
  ]);
  assert.deepEqual(rows.map((r) => r.amount), [5880000, 19350000]);
});
