// Receipts as shops of several countries print them: where the address ends, the legal name under a
// brand, ticket fares, the date beside a check number, OCR's ß and the O of a state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldDefinition } from '../../src/api/types.js';
import { extractFields } from '../../src/engine/builtin/extract-fields.js';
import { nameEvidence } from '../../src/engine/builtin/letterhead.js';
import { documentLines } from '../../src/engine/layout/lines.js';
import type { PageText } from '../../src/engine/types.js';
import { makePage, type FixtureLine } from './page-fixture.js';

const FIELDS: FieldDefinition[] = [
  { name: 'company', type: 'text', description: 'Name of the shop or business' },
  { name: 'date', type: 'date', description: 'Date of purchase' },
  { name: 'address', type: 'text', description: 'Address of the shop' },
  { name: 'total', type: 'number', description: 'Total amount paid' },
];
/** An OCR page: every word read with a confidence of 90. */
function ocr(lines: FixtureLine[]): PageText {
  const page = makePage(lines);
  for (const w of page.words) w.conf = 90;
  return { ...page, source: 'ocr' };
}
const read = (lines: FixtureLine[]) => extractFields({ pages: [ocr(lines)], fields: FIELDS, dateFormat: null, detectLayout: true, detectTables: false }).data;

test('an address ends at a store number, a phone number, a terminal id or a ticket line', () => {
  assert.equal(read(['VALLEY FRESH FOODS', '1820 W Main St', 'Mesa, AZ 85201', '(480) 555-0134 Mgr: MARIA', 'Store #0412']).address, '1820 W Main St Mesa, AZ 85201');
  assert.equal(read(['FRESH MART', 'Store #2231', '2150 N Loop 1604 W', 'San Antonio, TX 78248']).address, '2150 N Loop 1604 W San Antonio, TX 78248');
  assert.equal(read(['PHARMACIE DU CENTRE', '4 rue Victor Hugo', '06000 Nice', 'Tél : 04 48 70 73 41']).address, '4 rue Victor Hugo 06000 Nice');
  assert.equal(read(['CAFE LUMIERE', '9 avenue Foch', '75016 Paris', 'TID: 74766533 MID: 240736685304']).address, '9 avenue Foch 75016 Paris');
  assert.equal(read(['NORTHERN RAIL', 'Central Station, Station Road', 'Leeds LS1 4DY', '2 X ADULT ANYTIME SINGLE']).address, 'Central Station, Station Road Leeds LS1 4DY');
  assert.equal(read(['BÄCKEREI SONNE', 'BahnhofstraBe 12', '80335 München', 'QUITTUNG']).address, 'Bahnhofstraße 12 80335 München');
});

test('a brand over the legal name gives the legal name; a French form may come first', () => {
  assert.equal(read(['THE LUMEN', 'Lumen Hospitality Pte Ltd', '1 Bayfront Avenue', 'Singapore 018971']).company, 'Lumen Hospitality Pte Ltd');
  assert.equal(read(['MARCHE DES HALLES', 'SAS Halles Distribution', '12 rue de la République', '69002 Lyon']).company, 'SAS Halles Distribution');
});

test("a ticket's fare is its total; a check number does not hide the date; OCR's 0 for a state's O still reads the date month-first", () => {
  assert.equal(read(['CITY PARKING', 'Einfahrt 12:01', [[50, 'Parkgebuhr'], [300, '4,00 EUR']], 'enth. MwSt 19% 0,64']).total, 4);
  const bill = read(['PEARL STREET GRILL', '1207 Pearl Street', 'Boulder, c0 80302', 'Check #3244 05/02/2023 8:33 PM', [[50, 'TOTAL'], [300, '42.10']]]);
  assert.equal(bill.date, '2023-05-02');
});

test('an address: a street without a street word over its postcode row, the address parts of a footer line, the owner or a label row ends it', () => {
  assert.equal(read(['SUPERMERCADOS LA HUERTA S.L.', 'C/ Mayor, 23', '28013 Madrid', 'NIF B-84512377']).address, 'C/ Mayor, 23 28013 Madrid');
  assert.equal(read(['ParkStad Garage Centrum', 'Weteringschans 85', '1017 RZ Amsterdam', 'Tel. 020 555 1234']).address, 'Weteringschans 85 1017 RZ Amsterdam');
  assert.equal(read(['Stadt-Apotheke', 'Marktplatz 3', '69117 Heidelberg', 'Inh. Dr. Katrin Brandt e.K.']).address, 'Marktplatz 3 69117 Heidelberg');
  assert.equal(read(['SNCF Voyageurs', '12 boulevard de Vaugirard, 75015 Paris', 'Référence dossier : GXRNCQ']).address, '12 boulevard de Vaugirard, 75015 Paris');
  // A row that runs on into a register entry.
  assert.equal(read(['ShopKart', 'Plot 21, Sector 44, Gurugram, Haryana 122003 CIN U52100HR2016PTC061234', 'Order Confirmation']).address, 'Plot 21, Sector 44, Gurugram, Haryana 122003');
  // A footer of parts: the name, the address, the tax number.
  assert.equal(read(['Northstar Tickets', 'E-TICKET RECEIPT', 'Northstar Tickets · 200 Bay St, Suite 1400, Toronto, ON M5J 2J2 · HST 81122 4455 RT0001']).address, '200 Bay St, Suite 1400, Toronto, ON M5J 2J2');
});

test('a web shop\'s receipt: the shop\'s address is not the delivery address labelled under it', () => {
  const page = makePage([
    'Nordlicht Versand GmbH',
    'service@nordlicht-versand.example',
    [[50, 'Hafenstraße 12'], [250, 'Tel. 040 3344 5500']],
    '20457 Hamburg',
    'Ihre Bestellung Nr. 29693330',
    'Merino-Socken 2er-Pack 1 17,50 €',
    'Gesamtsumme 17,50 €',
    'Lieferadresse',
    'Jonas Weber',
    'Gartenweg 5',
    '34117 Kassel',
  ]);
  const data = extractFields({ pages: [page], fields: FIELDS, dateFormat: null, detectLayout: true, detectTables: false }).data;
  assert.equal(data.address, 'Hafenstraße 12 20457 Hamburg');
});

