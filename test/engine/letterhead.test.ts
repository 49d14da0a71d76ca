// The issuer's name and address at the top of a receipt or letterhead, without printed labels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldDefinition } from '../../src/api/types.js';
import { extractFields } from '../../src/engine/builtin/extract-fields.js';
import { issuerCandidates } from '../../src/engine/builtin/letterhead.js';
import { documentLines } from '../../src/engine/layout/lines.js';
import type { PageText } from '../../src/engine/types.js';
import { makePage, type FixtureLine } from './page-fixture.js';

const FIELDS: FieldDefinition[] = [
  { name: 'company', type: 'text', description: 'Name of the shop or business' },
  { name: 'address', type: 'text', description: 'Address of the shop' },
];
const read = (page: PageText) => extractFields({ pages: [page], fields: FIELDS, dateFormat: null, detectLayout: true, detectTables: false }).data;
/** An OCR page: every word with a confidence; `lowConf` lines read badly (a logo) and `tall` lines are four times as high. */
function ocrPage(lines: FixtureLine[], opts: { lowConf?: number[]; tall?: number[]; tallBy?: number } = {}): PageText {
  const page = makePage(lines);
  const lineOf = (y0: number) => Math.round((y0 - 50) / 14);
  for (const w of page.words) {
    const i = lineOf(w.y0);
    w.conf = opts.lowConf?.includes(i) ? 20 : 90;
    if (opts.tall?.includes(i)) w.y1 = w.y0 + 10 * (opts.tallBy ?? 4);
  }
  return { ...page, source: 'ocr' };
}

test('a tall, badly read logo line above the name is not the name', () => {
  const r = read(ocrPage(['SEES NJ Sy', '', '', 'GOLDEN LEAF', '(123456-A)', 'NO 12, JALAN MERAH 3,', '81100 JOHOR BAHRU', 'TEL: 07-1234567'], { lowConf: [0], tall: [0] }));
  assert.equal(r.company, 'GOLDEN LEAF');
  assert.equal(r.address, 'NO 12, JALAN MERAH 3, 81100 JOHOR BAHRU');
});

test('an item line with a price is not the name, and the address lines are not either', () => {
  const r = read(ocrPage(['RELAIS OULMES', 'AUTOROUTE RABAT MEKNES', '15000 KHEMISSET', 'Tel : 05.22.95.66.66', [[50, 'CAFE CREME'], [200, '12.00'], [260, '2'], [300, '24.00']]]));
  assert.equal(r.company, 'RELAIS OULMES');
  assert.equal(r.address, 'AUTOROUTE RABAT MEKNES 15000 KHEMISSET');
});

test('a name printed over two lines is read whole', () => {
  const r = read(ocrPage(['LIAN CHI PU TIAN VEGETARIAN', 'RESTAURANT SDN BHD', '(1095514-X)', '54 JALAN SS23/11', 'TAMAN SEA 47400', 'Tel: 03-7805 7889']));
  assert.equal(r.company, 'LIAN CHI PU TIAN VEGETARIAN RESTAURANT SDN BHD');
  assert.equal(r.address, '54 JALAN SS23/11 TAMAN SEA 47400');
});

test('the address starts at the first address-like line, past registration, tax, site and date lines', () => {
  const r = read(ocrPage(['SUN WONG KUT SDN BHD', 'Company No- 20865-V', 'Site: 1046', '176 JLN SUNGEI BESI', '57100 KUALA LUMPUR', 'Telephone: 03-9221345']));
  assert.equal(r.company, 'SUN WONG KUT SDN BHD');
  assert.equal(r.address, '176 JLN SUNGEI BESI 57100 KUALA LUMPUR');
  const dated = read(ocrPage(['UNIHAKKA INTERNATIONAL SDN BHD', '05 Mar 2018 18:24', '(867388-U)', '12, Jalan Tampoi 7/4 Kawasan Perindustrian', 'Tampoi,81200 Johor Bahru, Johor', 'TAX INVOICE']));
  assert.equal(dated.address, '12, Jalan Tampoi 7/4 Kawasan Perindustrian Tampoi,81200 Johor Bahru, Johor');
});

