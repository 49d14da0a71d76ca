// The issuer and the other parties of a document: which party a field asks for, the seller's name
// from the evidence of the whole page (legal form, tax number, cues, not the buyer's block, not a
// table heading or an address), names with their spacing restored, and the winning margin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldDefinition } from '../../src/api/types.js';
import { extractFields } from '../../src/engine/builtin/extract-fields.js';
import { documentLines } from '../../src/engine/layout/lines.js';
import { hasLegalForm } from '../../src/engine/builtin/issuer/legal-forms.js';
import { fixDigitsInWords, repairAddressText, repairNameText, restoreSpacing } from '../../src/engine/builtin/issuer/ocr-repair.js';
import { askedParty, findCues } from '../../src/engine/builtin/issuer/party-cues.js';
import { pickParty } from '../../src/engine/builtin/issuer/pick-party.js';
import type { PageText } from '../../src/engine/types.js';
import { makePage, type FixtureLine } from './page-fixture.js';

const read = (page: PageText, fields: FieldDefinition[]) => extractFields({ pages: [page], fields, dateFormat: null, detectLayout: true, detectTables: false }).data;
const VENDOR: FieldDefinition = { name: 'vendor', type: 'text', description: 'Name of the seller issuing the invoice' };

/** A text-layer page whose lines `big` are printed `by` times as tall (a logo line, a title). */
function page(lines: FixtureLine[], big: number[] = [], by = 2.5): PageText {
  const p = makePage(lines);
  for (const w of p.words) if (big.includes(Math.round((w.y0 - 50) / 14))) w.y1 = w.y0 + 10 * by;
  return p;
}

test('legal forms of many countries are recognised, ordinary words and units are not', () => {
  for (const name of ['Acme S.A.', 'Rossi Costruzioni S.r.l.', 'Nowak Sp. z o.o.', 'Novak s.r.o.', 'Kovacs Kft', 'Virtanen Oy', 'Jensen A/S', 'Svensson AB', 'Koala Pty Ltd', 'Yamada K.K.', 'De Vries B.V.', 'Müller e.K.', 'Schmidt GmbH & Co. KG', 'Tan Trading Sdn Bhd', 'Sharma Pvt. Ltd.', 'Lim Pte Ltd', 'Globex Corp', 'Dupont SARL', 'Initech LLC', 'SIAM SCREEN ENTERTAINMENT PCL.', 'DOLCE VITA DI ROSSI M. & C. SNC'])
    assert.ok(hasLegalForm(name), name);
  for (const text of ['Net weight 5 kg', 'as soon as possible', 'Main Street 4', 'Thank you for your order']) assert.ok(!hasLegalForm(text), text);
});

test('spaces OCR dropped are restored at known name endings, brackets and case changes', () => {
  assert.equal(restoreSpacing('ACMETRADINGSDNBHD'), 'ACME TRADING SDN BHD');
  // A glued "CO." after another name word; words that end in "CO" stay whole.
  assert.equal(restoreSpacing('HARBOURVIEWCOFFEECO.'), 'HARBOURVIEW COFFEE CO.');
  for (const w of ['COSTCO.', 'MEXICO.', 'TESCO.']) assert.equal(restoreSpacing(w), w);
  assert.equal(restoreSpacing('KEDAI(TAMANBARU)SDNBHD'), 'KEDAI (TAMANBARU) SDN BHD');
  assert.equal(restoreSpacing('NorthwindTrading GmbH'), 'Northwind Trading GmbH');
  assert.equal(restoreSpacing('Groupe Le Petit PontSAS'), 'Groupe Le Petit Pont SAS');
  assert.equal(restoreSpacing('McDonald ACME'), 'McDonald ACME');
  assert.equal(restoreSpacing('S.H.H. MOTOR ( SUNGAI RENGIT ) SDN. BHD'), 'S.H.H. MOTOR (SUNGAI RENGIT) SDN. BHD');
  assert.equal(restoreSpacing('MR . D.I.Y. (M) SDN BHD'), 'MR. D.I.Y. (M) SDN BHD');
  assert.equal(fixDigitsInWords('MEGA SETIA F00D COURT', { name: true }), 'MEGA SETIA FOOD COURT');
});