test('a shop name wrapped onto the next line on narrow paper is read whole', () => {
  assert.equal(read(['HENG HUAT HARDWARE SDN', 'BHD', '(002345-K)', 'NO 12, JALAN BESI 3', '81200 JOHOR BAHRU']).company, 'HENG HUAT HARDWARE SDN BHD');
  assert.equal(read(['LE FOURNIL DE', 'CLEMENCE', '8 rue des Carmes', '31000 Toulouse']).company, 'LE FOURNIL DE CLEMENCE');
  assert.equal(read(['Kessler Bau- und Gartenmarkt GmbH &', 'Co. KG', 'Industriestr. 25', '76131 Karlsruhe']).company, 'Kessler Bau- und Gartenmarkt GmbH & Co. KG');
  // The town under a name is no part of it.
  assert.equal(read(["BRADY'S BAKERY", '7 Main Street', 'Westport']).company, "BRADY'S BAKERY");
});

test("a mall's name inside the shop's address, running on with a comma, is no part of the shop's name", () => {
  const r = read(['KOPI KITA Pavilion Kuala Lumpur', 'LG2.101, Lower Ground Two,', 'Pavilion Kuala Lumpur,', '168, Jalan Bukit Bintang,', '55100 Kuala Lumpur', 'TAX INVOICE', [[50, 'TOTAL'], [300, '12.40']]]);
  assert.equal(r.company, 'KOPI KITA Pavilion Kuala Lumpur');
  assert.equal(r.address, 'LG2.101, Lower Ground Two, Pavilion Kuala Lumpur, 168, Jalan Bukit Bintang, 55100 Kuala Lumpur');
});

test("a till's salesperson after a seller's label is not the shop; a label's value beside it does not label the line under it", () => {
  const r = read(['Fromagerie des Alpes', '3 place du Marché', '74000 Annecy', 'Ticket 4412 Vendeur: Lucas', 'Table 4 Couverts 2', 'Tomme de Savoie 8,40', [[50, 'TOTAL'], [300, '8,40']]]);
  assert.equal(r.company, 'Fromagerie des Alpes');
});

test('a street with its number is no shop name, whatever its words: "12 Corn Market Square", "C/ Mayor,14", "Via Roma, 8"', () => {
  assert.equal(read(['The Tin Teapot', '12 Corn Market Square', 'Dorchester', 'Dorset DT1 1BA', [[50, 'TOTAL'], [300, '6.20']]]).company, 'The Tin Teapot');
  const es = read(['BAR LA PARRA', 'C/ Alcala,71', '28009 Madrid', 'NIF: B12345678', [[50, 'TOTAL'], [300, '9,80']]]);
  assert.deepEqual([es.company, es.address], ['BAR LA PARRA', 'C/ Alcala,71 28009 Madrid']);
  assert.equal(read(['TRATTORIA DEL PONTE', 'Via Roma, 8', '40121 Bologna', [[50, 'TOTALE'], [300, '31,00']]]).company, 'TRATTORIA DEL PONTE');
});

test("a brand over its company's legal name gives the legal name, not both joined", () => {
  // The legal name is a name of its own (two words besides its form) or repeats the brand's words.
  assert.equal(read(['THE JADE ROOM', 'CORAL LEISURE PTE LTD', '3 Fullerton Road', 'Singapore 049215', [[50, 'TOTAL'], [300, '44.00']]]).company, 'CORAL LEISURE PTE LTD');
  assert.equal(read(['HAPPY WOK NOODLE BAR', 'HAPPY WOK F&B PTE LTD', '#02-11 EAST POINT MALL', '3 SIMEI STREET 6', 'SINGAPORE 528833']).company, 'HAPPY WOK F&B PTE LTD');
});

test("a unit number on its own row stays in the address; a chain's store number under it ends the address; a postcode's zeros read as O are zeros", () => {
  assert.equal(read(['GREENLEAF MART', 'Blk 88 Tampines Street 81', '#01-240', 'Singapore 520088', 'Tel: 6785 1122']).address, 'Blk 88 Tampines Street 81 #01-240 Singapore 520088');
  assert.equal(read(['FUEL-N-GO', '1200 E Main St', 'Mesa, AZ 85203', 'STORE 0417', '(480) 555-0101']).address, '1200 E Main St Mesa, AZ 85203');
  assert.equal(read(['KEDAI UBAT SENTOSA', 'NO 3, JALAN MERANTI 2,', '813OO SKUDAI, JOHOR', 'TEL: 07-5561234']).address, 'NO 3, JALAN MERANTI 2, 81300 SKUDAI, JOHOR');
});

test('the thanks "for shopping with us" names nobody; a trade alone after "From:" is a place, not the shop', () => {
  assert.equal(read(['Fresh every day', 'GOLDEN LOTUS BAKEHOUSE', '150 Jalan Besar #01-23', 'Singapore 310104', 'TOTAL S$ 21.30', 'THANK YOU FOR SHOPPING WITH US']).company, 'GOLDEN LOTUS BAKEHOUSE');
  const [cabs, from] = documentLines([ocr(['KAMPONG CABS', 'From: Hotel'])], { detectLayout: true });
  for (const trade of ['Hotel', 'RESTAURANT', 'Coffee Shop']) assert.ok(nameEvidence(trade, from) < nameEvidence('KAMPONG CABS', cabs) - 0.15, trade);
});

test('a founding year under the name is no address line; a house number run into its street and a plot number start one', () => {
  assert.equal(read(['PRAIRIE ROSE CHEMIST', 'Since 1987', '9543 Commerce Dr', 'Columbus, OH 43215', 'TOTAL 73.08']).address, '9543 Commerce Dr Columbus, OH 43215');
  const luigi = read(["LUIGI'S TRATTORIA", 'Family Italian Kitchen since 1987', '418 COLUMBUS AVE', 'NEW YORK, NY 10024', '(212) 555-0147', 'Server: Tony M Table 12', 'TOTAL 166.91']);
  assert.deepEqual([luigi.company, luigi.address], ["LUIGI'S TRATTORIA", '418 COLUMBUS AVE NEW YORK, NY 10024']);
  assert.equal(read(['HOTEL BANKSIA', '99BrunswickSt', 'Windsor VIC 3181', 'Ph: (04) 9261 3012', 'TOTAL 30.50']).address, '99BrunswickSt Windsor VIC 3181');
  assert.equal(read(['LAKSHMI MEDICALS', 'Plot 55, Sector 18', 'Bengaluru - 560001, Karnataka', 'GSTIN 29ABCDE1234F1Z5', 'TOTAL 1125.00']).address, 'Plot 55, Sector 18 Bengaluru - 560001, Karnataka');
});