test('the address takes up to five lines and stops at a tax-number line or a bare number', () => {
  const lines = ['YHM SHOP SDN BHD', '5117, Second Floor,', 'Tebrau City,', '1, Jalan Desa Tebrau,', 'Taman Desa Tebrau,', '81100 Johor Bahru, Johor.'];
  assert.equal(read(ocrPage([...lines, '002105827328', 'TAX INVOICE'])).address, lines.slice(1).join(' '));
  assert.equal(read(ocrPage([...lines.slice(0, 4), 'GSTID 002138201536'])).address, lines.slice(1, 4).join(' '));
});

test('a house number after "No" starts the address ("No 7. Simpang Off Batu Village")', () => {
  const r = read(ocrPage(['LIM SENG THO HARDWARE TRADING', 'No 7. Simpang Off Batu Village', 'Jalan Ipoh Batu 5, 51200 Kuala Lumpur', 'MALAYSIA', 'Tel & Fax No 03-6258 7191']));
  assert.equal(r.address, 'No 7. Simpang Off Batu Village Jalan Ipoh Batu 5, 51200 Kuala Lumpur MALAYSIA');
});

test('words OCR ran together still show a company form and an address; a thank-you line is not the name', () => {
  const glued = read(ocrPage(['3180303', 'LANHINGSTATIONERYSDNBHD', '(162761-M)', 'NO.32& 33. JALAN SR 1/9. SEKSYEN9.', 'TAMANSERDANGRAYA', '43300SERIKEMBANGAN. SELANGOR', 'GST ID : 002139201536', 'TaxInvoice']));
  assert.equal(glued.company, 'LANHING STATIONERY SDN BHD');
  assert.equal(glued.address, 'NO.32& 33. JALAN SR 1/9. SEKSYEN9. TAMANSERDANGRAYA 43300 SERIKEMBANGAN. SELANGOR');
  const soon = read(ocrPage(['SOONHUATMACHINERYENTERPRISE', '(JM0352019-K)', 'NO.53JALANPUTRA 1,', 'TAMANSRIPUTRA', '81200JOHORBAHRU', 'TEL: 07-5547360']));
  assert.equal(soon.address, 'NO.53JALANPUTRA 1, TAMANSRIPUTRA 81200 JOHORBAHRU');
  const thanks = read(ocrPage(['RELAIS OULMES', 'AUTOROUTE RABAT MEKNES', '15000 KHEMISSET', 'Tel. : 05.22.95.66.66', '', '', '***Merci de votre visite****'], { tall: [6], tallBy: 2 }));
  assert.equal(thanks.company, 'RELAIS OULMES');
});

test('the address ends at a document line, also when OCR glued its words ("TAXINVOICE", "Document No : TD01")', () => {
  const r = read(ocrPage(['BOOK TA.K SDN BHD', '789417-W', 'NO.53, JALAN SAGU 18,', 'TAMAN DAYA.', '81100 JOHOR BAHRU', 'JOHOR.', 'Document No : TD01167104']));
  assert.equal(r.address, 'NO.53, JALAN SAGU 18, TAMAN DAYA. 81100 JOHOR BAHRU JOHOR.');
  const glued = read(ocrPage(['UNIHAKKA SDN BHD', '12, Jalan Tampoi 7/4', 'Tampoi,81200 Johor Bahru', 'TAXINVOICE', 'Item Qty Total']));
  assert.equal(glued.address, '12, Jalan Tampoi 7/4 Tampoi,81200 Johor Bahru');
});

test('an OCR address is given with the letters read inside its numbers and street words put back', () => {
  const r = read(ocrPage(['KEDAI MAWAR SDN BHD', '(554433-K)', '10T 2210-A & 22B0-C, JALAN MAWAR 6,', 'TAMAN MELATI, 56D30 KOTA BARU', 'TEL: 03-1234567']));
  assert.equal(r.address, 'LOT 2210-A & 2280-C, JALAN MAWAR 6, TAMAN MELATI, 56030 KOTA BARU');
});

test('five digits first on the address row are its postcode, not a registration number', () => {
  const r = read(ocrPage(['KEDAI MAWAR TRADING', '56030 KOTA BARU, KELANTAN', 'TEL: 03-1234567']));
  assert.equal(r.address, '56030 KOTA BARU, KELANTAN');
});