test('digits OCR read for letters inside words are repaired, numbers and unit codes are kept', () => {
  assert.equal(fixDigitsInWords('L0T 12, Ja1an Merah, J1n SS21/34', { name: false }), 'LOT 12, Jalan Merah, Jln SS21/34');
  assert.equal(fixDigitsInWords('Leve1 6, Uptown3, ROOM1', { name: false }), 'Level 6, Uptown3, ROOM1');
  assert.equal(fixDigitsInWords('Jalan lpoh, lane', { name: false }), 'Jalan Ipoh, lane');
  assert.equal(fixDigitsInWords('Block B-F-11, 1851-A, 47400 PJ', { name: false }), 'Block B-F-11, 1851-A, 47400 PJ');
  assert.equal(fixDigitsInWords('TANJUNG C0. (M) BHD', { name: true }), 'TANJUNG CO. (M) BHD');
});

test("a Malaysian company's (M) read as another letter is put back; other brackets are kept", () => {
  assert.equal(repairNameText('MR D.I.Y. (H) SDN BHD'), 'MR D.I.Y. (M) SDN BHD');
  assert.equal(repairNameText('TANJUNG C0. (N) BERHAD'), 'TANJUNG CO. (M) BERHAD');
  assert.equal(repairNameText('KEDAI (H) TRADING'), 'KEDAI (H) TRADING');
  assert.equal(repairNameText('ACME (HK) SDN BHD'), 'ACME (HK) SDN BHD');
  // SDN's D read as an O, its S as a 5; a family firm's "& SON BHD" stays.
  assert.equal(repairNameText('KEDAI PERKAKASAN MAJU SON BHD'), 'KEDAI PERKAKASAN MAJU SDN BHD');
  assert.equal(repairNameText('Kedai Maju 5DN. BHD.'), 'Kedai Maju SDN. BHD.');
  assert.equal(repairNameText('Kedai Maju Son Bhd'), 'Kedai Maju Sdn Bhd');
  assert.equal(repairNameText('LIM & SON BHD'), 'LIM & SON BHD');
  // A speck before the name read as a mark.
  assert.equal(repairNameText('~ KEDAI MAJU SDN BHD'), 'KEDAI MAJU SDN BHD');
});

test('in an OCR address, a letter inside a number is its digit and a street word read with digits is the word', () => {
  assert.equal(repairAddressText('10T 2210-A & 22B0-C, JALAN MAWAR 6,'), 'LOT 2210-A & 2280-C, JALAN MAWAR 6,');
  assert.equal(repairAddressText('56D30 KOTA BARU, 8LK 7'), '56030 KOTA BARU, BLK 7');
  // A house number's l before its street, an Australian state in a case no one prints; a house letter and "Vic" stay.
  assert.equal(repairAddressText('21l Brunswick St Fitzroy VIc 3065'), '211 Brunswick St Fitzroy VIC 3065');
  assert.equal(repairAddressText('12a Hauptstr. 5, Carlton Vic 3053'), '12a Hauptstr. 5, Carlton Vic 3053');
  assert.equal(repairAddressText('51200 Kuala Lumpur . SELANGOR ( TESCO PUTRA NILAI )'), '51200 Kuala Lumpur. SELANGOR (TESCO PUTRA NILAI)');
  assert.equal(repairAddressText('2 Place du Marche 7501l Paris'), '2 Place du Marche 75011 Paris');
  assert.equal(repairAddressText('54 High Street Harrogate HGl 1HS'), '54 High Street Harrogate HG1 1HS');
  assert.equal(repairAddressText('3614 Main St Portland,0R 97214'), '3614 Main St Portland,OR 97214');
  assert.equal(repairAddressText('227 Main Street Boulder, C0 80302'), '227 Main Street Boulder, CO 80302');
  assert.equal(repairAddressText('1840 W Colonial Dr 0rlando, FL 32804'), '1840 W Colonial Dr Orlando, FL 32804');
  assert.equal(repairAddressText('Market Harborough LE167NJ'), 'Market Harborough LE16 7NJ');
  // An O read as 0 starting a word in capitals, and as the first 0 of a unit's number; a unit and a postal code keep theirs.
  assert.equal(repairAddressText('2150 W 0AK BLVD SPRINGFIELD, IL 62704'), '2150 W OAK BLVD SPRINGFIELD, IL 62704');
  assert.equal(repairAddressText('21 TANJONG PAGAR ROAD #O1-05 SINGAPORE 088444'), '21 TANJONG PAGAR ROAD #01-05 SINGAPORE 088444');
  assert.equal(repairAddressText('Ottawa ON K1A 0B1, BAG 0KG'), 'Ottawa ON K1A 0B1, BAG 0KG');
  assert.equal(repairAddressText('TAMAN DAYA. 8110O JOHOR BAHRU'), 'TAMAN DAYA. 81100 JOHOR BAHRU');
  assert.equal(repairAddressText('Block B, 5200o, Kuala Lumpur'), 'Block B, 52000, Kuala Lumpur');
  // Codes that mix letters and digits, house numbers with a letter and plain numbers are kept.
  for (const kept of ['Block B-F-11, U5/BM, SS21/39', '3RD FLR, Unit A12B34', 'No 12A, Suite 10, 101 Main St', 'KP3 6, S117', '120Orchard Road'])
    assert.equal(repairAddressText(kept), kept);
});