test('the town under a street line is no shop name: the name over the street is', () => {
  const r = read(['HOLBROOK FOODS', '12-14 High Street', 'Market Harborough', 'LE16 7NJ', 'Tel: 01858462310', 'BALANCE DUE 19.43']);
  assert.equal(r.company, 'HOLBROOK FOODS');
  assert.equal(r.address, '12-14 High Street Market Harborough LE16 7NJ');
});

test('a total under the rounding line, a few cents off the one over it, is what was paid, whatever OCR made of the adjustment', () => {
  assert.equal(read(['SEJAHTERA PHARMACY SDN BHD', 'NO 3, JALAN SS 15/4B', 'TOTAL INCL. GST', 'ROUNDING ADJ 94.33', '0.02', 'TOTAL RM94.35', 'CASH', 'CHANGE 100.00', '5.65']).total, 94.35);
});

test('OCR\'s "ll" alone is the capital I it misread: "Hotel ll Girasole" is "Hotel Il Girasole"', () => {
  assert.equal(read(['Hotel ll Girasole', 'Via Po 15', '10124 Torino (TO)', 'TOTALE 45,70']).company, 'Hotel Il Girasole');
});

test('addresses of more countries: an Eircode and its county, a Portuguese or Polish postcode under a street, ul., Soi, Brgy.', () => {
  const irish = read(['THE HARBOURVIEW HOTEL', 'Lighthouse Bar', 'Strand Road', 'Kinsale Co. Cork P17 XK23', '+353 21 555 4410', 'TOTAL 39.20']);
  assert.equal(irish.company, 'THE HARBOURVIEW HOTEL');
  assert.equal(irish.address, 'Strand Road Kinsale Co. Cork P17 XK23');
  assert.equal(read(['Farmacia Central da Ribeira', 'Praca da Ribeira 8', '4050-513 Porto', 'Tel. 22 555 1470', 'TOTAL 20,40']).address, 'Praca da Ribeira 8 4050-513 Porto');
  assert.equal(read(['SKLEP POD LIPA', 'ul. Długa 17', '31-147Kraków', 'NIP 676-243-18-07', 'SUMA PLN 160,09']).address, 'ul. Długa 17 31-147Kraków');
  assert.equal(read(['GADGET HUB SIAM', 'Siam Square Soi 3', 'Pathum Wan Bangkok 10330', 'Tel. 02 555 0142', 'TOTAL 541.50']).address, 'Siam Square Soi 3 Pathum Wan Bangkok 10330');
  assert.equal(read(['BAYANIHAN PETROLEUM', 'National Highway Brgy. Tagapo', 'Santa Rosa Laguna 4026', 'TIN 123-456-789-000', 'TOTAL 2,084.98']).address, 'National Highway Brgy. Tagapo Santa Rosa Laguna 4026');
});

test('legal forms of more countries name the company under a brand: Swiss "Sagl", Indonesian "PT" before the name, Polish "Sp. z o.o." read with a zero', () => {
  assert.equal(read(['Ristorante al Porticciolo', 'Porticciolo Gastro Sagl', 'Via Nassa 27', '6900 Lugano', 'TOTALE CHF 105.00']).company, 'Porticciolo Gastro Sagl');
  assert.equal(read(['KOPI SENJA', 'PT Kopi Senja Nusantara', 'Jl. Braga No. 47', 'Bandung 40111', 'Telp. (022) 555 4380', 'JUMLAH Rp 111.800']).company, 'PT Kopi Senja Nusantara');
  assert.equal(read(['SKLEP SPOZYWCZY POD LIPA', 'Pod Lipa Sp. z o.0.', 'ul. Długa 17', '31-147 Kraków', 'SUMA PLN 160,09']).company, 'Pod Lipa Sp. z o.o.');
});

test('a Mexican receipt in pesos reads its dates day first (C.P., RFC), and "Telp." ends an address', () => {
  const mx = read(['FARMACEUTICA DEL ROBLE', 'Av. Revolución 1320, Col. San Ángel', 'CDMX C.P. 01000', 'RFC FRO120304AB1', '12/10/2024 18:22', 'TOTAL $245.50', 'EFECTIVO $300.00', 'CAMBIO $54.50']);
  assert.equal(mx.date, '2024-10-12');
  assert.equal(read(['KOPI SENJA', 'Jalan Braga 47', 'Bandung 40111', 'Telp. (022) 555 4380', 'JUMLAH Rp 111.800']).address, 'Jalan Braga 47 Bandung 40111');
});

test('a South African close corporation (CC) is a legal name; a shop number after its mall\'s name is the address', () => {
  const r = read(['Books * Maps * Gifts', 'The Reading Room', 'Reading Room Books CC', 'Musgrave Centre Shop 208', '115 Musgrave Road', 'Berea Durban 4001', 'TOTAL R347.98']);
  assert.equal(r.company, 'Reading Room Books CC');
  assert.equal(r.address, 'Musgrave Centre Shop 208 115 Musgrave Road Berea Durban 4001');
});

test('on a scan, a title beside the name is cut off after the name\'s legal form', () => {
  const p = ocr([[[50, 'GRANITE PEAK PLUMBING LLC'], [260, 'SERVICE INVOICE']], '4410 Canyon Rd, Boulder, CO 80301', 'Invoice # 24-1187', 'TOTAL DUE $1,968.42']);
  p.words.find((w) => w.text === 'SERVICE')!.x0 = 212;
  const data = extractFields({ pages: [p], fields: [{ name: 'vendor', type: 'text', description: 'Name of the seller issuing the invoice' }], dateFormat: null, detectLayout: true, detectTables: false }).data;
  assert.equal(data.vendor, 'GRANITE PEAK PLUMBING LLC');
});