test('a German street name compounded with its street word and followed by the house number starts the address', () => {
  for (const street of ['Muensterplatz 21', 'Leystrasse 43', 'Industriestr. 25', 'Lindenallee 4a', 'Am Hafenweg 7']) {
    const r = read(ocrPage(['Kaffeehaus Beispiel GmbH', street, '53111 Bonn', 'Steuernummer 2/1849/2293', [[50, '1 Latte'], [300, '4.49']]]));
    assert.equal(r.address, `${street} 53111 Bonn`, street);
  }
});

test('a VAT id printed after the town on the address row is not part of the address', () => {
  const r = read(ocrPage(['Beispiel Gastro GmbH', 'Leystrasse 43, 1200 Wien ATU57991999', 'Tel. 01 234 56 78', [[50, '1 Melange'], [300, '4.20']]]));
  assert.equal(r.address, 'Leystrasse 43, 1200 Wien');
});

test('a VAT id on its own row under the address ends it', () => {
  const r = read(ocrPage(['Beispiel Gastro GmbH', 'Leystrasse 43, 1200 Wien', 'ATU57991999', 'Datum: 14.12.2023', [[50, '1 Melange'], [300, '4.20']]]));
  assert.equal(r.address, 'Leystrasse 43, 1200 Wien');
});

test("a receipt's thanks names the shop when its logo was misread; the address is then the letterhead's", () => {
  const receipt = [
    'İÖLE', 'FOODS', 'MARKE', 'Franklin FRK', '1765 California St', 'San Francisco, CA 94109', '415-674-0500',
    'BERRY AND MANGO 7.01', 'SCONE RSPBRY 5.99', 'Subtotal 13.00', 'Tax 0.00', 'Total: $13.00', 'MasterCard $13.00',
    '04/08/2019 15:53:20', 'Go to: http://www.example.com/feedback', 'Thanks for shopping at Whole Foods Market', 'WholeFoodsMarket.com',
  ];
  const r = read(ocrPage(receipt, { lowConf: [0, 1, 2], tall: [0, 1, 2] }));
  assert.equal(r.company, 'Whole Foods Market');
  assert.equal(r.address, '1765 California St San Francisco, CA 94109');
  // Other languages; "with us" names nobody.
  for (const [thanks, shop] of [
    ['Vielen Dank für Ihren Einkauf bei Feinkost Müller', 'Feinkost Müller'],
    ['Merci de votre visite chez Boulangerie Paul !', 'Boulangerie Paul'],
    ['THANK YOU FOR DINING AT GOLDEN LEAF', 'GOLDEN LEAF'],
  ]) assert.equal(read(ocrPage(['Xq', 'Item 1 4.50', 'Total 4.50', thanks], { lowConf: [0] })).company, shop, thanks);
  assert.equal(read(ocrPage(['GOLDEN LEAF', 'Item 1 4.50', 'Total 4.50', 'Thank you for shopping with us'])).company, 'GOLDEN LEAF');
  // A welcome may name the store's brand or mall: the letterhead's legal name outranks it.
  assert.equal(read(ocrPage(['WELCOME TO SUPER MARKET XYZ', 'XYZ RETAIL GMBH', 'Hauptstr. 5', '10115 Berlin', 'Milch 1,19', 'SUMME 1,19'])).company, 'XYZ RETAIL GMBH');
});

test('receipt addresses of several countries: a shop number starts them, contact and licence lines end them, a trade-named street is no name', () => {
  const india = read(ocrPage(['CHAI POINT CAFE', 'SHOP NO. 22, GROUND FLOOR,', 'KOREGAON PARK, PUNE - 411001', 'GSTIN: 20EFXXX9818AIZ2', 'FSSAI Lic No. 09564795432532', 'Mob: +91 82621 78067', 'BILL OF SUPPLY']));
  assert.deepEqual(india, { company: 'CHAI POINT CAFE', address: 'SHOP NO. 22, GROUND FLOOR, KOREGAON PARK, PUNE - 411001' });
  const au = read(ocrPage(['HARBOUR ESPRESSO BAR', 'Shop 16, 69 King William St', 'Fremantle WA 6160', 'ABN 51 824 753 556']));
  assert.equal(au.address, 'Shop 16, 69 King William St Fremantle WA 6160');
  const de = read(ocrPage(['BÄCKEREI MÜLLER', 'SCHILLERSTR.77', '70173 STUTTGART', 'Tel. 0711 123456']));
  assert.equal(de.address, 'SCHILLERSTR.77 70173 STUTTGART');
  const us = read(ocrPage(["Maple's Office Supply", '4381 MARKET ST', 'RALEIGH, NC 27601', 'Tel (919) 555-0142']));
  assert.deepEqual(us, { company: "Maple's Office Supply", address: '4381 MARKET ST RALEIGH, NC 27601' });
});