test('in an OCR address, a postcode run together with its town is two words; codes, units and ids stay whole', () => {
  assert.equal(repairAddressText('TAMAN MALURI 55100KUALA LUMPUR'), 'TAMAN MALURI 55100 KUALA LUMPUR');
  assert.equal(repairAddressText('KAWASAN TAMPOI81200 JOHOR'), 'KAWASAN TAMPOI 81200 JOHOR');
  for (const kept of ['JALAN SS22/19', 'BOX 2PCS 40ML', 'UID ATU57991999', 'D-53113 Bonn', 'No 1200A'])
    assert.equal(repairAddressText(kept), kept);
});

test('the field name, or a generic name\'s description, decides the party asked for', () => {
  assert.deepEqual(askedParty(VENDOR), { party: 'seller', part: 'name' });
  assert.deepEqual(askedParty({ name: 'company', type: 'text', description: 'Name of the shop or business' }), { party: 'seller', part: 'name' });
  assert.deepEqual(askedParty({ name: 'company', type: 'text', description: "The customer's company" }), { party: 'buyer', part: 'name' });
  assert.deepEqual(askedParty({ name: 'bill_to', type: 'text' }), { party: 'buyer', part: 'name' });
  assert.deepEqual(askedParty({ name: 'customerName', type: 'text' }), { party: 'buyer', part: 'name' });
  assert.deepEqual(askedParty({ name: 'ship_to_address', type: 'text' }), { party: 'ship_to', part: 'address' });
  assert.deepEqual(askedParty({ name: 'address', type: 'text', description: 'Address of the shop' }), { party: 'seller', part: 'address' });
  assert.equal(askedParty({ name: 'customer_number', type: 'text' }), null);
  assert.equal(askedParty({ name: 'vendor_vat_id', type: 'text' }), null);
  assert.equal(askedParty({ name: 'vendor', type: 'number' }), null);
});

test('a table heading near the top is not the seller; the name with a legal form and a tax number is', () => {
  const p = page([
    [[50, 'Booking Invoice'], [400, 'No. BK-1182']],
    '',
    [[50, 'Guest Details'], [200, 'Check In'], [300, 'Check Out'], [400, 'Rooms']],
    [[50, 'Jane Roe'], [200, '03 Mar 2021'], [300, '05 Mar 2021'], [400, '1']],
    '',
    'Seaview Stays Pvt. Ltd.',
    '14 Harbour Road, Kochi 682001',
    'GSTIN: 32ABCDE1234F1Z5',
  ]);
  assert.equal(read(p, [VENDOR]).vendor, 'Seaview Stays Pvt. Ltd.');
});

test('the buyer\'s block is not the seller, and a customer field reads it', () => {
  const p = page([
    [[50, 'INVOICE'], [380, 'Brightline Tools Ltd']],
    [[380, '7 Mill Lane']],
    [[380, 'Leeds LS1 4AB']],
    '',
    'Bill To:',
    'Globex Corporation',
    '200 Commerce Street',
    'Springfield 62701',
    '',
    [[50, 'Invoice No: 7781'], [380, 'VAT Reg No: GB 123 4567 89']],
  ], [0]);
  const r = read(p, [VENDOR, { name: 'customer', type: 'text' }, { name: 'customer_address', type: 'text' }]);
  assert.equal(r.vendor, 'Brightline Tools Ltd');
  assert.equal(r.customer, 'Globex Corporation');
  assert.equal(r.customer_address, '200 Commerce Street Springfield 62701');
});