test('OCR\'s O and 0 put back in a Canadian province and postal code; "StraBe" alone is Straße', () => {
  assert.equal(read(['MAPLE LEAF GROCER', '1187 Queen St W', 'Toronto 0N M6J 1J2', 'HST # 81234 5678 RT0001', 'TOTAL $21.51']).address, '1187 Queen St W Toronto ON M6J 1J2');
  assert.equal(read(['PRAIRIE AUTO SPA', '3302 17 Ave SE', 'Calgary AB T2A OR1', 'GST # 81234 5678', 'TOTAL $24.15']).address, '3302 17 Ave SE Calgary AB T2A 0R1');
  assert.equal(read(['CAFE SPERL', 'Mariahilfer StraBe 112', '1070 Wien', 'UID ATU12345678', 'SUMME EUR 12,40']).address, 'Mariahilfer Straße 112 1070 Wien');
});

test('the legal name behind a brand: printed after it with its number, without the brand\'s article, or as the operator', () => {
  const books = read(['Dog-Eared', 'BOOKS', '214 Brunswick St', 'Fitzroy VIC 3065', 'TAX INVOICE', '03/10/2024 14:22', 'The Salt Path 24.99', 'TOTAL $24.99', 'EFTPOS 24.99', 'Dog-Eared Books Pty Ltd ABN 12 345 678 901']);
  assert.equal(books.company, 'Dog-Eared Books Pty Ltd');
  const cafe = read(['The Daily Grind', '14 Market Street', 'Hebden Bridge HX7 6AA', 'Sat 22 Jun 2024 at 08:47', 'Flat White x 2 6.80', 'Total 6.80', 'Visa 6.80', 'Daily Grind Coffee Ltd · Company No. 11872345']);
  assert.equal(cafe.company, 'Daily Grind Coffee Ltd');
  const post = read(['ASHBY ROAD POST OFFICE', '212 Ashby Road', 'Loughborough LE11 3AG', 'Operated by Kingsley Retail Services Ltd', 'VAT Reg No: 199 4471 20', 'Branch FAD: 284517 Node: 2', 'Session: 4-118722 Clerk: SK', 'Date: 11/09/2024 Time: 15:32', '1st Class Stamp Book x4 5.40 E', 'TOTAL TO PAY £5.40']);
  assert.equal(post.company, 'Kingsley Retail Services Ltd');
  assert.equal(post.address, '212 Ashby Road Loughborough LE11 3AG');
  const unit = read(['HOTEL SRI ANNAPOORNA', '(A Unit Of SRI ANNAPOORNA FOODS)', 'No. 14, Usman Road, T. Nagar, Chennai - 600017', 'GSTIN: 33AABCS1234F1Z5', 'Date: 08/12/2023', 'Masala Dosa 2 218.00', 'Grand Total 218.00']);
  assert.equal(unit.company, 'SRI ANNAPOORNA FOODS');
  assert.equal(unit.address, 'No. 14, Usman Road, T. Nagar, Chennai - 600017');
});

test('"Total includes GST of" states the tax; a date glued to its label; the buyer\'s form at the foot is not the shop\'s address', () => {
  const gst = read(['Dog-Eared Books', '214 Brunswick St', 'Fitzroy VIC 3065', 'Subtotal 101.94', 'TOTAL $99.44', 'Total includes GST of $9.04']);
  assert.equal(gst.total, 99.44);
  const glued = read(['SEGARMART', 'PT SEGAR RETAIL NUSANTARA', 'JL. RAYA BOGOR KM 23 NO.5', 'TOTAL 153.700', 'TUNAI : 200.000', 'Tgl.05-03-2024 19:41:22']);
  assert.equal(glued.date, '2024-03-05');
  const form = read(['BOTICA SAN ROQUE', 'SAN ROQUE HEALTHCARE CORP.', 'VAT REG TIN: 009-876-543-00000', 'SALES INVOICE', 'TOTAL AMOUNT DUE 1,070.50', 'CASH 1,100.00', 'Sold to:', 'Address:', 'TIN', 'Salamat po!']);
  assert.notEqual(form.address, 'TIN');
});

test('OCR\'s digits inside the words of an address are put back: Cre5cent, 0ak, P.0. Box, 0slo', () => {
  assert.equal(read(['ZIPCAB PTE LTD', '10 Ubi Cre5cent #05-12', 'Singapore 408564', 'TOTAL 12.40']).address, '10 Ubi Crescent #05-12 Singapore 408564');
  assert.equal(read(['HARVEST LANE MARKET', '1450 0ak Grove Rd', 'Walnut Creek, CA 94598', 'TOTAL 41.76']).address, '1450 Oak Grove Rd Walnut Creek, CA 94598');
  assert.equal(read(['NAKUMART LTD', 'Moi Avenue, Tumaini House', 'P.0. BOx 12345-00100, Nairobi', 'TOTAL 820.00']).address, 'Moi Avenue, Tumaini House P.O. BOx 12345-00100, Nairobi');
  assert.equal(read(['Bypark Drift AS', 'Torggata 5, 0181 0slo', 'Belop kr 196,00']).address, 'Torggata 5, 0181 Oslo');
});