test('a shop thanked on the line after the thanks ("Thank you for visiting" / "Clachan") and printed at the top is the shop', () => {
  const r = read(ocrPage(['Clachan', '34 Kingley Street', 'W1B 5QH', 'Sylvia 26 Feb 2016 15:20', [[50, '2 Meantime Pale'], [300, '10.20']], 'Product Group Services', [[50, 'Total'], [300, '10.20']], 'Thank you for visiting', 'Clachan']));
  assert.equal(r.company, 'Clachan');
});

test("the district after a dash on a street's line is address, not a name: it scores under the same word on a line of its own", () => {
  // The word alone over the street line: under it, it would be the address's town (scored down too).
  const lines = documentLines([makePage(['CONSOLACAO', [[50, 'RUA AUGUSTA, 1500 -'], [250, 'CONSOLACAO']]])], { detectLayout: true });
  const scores = issuerCandidates(lines, [], new Set()).filter((c) => c.text === 'CONSOLACAO');
  const [onStreet, alone] = [1, 0].map((i) => Math.max(...scores.filter((c) => c.line.index === i).map((c) => c.score)));
  assert.ok(onStreet < alone - 0.3, `${onStreet} vs ${alone}`);
});

test("a logo's second line in its own column is no legal line of the sender block's name beside it", () => {
  const r = read(
    makePage([
      [[50, 'Turnpike'], [400, 'INVOICE']],
      [[400, 'Turnpike Designs']],
      [[50, 'Designs Co'], [400, '156 University Ave, Toronto']],
      [[400, 'ON, Canada, M5H 2H7']],
      'BILL TO',
      'Jiro Doi',
      '1954 Bloor Street West',
      [[300, 'Invoice Number: 14'], [450, 'Amount Due (USD): $2,608.20']],
    ]),
  );
  assert.equal(r.company, 'Turnpike Designs');
});

test('"CLIENT" heading a block alone, in capitals, is the buyer\'s cue: the seller is the name under "ÉMETTEUR"', () => {
  const r = read(
    makePage([
      [[40, 'FACTURE'], [300, 'Date de facture 03/02/2025']],
      [[48, 'ÉMETTEUR'], [313, 'CLIENT']],
      [[48, 'Ardennes Événements SRL'], [313, 'Château de Ferrières SA']],
      [[48, 'Rue de la Gare 27'], [313, 'Route de Ferrières 2']],
      [[48, '6900 Marche-en-Famenne'], [313, '4190 Ferrières']],
      [[48, 'TVA BE 0734.112.908'], [313, 'TVA BE 0421.556.781']],
      'Total TVAC 15 183,74 €',
    ]),
  );
  assert.equal(r.company, 'Ardennes Événements SRL');
});

test('the company over a Nordic attention line ("Att.: Mette Kjær") is the addressee, not the seller', () => {
  // The addressee's name set larger than the seller's, as window-envelope letters print it.
  const r = read(
    ocrPage([
      [[420, 'Nørrebro Kaffebrænderi ApS']],
      [[50, 'Faktura'], [420, 'Guldbergsgade 71']],
      [[420, '2200 København N']],
      [[420, 'CVR-nr. 38 41 27 65']],
      [[50, 'Kontorhuset Vesterbro ApS'], [300, 'Fakturanr.'], [422, '20451']],
      [[50, 'Att.: Mette Kjær'], [300, 'Fakturadato'], [399, '04-03-2025']],
      [[50, 'Vesterbrogade 149, 3. sal']],
      [[50, '1620 København V']],
      'I alt DKK 12.437,50',
    ], { tall: [4], tallBy: 1.3 }),
  );
  assert.equal(r.company, 'Nørrebro Kaffebrænderi ApS');
});