test('bill-to and ship-to blocks side by side: each field reads its own, the seller is neither', () => {
  const p = page([
    'Harlow Instruments',
    [[50, 'harlow@example.com'], [400, 'INVOICE']],
    '',
    [[50, 'Bill To:'], [200, 'Ship To:']],
    [[50, 'Dana Whitfield'], [200, "Dana's Bike Shop"]],
    [[50, '12 Elm Road'], [200, '80 Quay Street']],
    [[50, 'Bristol BS1 5TT'], [200, 'Bath BA1 1AA']],
  ]);
  const r = read(p, [VENDOR, { name: 'bill_to', type: 'text' }, { name: 'ship_to', type: 'text' }, { name: 'ship_to_address', type: 'text' }]);
  assert.deepEqual(r, { vendor: 'Harlow Instruments', bill_to: 'Dana Whitfield', ship_to: "Dana's Bike Shop", ship_to_address: '80 Quay Street Bath BA1 1AA' });
});

test('the recipient under a sender line (address window) is not the seller', () => {
  // The sender line is small print; the logo above it is an image, so the recipient is the largest name.
  const p = page([
    'Blauwal Technik GmbH · Hafenstraße 3 · 20457 Hamburg',
    'Zander Logistik GmbH',
    'Ringstraße 44',
    '80331 München',
    '',
    [[50, 'Rechnung Nr. 2024-17'], [400, 'Datum: 04.03.2024']],
  ], [0], 0.5);
  assert.equal(read(p, [VENDOR]).vendor, 'Blauwal Technik GmbH');
});

test('a marketplace invoice gives the legal seller after "Sold by", not the brand in the logo', () => {
  const p = page([
    'ShopSphere',
    '',
    'Tax Invoice',
    'Sold By: Northwind Retail Pvt. Ltd., Ship-from Address: Plot 4, Sector 9, Pune 411001',
    'GSTIN - 27AAACN1234F1ZV',
    'Order ID: OD1234567',
  ], [0], 3);
  assert.equal(read(p, [VENDOR]).vendor, 'Northwind Retail Pvt. Ltd.');
});

test('the same company in the letterhead and, with its legal form, in a "Service provider" block is given as in the letterhead', () => {
  const lines: FixtureLine[] = ['Oakridge Analytics', 'Invoice No: 4471', 'Bill to:', 'Pinecrest Dental LLC', '9 Birch Avenue'];
  for (let i = 0; i < 12; i++) lines.push([[50, `Query pack ${i + 1}`], [400, `${i + 3}.00`]]);
  lines.push('Service Provider:', 'Oakridge Analytics, Inc.', '55 Pine Street, Denver, CO 80202');
  assert.equal(read(page(lines, [0]), [VENDOR]).vendor, 'Oakridge Analytics');
});

test('a short name in the letterhead gives the full legal name printed in the footer that starts with it', () => {
  const lines: FixtureLine[] = ['Greystone', '1995 Elm St, Suite 316', 'Denver, CO 80202', 'Invoice No: 4471', 'Bill to:', 'Pinecrest Dental LLC'];
  for (let i = 0; i < 12; i++) lines.push([[50, `Print job ${i + 1}`], [400, `${i + 3}.00`]]);
  lines.push('Greystone Print Works Co. · 1995 Elm St, Suite 316 · Denver, CO 80202 · EIN 13-2793216');
  assert.equal(read(page(lines, [0]), [VENDOR]).vendor, 'Greystone Print Works Co.');
});

test('an address at the top is not the seller; the legal name in the footer is', () => {
  const lines: FixtureLine[] = ['Kaiserweg 12', '12345 Musterstadt', '', [[50, 'Rechnung'], [400, 'Nr. 2021-118']], 'Datum: 02.03.2021'];
  for (let i = 0; i < 14; i++) lines.push([[50, `Position ${i + 1}`], [400, `${i + 10},00`]]);
  lines.push('', 'Beispiel Handels GmbH · Kaiserweg 12 · 12345 Musterstadt · USt-IdNr. DE123456789');
  assert.equal(read(page(lines), [VENDOR]).vendor, 'Beispiel Handels GmbH');
});