test("where a shop's address ends: a till's rows, a currency heading, the title; an address label; Norwegian and Vietnamese totals", () => {
  assert.equal(read(['SEGARMART', 'PT SEGAR RETAIL NUSANTARA', 'JL. RAYA BOGOR KM 23 NO.5', 'CIRACAS, JAKARTA TIMUR 13740', '2231-SM CIRACAS RAYA/1/2231/KASIR-04', 'TOTAL 153.700']).address, 'JL. RAYA BOGOR KM 23 NO.5 CIRACAS, JAKARTA TIMUR 13740');
  assert.equal(read(['FrischMarkt', 'Filiale Nurnberg-Sud', 'Allersberger Str. 120', '90461 Nurnberg', 'EUR', 'Bio Vollmilch 3,8%', '2 x 1,29 2,58 A', 'zu zahlen 2,58', 'FrischMarkt Handels GmbH', 'HRB 31102 AG Nurnberg']).address, 'Allersberger Str. 120 90461 Nurnberg');
  assert.equal(read(['BOM PRECO COMERCIO DE ALIMENTOS LTDA', 'RUA AUGUSTA, 1500 - CONSOLACAO', 'SAO PAULO - SP CEP 01304-001', 'Documento Auxiliar da Nota Fiscal de', 'Consumidor Eletronica', 'ARROZ T1 5KG 28,99']).address, 'RUA AUGUSTA, 1500 - CONSOLACAO SAO PAULO - SP CEP 01304-001');
  const parking = read(['BYPARK', 'Bypark Drift AS', 'Torggata 5, 0181 Oslo', 'KVITTERING', 'Automat: 03', 'Belop kr 196,00', 'herav MVA 25% 39,20', 'Takk for besoket!']);
  assert.deepEqual([parking.address, parking.total], ['Torggata 5, 0181 Oslo', 196]);
  const pho = read(['PHO BAC 1950', 'CONG TY TNHH AM THUC BAC HA', 'MST: 0312345678', 'D/c: 125 Nguyen Thai Hoc, P. Cau Ong Lanh,', 'Quan 1, TP. Ho Chi Minh', 'DT: 0283821 4567', 'HOA DON THANH TOAN', 'Ngay: 05/03/2024', 'Thanh tien: 338.000', 'Tong cong: 365.040', 'Tien khach dua: 400.000']);
  assert.deepEqual([pho.company, pho.address, pho.total], ['CONG TY TNHH AM THUC BAC HA', '125 Nguyen Thai Hoc, P. Cau Ong Lanh, Quan 1, TP. Ho Chi Minh', 365040]);
});

test('an address ends at opening hours, a "Tlf." phone or a CVR number; a name is cut before its legal mention; a centred legal form under its name', () => {
  assert.equal(read(['FRISCHMARKT HAGEN', 'Elberfelder Str. 88', '58095 Hagen', 'Offnungszeiten Mo-Sa 7-21 Uhr']).address, 'Elberfelder Str. 88 58095 Hagen');
  assert.equal(read(['BAR LA GIRALDA', 'C/ Feria, 34', '41003 Sevilla Tlf. 954 218 840']).address, 'C/ Feria, 34 41003 Sevilla');
  assert.equal(read(['ODENSE BAGERI', 'Nørregade 22', '5000 Odense C', 'CVR 38123456']).address, 'Nørregade 22 5000 Odense C');
  assert.equal(read(['BISTROT DES TROIS ORMES', 'SAS Trois Ormes au capital de 10 000', '14 rue Mercière', '69002 Lyon']).company, 'SAS Trois Ormes');
  const mx = ocr([[[180, 'FARMACIA LA LUZ']], [[130, 'Comercializadora Santa Lucía,']], [[181, 'S.A. de C.V.']], [[120, 'Av. Juárez No. 215, Col. Centro']], [[150, 'C.P. 06050, CDMX']]]);
  assert.equal(extractFields({ pages: [mx], fields: FIELDS, dateFormat: null, detectLayout: true, detectTables: false }).data.company, 'Comercializadora Santa Lucía, S.A. de C.V.');
});

test('a town over a phone line is no name; a second line over the company number is the name\'s; "Lda." before a person is a title', () => {
  assert.equal(read(['WARUNG MAKAN BU DARMI', 'Jl. Kaliurang Km 5,6 No.12', 'Sleman, Yogyakarta', 'Telp.0274-881234', 'No: 260314-0057']).company, 'WARUNG MAKAN BU DARMI');
  assert.equal(read(['RESTORAN NASI KANDAR', 'AL-HIKMAH', '(002345678-X)', 'NO 22, JALAN BURMA,', '10050 GEORGETOWN, PULAU PINANG']).company, 'RESTORAN NASI KANDAR AL-HIKMAH');
  assert.equal(read(['FARMACIA RUIZ MEDINA', 'Lda. Carmen Ruiz Medina', 'NIF: 50123456K', 'Avda. de la Constitución, 112', '28850 Torrejón de Ardoz']).company, 'FARMACIA RUIZ MEDINA');
});

test('"Av." opens a street: the address under a tax number starts there ("Av. Juárez No. 215, Col. Centro")', () => {
  assert.equal(read(['FARMACIA SANTA LUCIA', 'Comercializadora Santa Lucía, S.A. de C.V.', 'RFC: CSL980312AB4', 'Av. Juárez No.215, Col. Centro', 'C.P. 06050, Cuauhtémoc, CDMX', 'Ticket: T-0193-552871']).address, 'Av. Juárez No.215, Col. Centro C.P. 06050, Cuauhtémoc, CDMX');
});

test("the shop's name over its address, where the address reads like a name: a county's Co., a street without its number, OCR's B for ß", () => {
  const ie = read(['DAYBREAK FOODS', 'Daybreak Foods Ireland Ltd', 'Unit 3, Main Street', 'Naas, Co. Kildare', 'W91 X2P4', 'Tel: 045 879 210', 'TOTAL 56.47']);
  assert.equal(ie.company, 'Daybreak Foods Ireland Ltd');
  assert.equal(ie.address, 'Unit 3, Main Street Naas, Co. Kildare W91 X2P4');
  const uk = read(['Riverside Multi-Storey Car Park', 'Castle Way', 'Exeter EX1 1RR', 'VAT No. 817335460', 'Parking Fee 11.20']);
  assert.deepEqual([uk.company, uk.address], ['Riverside Multi-Storey Car Park', 'Castle Way Exeter EX1 1RR']);
  const at = read(['Funktaxi Innsbruck 5311', 'Amraser StraBe 6', '6020 Innsbruck', '0512 5311', 'UID ATU58123746', 'Summe EUR 36,85']);
  assert.equal(at.company, 'Funktaxi Innsbruck 5311');
  const fuel = read(['Aurora Petroli S.r.l.', 'S.S. 16 Adriatica km 214', '60019 Senigallia (AN)', 'P. IVA 01234567890', 'TOTALE EURO 72,57']);
  assert.equal(fuel.address, 'S.S. 16 Adriatica km 214 60019 Senigallia (AN)');
  const bakery = read(['Backerei Huber Gesellschaft m.b.H.', 'Mariahilfer Straße 112', '1070 Wien', 'UID ATU12345678', 'Summe EUR 28,15']);
  assert.equal(bakery.company, 'Backerei Huber Gesellschaft m.b.H.');
});

test("a pharmacy with its pharmacist's title, over the receipt's title; the place after a taxi's label is no name", () => {
  const it = read(['Farmacia San Rocco dott.ssa Lucia Bianchi', 'Corso Vittorio Emanuele 88', '80121 Napoli', 'P. IVA 07123456789', [[80, 'DOCUMENTO COMMERCIALE']], 'di vendita o prestazione', 'TOTALE COMPLESSIVO 40,70']);
  assert.equal(it.company, 'Farmacia San Rocco dott.ssa Lucia Bianchi');
  const taxi = read(['TAXI BARCELONA LIC.07814', 'C/ de Sants,112', '08014 Barcelona', 'NIF: 46123987L', [[50, 'Origen:'], [120, 'Pl. Catalunya']], 'TOTAL 34,73']);
  assert.equal(taxi.company, 'TAXI BARCELONA LIC.07814');
});

test('addresses of Turkish, Hungarian and Finnish shops, ending at till, tax office and register rows; Greek and OCR-read Polish legal forms', () => {
  const tr = read(['KAHVE DURAGI', 'Durak Gida San. ve Tic. Ltd. Sti.', 'Moda Cad. No: 45', 'Kadikoy / ISTANBUL', 'KADIKOY V.D. 1234567890', 'TOPLAM *570,00', 'NAKIT *600,00', 'PARA USTU *30,00']);
  assert.deepEqual([tr.address, tr.total], ['Moda Cad. No: 45 Kadikoy / ISTANBUL', 570]);
  assert.equal(read(['Toth es Tarsa Kft.', 'Kiraly utca 26.', '1061 Budapest', 'Adoszam: 12345678-2-42', 'OSSZESEN 2 165']).address, 'Kiraly utca 26. 1061 Budapest');
  assert.equal(read(['Koivu Rauta Oy', 'Hameenkatu 15', '33100 Tampere', 'Y-tunnus 1234567-8 puh. 03 212 3344', 'Kassa 5 Myyja M Lena', 'YHTEENSA 111,50']).address, 'Hameenkatu 15 33100 Tampere');
  const gr = read(['MINI MARKET ANDREOU', 'ANDREOU G. & SIA O.E.', 'Ermou 54', '105 63 Athina', "A.F.M.099876543 D.O.Y. A' ATHINON", 'TEL.2103221145']);
  assert.deepEqual([gr.company, gr.address], ['ANDREOU G. & SIA O.E.', 'Ermou 54 105 63 Athina']);
  assert.equal(read(['Apteka Pod Lipami Sp. z 0.0.', 'ul. Lipowa 7', '31-123 Krakow', 'NIP 676-123-45-67']).company, 'Apteka Pod Lipami Sp. z o.o.');
  const my = read(['RESTORAN NASI KANDAR SRI BAYU', 'NO.27, JALAN SS 2/64,', '47300 PETALING JAYA, SELANGOR', '(JM0812345-T)', 'TEL: 016-332 8710']);
  assert.equal(my.address, 'NO.27, JALAN SS 2/64, 47300 PETALING JAYA, SELANGOR');
  assert.equal(read(['Starlite Theatres, Inc.', '3300 Mission Blvd', 'San Diego, CA 92109', 'POS9 CashierMARK #1402', '04/27/2024 7:17 PM']).address, '3300 Mission Blvd San Diego, CA 92109');
  assert.equal(read(['SERBAMART', 'PT. SUMBER RIZKI RETAILINDO', 'JL. RAYA BOGOR KM 23 NO.5', 'JAKARTA TIMUR 13750', 'NPWP: 01.234.567.8-091.000']).company, 'PT. SUMBER RIZKI RETAILINDO');
  // OCR boxed each word of the legal line apart: its leading form still leads the whole name.
  assert.equal(read(['Boulangerie Le Fournil', [[50, 'SARL'], [90, 'Le'], [115, 'Fournil']], '27 rue des Martyrs', '75009 Paris', 'SIRET 523 456 789 00021']).company, 'SARL Le Fournil');
});

test('receipts of the Baltics, Slovenia, Croatia, Bulgaria and Iceland: their totals, streets, a d.o.o. OCR read with a zero, a Croatian date glued to its time', () => {
  const ee = read(['PAGARIPOOD LEIVAKORV', 'Raekoja plats 9, Tartu', 'Tel 5345 6789', '02.11.2023 10:15', 'Tsekk 0087 Kassa 1', '2 x Kaneelirull 3,60', 'KOKKU 10,40', 'Sularaha 20,00', 'Tagasi 9,60']);
  assert.deepEqual([ee.company, ee.address, ee.total], ['PAGARIPOOD LEIVAKORV', 'Raekoja plats 9, Tartu', 10.4]);
  assert.deepEqual(read(['SIA Zalite Farm', 'Kokneses prospekts 18, Riga, LV-1014', 'PVN LV40003123456', 'KOPA EUR 15,83']).address, 'Kokneses prospekts 18, Riga, LV-1014');
  const si = read(['Kavarna Tromostov', 'Stritarjeva ulica 7', '1000 Ljubljana', 'Gostinstvo Kos d.o.0.', 'ID za DDV: SI12345678', 'SKUPAJ EUR 10,30']);
  assert.deepEqual([si.address, si.total], ['Stritarjeva ulica 7 1000 Ljubljana', 10.3]);
  const hr = read(['PEKARA KLAS', 'Ilica 112, 10000 Zagreb', 'OIB: 12345678903', 'Datum: 23.10.2024.06:52', 'Burek sa sirom 1 2,20', 'UKUPNO 6,80', 'Gotovina 10,00']);
  assert.deepEqual([hr.date, hr.total], ['2024-10-23', 6.8]);
  assert.equal(read(['Norourkaup ehf.', 'Hafnarstraeti 99, 600 Akureyri', 'Kt. 510101-2345', 'SAMTALS 3.691 kr']).address, 'Hafnarstraeti 99, 600 Akureyri');
  assert.equal(read(['ET Kalina', 'gr. Sofia, ul. Vitosha 28', 'OBSHTO 9.29 lv']).total, 9.29);
});