test('a letter-spaced title of a text-layer PDF is read with its word spaces', () => {
  const p = makePage(['Invoice No: 55', '12 Long Road']);
  // "N O V A   L A B S" one word per letter, 2 pt between letters and 8 pt between the words.
  let x = 50;
  for (const [i, ch] of [...'NOVALABS'].entries()) {
    p.words.push({ text: ch, x0: x, y0: 20, x1: x + 7, y1: 32 });
    x += 7 + (i === 3 ? 8 : 2);
  }
  assert.equal(read(p, [VENDOR]).vendor, 'NOVA LABS');
});

test('the pick carries a score and a wider margin when the evidence is clear', () => {
  const clear = documentLines([page(['Oakridge Analytics Inc.', '55 Pine Street', 'Denver, CO 80202', 'VAT: US123456', '', 'Invoice No: 12'], [0])], { detectLayout: true });
  const unclear = documentLines([page(['Oakridge', 'Pinecrest', 'Invoice No: 12'])], { detectLayout: true });
  const a = pickParty(clear, { party: 'seller', part: 'name' });
  const b = pickParty(unclear, { party: 'seller', part: 'name' });
  assert.equal(a?.value, 'Oakridge Analytics Inc.');
  assert.ok(a && b && a.margin > b.margin && a.score > b.score, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
});

test('a cue ending in a colon names what follows close after it on its line ("Vendeur: | Tom"), not a column further right', () => {
  const lines = documentLines([makePage([[[50, 'Vendeur:'], [110, 'Tom']], [[50, 'Bill to:'], [400, 'Ship to:']], 'Article'])], { detectLayout: true });
  const cues = findCues(lines);
  assert.equal(cues.find((c) => c.party === 'seller')?.inline, 'Tom');
  assert.equal(cues.find((c) => c.party === 'buyer')?.inline, null);
});

test('a payment advice slip\'s "To:" names the payee, the seller', () => {
  // The layout of a common accounting package: the customer top left, the seller's block top right, and
  // at the foot a slip to return with the payment, addressed to the seller.
  const lines: FixtureLine[] = [
    [[40, 'TAX INVOICE'], [300, 'Invoice Date'], [430, 'Harbour Lights Design Ltd']],
    [[40, 'Ridgeway University'], [300, '5 Jun 2024'], [430, '23 Main Street']],
    [[40, 'Attention: Finance Dept'], [300, 'Invoice Number'], [430, 'Central City']],
    [[40, '12 Lake Road'], [300, 'INV-0042'], [430, 'Wellington 6011']],
    [[40, 'Auckland 1010'], [300, 'Reference'], [430, 'NEW ZEALAND']],
    [[300, 'P/O 9986'], [430, 'GST Number 12-345-678']],
    '',
    [[40, 'Description'], [250, 'Quantity'], [320, 'Unit Price'], [470, 'Amount NZD']],
    [[40, 'Logo design'], [270, '10.00'], [340, '150.00'], [490, '1,500.00']],
    [[320, 'TOTAL NZD'], [490, '1,725.00']],
    '',
    [[40, 'PAYMENT ADVICE']],
    '',
    [[40, 'To:'], [70, 'Harbour Lights Design Ltd'], [300, 'Customer'], [400, 'Ridgeway University']],
    [[70, '23 Main Street'], [300, 'Invoice Number'], [400, 'INV-0042']],
    [[70, 'Wellington 6011'], [300, 'Amount Due'], [400, '1,725.00']],
    [[70, 'NEW ZEALAND'], [300, 'Due Date'], [400, '30 Jun 2024']],
  ];
  assert.equal(read(page(lines), [VENDOR]).vendor, 'Harbour Lights Design Ltd');
  const cues = findCues(documentLines([page(lines)], { detectLayout: true }));
  assert.deepEqual(cues.map((c) => [c.party, c.inline]), [['seller', 'Harbour Lights Design Ltd']]);
  // Elsewhere "To:" is the customer's cue.
  const plain = findCues(documentLines([page([[[40, 'To:'], [70, 'Ridgeway University']], '12 Lake Road'])], { detectLayout: true }));
  assert.deepEqual(plain.map((c) => c.party), ['buyer']);
});

test('a legal form alone is no name: the footer\'s "SARL au capital de …" opens no name, a wrapped "Pty Ltd" joins the line above', () => {
  const french = page([
    'Atelier Lumière SARL',
    '14 rue des Tanneurs',
    '69002 Lyon',
    '',
    [[300, 'Boulangerie Martin & Fils']],
    [[300, '3 place Bellecour']],
    [[300, '69002 Lyon']],
    'Facture FAC/2024/00417',
    [[300, 'Total TTC'], [480, '1 200,00 €']],
    '',
    'SARL au capital de 10 000 € · SIRET 812 447 193 00021 · RCS Lyon · TVA FR 41 812447193',
  ]);
  assert.equal(read(french, [VENDOR]).vendor, 'Atelier Lumière SARL');
  const wrapped = page([
    [[40, 'TAX INVOICE'], [400, 'Bayside Electrical Services']],
    [[400, 'Pty Ltd']],
    [[40, 'Mordialloc Medical Centre'], [400, '4/22 Nepean Hwy']],
    [[40, '511 Main St'], [400, 'Mentone VIC 3194']],
    [[40, 'Invoice Number INV-0087'], [400, 'ABN 51 824 753 556']],
  ]);
  assert.equal(read(wrapped, [VENDOR]).vendor, 'Bayside Electrical Services Pty Ltd');
});

test('a payee named in a sentence ends with its legal form ("… payable to ACME Inc. We accept Visa/MC.")', () => {
  const p = page([
    [[50, 'INVOICE'], [380, 'Invoice No: W-10582']],
    [[50, 'Karen Whitfield'], [380, 'Date: 03/26/2024']],
    [[50, 'Description'], [300, 'Qty'], [480, 'Line total']],
    [[50, 'Thermostatic radiator valve'], [300, '2'], [480, '54.76']],
    [[300, 'Total'], [480, '54.76']],
    'Make checks payable to Ramirez Plumbing & Drain Inc. We accept Visa/MC.',
  ]);
  assert.equal(read(p, [VENDOR]).vendor, 'Ramirez Plumbing & Drain Inc.');
});

test('a letterhead name whose legal name is printed below it outranks a buyer with a legal form; a comma before the form belongs to the name', () => {
  const p = page([
    'Contas Certas',
    'Rua de Santa Catarina 512',
    '4000-446 Porto',
    '',
    [[300, 'Padaria Ribeiro & Filhos, Lda.']],
    [[300, 'Rua do Almada 88']],
    [[300, '4050-032 Porto']],
    'Fatura FT 2024/118',
    [[50, 'Consultoria fiscal'], [480, '250,00']],
    [[300, 'Total a pagar'], [480, 'EUR 1 040,31']],
    'Contas Certas - Contabilidade e Gestão, Lda.',
    'NIF 514 227 893',
  ], [0], 1.6);
  assert.equal(read(p, [VENDOR]).vendor, 'Contas Certas - Contabilidade e Gestão, Lda.');
});

test("the seller's tax number under its own block counts for it, not for the buyer's name printed level with it", () => {
  // An accounting tool's layout: the seller's block at the left, the customer's in the address window at
  // the right, starting on the line of the seller's tax number; no cue names either.
  const lines: FixtureLine[] = [
    [[60, 'Talleres Gráficos Albaicín']],
    [[45, 'Talleres Gráficos Albaicín S.L.']],
    [[45, 'Calle Elvira, 74']],
    [[45, '18010 Granada']],
    [[45, 'España']],
    [[45, 'NIF: B18563420'], [350, 'Librería Alcazaba S.L.']],
    [[350, 'Avenida de la Constitución, 21']],
    [[350, '18012 Granada']],
    [[350, 'España']],
    [[350, 'NIF: B19044817']],
    'Factura FACT/2024/00342',
    'Fecha de factura: 25/03/2024',
  ];
  assert.equal(read(page(lines, [0], 1.6), [VENDOR]).vendor, 'Talleres Gráficos Albaicín S.L.');
});

test('a receipt for money received: its payer ("Received from" Mr. …) is not the business', () => {
  const COMPANY: FieldDefinition = { name: 'company', type: 'text', description: 'Name of the shop or business' };
  const lines: FixtureLine[] = [
    [[159, 'THE ANDAMAN BREEZE RESORT']],
    [[167, '88/4 Moo 3, Kata Road, Karon, Muang, Phuket 83100, Thailand']],
    [[187, 'Tel +66 76 330 418 · Tax ID 0835561004471 (Head Office)']],
    [[266, 'RECEIPT']],
    [[253, 'Official payment receipt']],
    [[55, 'Received from'], [145, 'Mr. Lukas Brandt'], [380, 'Receipt No.'], [445, 'RC-240418-007']],
    [[55, 'Address'], [145, 'Schillerstr. 12, 80336 München, Germany'], [380, 'Date'], [445, '18 Apr 2024']],
    [[55, 'Room / Folio'], [145, '2114 / F-55218'], [380, 'Cashier'], [445, 'Siriporn K.']],
    [[59, 'Description'], [475, 'Amount (THB)']],
    [[59, 'Room charges – Deluxe Sea View, 4 nights'], [493, '10,400.00']],
    [[270, 'Total (incl. 10% service charge & 7% VAT)'], [497, '12,840.00']],
    [[270, 'Amount received'], [466, 'THB 12,840.00']],
    [[55, 'Received with thanks. This receipt confirms full settlement of the folio above.']],
  ];
  const ADDRESS: FieldDefinition = { name: 'address', type: 'text', description: 'Address of the shop' };
  const got = read(page(lines), [COMPANY, ADDRESS]);
  assert.equal(got.company, 'THE ANDAMAN BREEZE RESORT');
  assert.equal(got.address, '88/4 Moo 3, Kata Road, Karon, Muang, Phuket 83100, Thailand');
});

test("a party's heading without its colon is no part of the name: over it, or before it on its line", () => {
  const czech: FixtureLine[] = [
    'Faktura – daňový doklad č. 20240518',
    [[50, 'Dodavatel'], [330, 'Odběratel']],
    [[50, 'Stavebniny Horák s.r.o.'], [330, 'Ing. Petra Dvořáková']],
    [[50, 'Vídeňská 412/88'], [330, 'Jundrovská 31']],
    [[50, '639 00 Brno'], [330, '624 00 Brno']],
    [[50, 'IČO: 26981455 DIČ: CZ26981455'], [330, 'IČO: 07718842']],
  ];
  // Set solid, as a text layer sets a heading over its block: 2 pt between the lines.
  const solid = makePage(czech);
  for (const w of solid.words) if (w.y0 === 64) (w.y0 += 2), (w.y1 += 2);
  assert.equal(read(solid, [VENDOR]).vendor, 'Stavebniny Horák s.r.o.');
  const oneLine: FixtureLine[] = ['INVOICE 2024-117', 'Supplier Northwind Traders Ltd', '12 High Street, London', 'VAT GB 123 4567 89', 'Bill to: Contoso Café'];
  assert.equal(read(makePage(oneLine), [VENDOR]).vendor, 'Northwind Traders Ltd');
});

test('the buyer after "Facturar a"; a seller named in its block by "Razón social:"', () => {
  const spanish: FixtureLine[] = [
    [[50, 'FACTURA'], [436, 'Lucía Ferrer Ortega']],
    [[424, 'Diseño gráfico y comunicación']],
    [[420, 'C/ Feria, 88, 2º B · 41003 Sevilla']],
    [[479, 'NIF 28841093-T']],
    [[50, 'Nº factura'], [135, '2024/031'], [330, 'Facturar a']],
    [[50, 'Fecha'], [135, '15/05/2024'], [330, 'Cervezas Artesanas Giralda S.L.']],
    [[50, 'Vencimiento'], [135, '14/06/2024'], [330, 'Pol. Ind. Store, C/ A, nave 14']],
    [[330, '41008 Sevilla']],
    [[330, 'CIF B-91447203']],
  ];
  assert.equal(read(page(spanish), [VENDOR]).vendor, 'Lucía Ferrer Ortega');
  const form: FixtureLine[] = [
    'PREFEITURA MUNICIPAL DE CURITIBA',
    'NOTA FISCAL DE SERVIÇOS ELETRÔNICA – NFS-e',
    'PRESTADOR DE SERVIÇOS',
    'Razão Social: Contabilidade Ipê Amarelo Ltda',
    'CNPJ: 18.441.220/0001-07',
    'TOMADOR DE SERVIÇOS',
    'Razão Social: Padaria e Confeitaria Trigo Dourado Ltda ME',
    'CNPJ: 27.118.904/0001-33',
  ];
  assert.equal(read(page(form), [VENDOR]).vendor, 'Contabilidade Ipê Amarelo Ltda');
});