test("a taxi receipt's FROM and TO are the trip's ends, not the company", () => {
  const taxi: FixtureLine[] = ['SUNCOAST CABS', 'ABN 22 604 118 337', 'PO Box 1440, Maroochydore QLD 4558', '13 22 77', 'TAXI RECEIPT', 'DATE 02/09/2024', [[50, 'TAXI NO'], [150, 'SC 118']], [[50, 'START'], [150, '21:14']], [[50, 'FROM'], [150, 'Sunshine Coast Apt']], [[50, 'TO'], [150, 'Mooloolaba Esp']], [[50, 'FARE'], [150, '$35.30']], [[50, 'TOTAL'], [150, '$38.64']], 'PAID MASTERCARD'];
  assert.equal(read(taxi).company, 'SUNCOAST CABS');
});

test("a donation receipt: the address under the donor's name is the donor's, not the charity's", () => {
  const receipt: FixtureLine[] = [
    [[120, 'Harbourlight Community Food Bank']],
    [[120, '2150 Gottingen Street, Halifax, NS B3K 3B4']],
    [[120, 'Charitable registration no. 88412 2047 RR0001']],
    'OFFICIAL DONATION RECEIPT FOR INCOME TAX PURPOSES',
    [[60, 'Receipt number'], [290, '2023-01187']],
    [[60, 'Date donation received'], [290, 'December 18, 2023']],
    [[60, 'Donor'], [290, 'Ms. Claire Fitzgerald']],
    [[60, 'Address'], [290, '77 Oakland Road, Halifax, NS B3M 2J7']],
    [[60, 'Total amount of gift'], [290, '$250.00']],
  ];
  assert.equal(read(receipt).address, '2150 Gottingen Street, Halifax, NS B3K 3B4');
});

test("an address ends at the receipt's title in Portuguese, Spanish or Italian (recibo, boleta, ricevuta)", () => {
  for (const title of ['RECIBO DE ESTACIONAMENTO', 'BOLETA ELECTRONICA', 'RICEVUTA FISCALE']) {
    const got = read(['ESTACIONAMENTO CENTRAL PARK LTDA', 'CNPJ 14.882.041/0001-20', 'Rua XV de Novembro, 880', 'Centro - Curitiba/PR', title, 'Placa: BRA2E19', 'Data: 12/07/2024', 'TOTAL R$ 18,00']);
    assert.equal(got.address, 'Rua XV de Novembro, 880 Centro - Curitiba/PR', title);
  }
});

test("an OCR'd total one confusable digit off the sum of the amounts over it is that sum; a total that sums them is kept", () => {
  const taxi = ['CITYSTAR TAXI PTE. LTD.', 'Date : 05 JAN 2025', 'Metered Fare 18.40', 'Midnight Surcharge 50% 9.20', 'Location Surcharge 3.00', 'Booking Fee 3.30', 'Card Admin Fee 10% 3.39', 'TOTAL S$ 31.29', 'Paid by : VISA ****8831'];
  assert.equal(read(taxi).total, 37.29);
  assert.equal(read(taxi.map((l) => l.replace('31.29', '37.29'))).total, 37.29);
  // Far from any sum over it: kept as read.
  assert.equal(read(taxi.map((l) => l.replace('31.29', '45.00'))).total, 45);
});

test('a trading name ending "& CO." over the legal name gives the legal name', () => {
  const data = read(['PAGES & CO.', 'BOOKSELLERS', 'Pages and Company Pty Ltd', 'ABN 12 345 678 901', 'Shop 3, 210 Brunswick St', 'Fitzroy VIC 3065', '14/03/2024 15:20 Reg 1', 'Notebook A5 24.00', 'TOTAL AUD 95.90']);
  assert.equal(data.company, 'Pages and Company Pty Ltd');
});

test('a card terminal\'s "Merchant 1209445" labels no name under it', () => {
  const data = read(['DE HAMER', 'Bouwmarkt De Hamer B.V.', 'Industrieweg 18', '3542 AD Utrecht', 'Datum: 28-03-2024 10:33', 'Kwast synth. 50mm 3,79', 'TOTAAL 80,28', 'PIN 80,28', '*** PINBETALING ***', 'Terminal TX8844102', [[50, 'Merchant'], [300, '1209445']], [[50, 'Kaa rt'], [300, 'Maestro']], [[50, 'Kaartnr'], [300, '****1234']], 'Bedankt en tot ziens!']);
  assert.equal(data.company, 'Bouwmarkt De Hamer B.V.');
  // Nor the card acquirer's legal name printed under it.
  const acquirer = read(['DE HAMER', 'Bouwmarkt De Hamer B.V.', 'Industrieweg 18', '3542 AD Utrecht', 'Datum: 28-03-2024 10:33', 'TOTAAL 80,28', '*** PINBETALING ***', [[50, 'Merchant'], [300, '1209445']], 'Worldline Nederland B.V.', 'Bedankt en tot ziens!']);
  assert.equal(acquirer.company, 'Bouwmarkt De Hamer B.V.');
});

test('a house number OCR glued to its street ("3Kings Parade") is address, not the shop\'s name', () => {
  const data = read(['BEAN & LEAF', '3Kings Parade', 'Cambridge CB2 1SJ', 'VAT No: 287 654321', '05/03/24 08:02 Till 1', 'Flat White 3.40', 'TOTAL 13.20', 'Cash 20.00']);
  assert.equal(data.company, 'BEAN & LEAF');
});

test('a ride\'s "From:" and "To:" name where it began and ended, not the taxi company', () => {
  const data = read(['HARBOUR CITY CABS', 'Harbour City Cabs Pty Ltd', 'ABN 98 765 432 109', '45 Parramatta Rd', 'Annandale NSW 2038', 'Sat 23-Mar-2024 23:48', 'Taxi: T4417 Driver: 204871', 'From: Sydney Airport T1', 'To: Crown St, Surry Hills', 'Distance 11.4 km', 'Fare 41.60', 'TOTAL 59.47']);
  assert.equal(data.company, 'Harbour City Cabs Pty Ltd');
});

test('an address ends at a tax number OCR spaced out ("St . -Nr."), and a Turkish street\'s "Cad.No:" is the street\'s number', () => {
  assert.equal(read(['PARKHAUS AM MARKT', 'City Parken Dresden GmbH', 'Altmarkt 10', '01067 Dresden', 'St . -Nr.202/123/45678', 'QUITTUNG', '11.03.2024 14:02', 'Summe 18,00']).address, 'Altmarkt 10 01067 Dresden');
  assert.equal(read(['TEKNODUNYA', 'TEKNO DUNYA ELEKTRONIK LTD. STI.', 'Bagdat Cad.No: 245/A Kadikoy', '34728 ISTANBUL', 'KOZYATAGI V.D.8230012345', 'TARIH: 20.03.2024 SAAT: 16:22', 'TOPLAM *2.447,00']).address, 'Bagdat Cad.No: 245/A Kadikoy 34728 ISTANBUL');
});

/** An OCR page whose lines `big` are printed `by` times as tall (a shop's name over its till print). */
function readSized(lines: FixtureLine[], big: number[], by = 1.5) {
  const page = ocr(lines);
  for (const w of page.words) if (big.includes(Math.round((w.y0 - 50) / 14))) w.y1 = w.y0 + 10 * by;
  return extractFields({ pages: [page], fields: FIELDS, dateFormat: null, detectLayout: true, detectTables: false }).data;
}

test('a terminal\'s "Merchant : 000144782" labels not the line under it, even a company\'s name', () => {
  const data = read(['DE HAMER', 'Bouwmarkt De Hamer B.V.', 'Industrieweg 18', '3542 AD Utrecht', 'TOTAAL 80,28', '*** PINBETALING ***', 'Merchant : 000144782', 'Worldline Nederland B.V.', 'Bedankt en tot ziens!']);
  assert.equal(data.company, 'Bouwmarkt De Hamer B.V.');
});

test('legal forms of Bulgaria and Estonia (EOOD, OÜ as OCR reads it), a register entry of Belgium (RPR) and a logo\'s second line give the legal name', () => {
  assert.equal(readSized(['MARKETZORA', 'ZORA TRADE EOOD', 'bul. Vitosha 88', '1463 Sofia', 'EIK: 204567891', '19-06-2024 12:40:33', 'HLYAB DOBRUDZHA 650G 1.89B', 'OBSHTO 63.90'], [0]).company, 'ZORA TRADE EOOD');
  assert.equal(read(['HOTEL RAEKOJA', 'LOBBY BAR', 'Raekoja Hotell ou', 'Reg. kood 12345678', 'Vana-Viru 7', '10111 Tallinn', '22.02.2025 23:14', 'KOKKU EUR 72,00']).company, 'Raekoja Hotell ou');
  assert.equal(read(['De Linde', 'BUURTSUPER', 'Mechelsesteenweg 144', '2018 Antwerpen', 'BTW BE 0712.345.678', 'GOUDA JONG 500G 5,49 A', 'TOTAAL 68,75', '26/11/2024 17:09', 'Bedankt en tot ziens!', 'De Linde Retail BV RPR Antwerpen']).company, 'De Linde Retail BV');
  assert.equal(readSized(['TAXI', 'LJUBLJANICA', 'Ljubljanica prevozi d.o.o.', 'Dunajska cesta 56', '1000 Ljubljana', 'Datum : 07.03.2025', 'ZA PLACILO EUR 17,64'], [0]).company, 'Ljubljanica prevozi d.o.o.');
});

test('a trade word alone under a name in capitals completes it ("KALEVAN" / "APTEEKKI")', () => {
  assert.equal(readSized(['KALEVAN', 'APTEEKKI', 'Kalevantie 21', '33100 Tampere', 'Y-tunnus 1234567-8', '12.11.2024 14:03 Kuitti 30581', 'Burana 400 mg 8,47', 'MAKSETTAVA 66,15'], [0, 1]).company, 'KALEVAN APTEEKKI');
});
test('an address starts at a floor ("G/F") or a post box and ends before a labelled phone number or a tax status; OCR\'s "P.0." is P.O.', () => {
  assert.equal(read(['HEALTHPLUS PHARMA DISTRIBUTORS, INC.', 'G/F Robinsons Place', 'Pedro Gil cor. Adriatico St.', 'Ermita, Manila 1000', 'Tel. No. (02) 8521-4478', 'SALES INVOICE']).address, 'G/F Robinsons Place Pedro Gil cor. Adriatico St. Ermita, Manila 1000');
  assert.equal(read(['Harbour City Cabs Pty Ltd', 'ABN 12345 678 901', 'PO Box 455', 'Alexandria NSW 2015', 'Bookings 13 22 77', 'TAX INVOICE']).address, 'PO Box 455 Alexandria NSW 2015');
  assert.equal(read(['HOJAS DE OTONO S.R.L.', 'C.U.I.T. Nro. : 30-71234567-9', 'Av. Corrientes 1555', 'C1042AAD Ciudad Autonoma de Buenos Aires', 'IVA RESPONSABLE INSCRIPTO', 'FACTURA B (Cod.006)']).address, 'Av. Corrientes 1555 C1042AAD Ciudad Autonoma de Buenos Aires');
  assert.equal(read(['MWANGAZA HARDWARE LIMITED', 'Kenyatta Avenue, opp. Post office', 'P.0. BOX 1234-20100 Nakuru', 'Tel: 0722 123456']).address, 'Kenyatta Avenue, opp. Post office P.O. BOX 1234-20100 Nakuru');
});

test('the total a card slip adds a tip to, its pound sign read as "f", is the total paid', () => {
  const data = read(['THE PULTENEY BAR', '14 Great Pulteney Street', 'Bath BA2 4BR', '12/10/24 22:11', '2 Negroni 27.00', 'Subtotal 86.80', 'Discretionary Service 12.5% 10.85', 'Bill Total 97.65', 'VAT @ 20% included 16.28', 'MASTERCARD **** 6620', 'SALE 97.65', 'GRATUITY 5.00', 'TOTAL f102.65']);
  assert.equal(data.total, 102.65);
});
