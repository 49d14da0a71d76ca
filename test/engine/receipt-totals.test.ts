// Receipt totals: payment lines, rounding, tax summaries, rates, OCR-damaged amounts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldDefinition } from '../../src/api/types.js';
import { extractFields } from '../../src/engine/builtin/extract-fields.js';
import { makePage, type FixtureLine } from './page-fixture.js';

const TOTAL: FieldDefinition[] = [{ name: 'total', type: 'number', description: 'Total amount paid' }];
const total = (lines: FixtureLine[]) => extractFields({ pages: [makePage(lines)], fields: TOTAL, dateFormat: null, detectLayout: true, detectTables: false }).data.total;
const row = (label: string, value: string): FixtureLine => [[50, label], [300, value]];

test('a rate next to the total label is not the total ("Total Incl. GST @ 6%")', () => {
  assert.equal(total(['Item A 1 3.90', [[50, 'Total Incl. GST@6%'], [200, 'RM 3.90']]]), 3.9);
  assert.equal(total(['Item A 1 79.50', 'Total Amt Incl. GST @ 6% : 79.50']), 79.5);
});

test('without a readable total, the total is what was paid: tendered minus change', () => {
  // The total line lost its value (as OCR leaves it); cash and change still say what was paid.
  assert.equal(total(['Item A 2 x 95.00 190.00', 'Total (Inclusive of GST):', row('CASH', '200.00'), row('CHANGE', '10.00')]), 190);
  // A payment mode heading with its amount on the next line, no change given.
  assert.equal(total(['DPL.05 RM 149.00', 'DPL.04 RM 21.00', 'CASH', 'RM 170.00']), 170);
});

test('a ticket with no total line: its payment line, after a transaction number, says what was paid', () => {
  assert.equal(total(['Einzelkarte', 'Hamburg AB 2. Kl.', 'gültig am 09.02.18', '05477145 BARZAHLUNG 3.30 EUR', '09.02.18 15:46:09']), 3.3);
  assert.equal(total(['Tageskarte', 'Bargeld 7,60 EUR']), 7.6);
  // A quantity before an item's name is no transaction number: "2 BAR SOAP" is an item, the total follows it.
  assert.equal(total(['2 BAR SOAP 3.50', 'MILK 1.20', row('SUBTOTAL', '4.70'), row('CASH', '5.00'), row('CHANGE', '0.30')]), 4.7);
});

test('a bill rounded off: the net amount after "Round Off" is the total, and a "Balance" after the cash is its change', () => {
  assert.equal(total(['Item A 2 425.25 850.50', row('Total', '850.50'), row('Round off', '0.50'), row('Net Amount', '851.00'), row('Paid by UPI', '851.00')]), 851);
  assert.equal(total(['Item A 1 302.96', row('Total', '302.96'), row('Round Off', '0.04'), row('NET AMOUNT', '303.00'), row('Cash Recd', '500.00'), row('Balance', '197.00')]), 303);
});

test('the paid sum confirms a total whose decimal point was lost', () => {
  assert.equal(total(['Item A 2 12.00', row('Total Amt Incl. GST', '1200'), row('Paid Amount', '20.00'), row('Change', '8.00')]), 12);
});

test('a bare payment-mode heading at the top is not a payment line: a total after the real payment lines still ranks lower', () => {
  assert.equal(total(['CASH', 'Doc No CS0001', 'Item A 1 80.91', row('Total', '80.90'), row('CASH', '100.00'), row('Total', '80.91')]), 80.9);
});

test('a tax summary total is not the total', () => {
  assert.equal(total(['Item A 1 80.91', row('Total', '80.90'), 'GST SUMMARY', row('Total :', '80.91')]), 80.9);
});

test('a total followed by a rounding adjustment and the rounded sum gives the rounded sum', () => {
  assert.equal(total(['Item A 1 60.31', row('TOTAL AMT', '60.31'), row('ROUNDING ADJ', '-0.01'), row('', '60.30'), 'Thank you']), 60.3);
  // Without the rounded sum printed, the total stays as printed.
  assert.equal(total(['Item A 1 60.31', row('TOTAL AMT', '60.31'), row('ROUNDING ADJ', '-0.01'), 'Thank you']), 60.31);
});

test('of net and gross, the larger amount is the total ("Gross Amt" before tax, "Net Amt" after)', () => {
  assert.equal(total(['Item A 1 47.80', row('Gross Amt', '47.80'), row('Svr Tax', '2.87'), row('GST (6%)', '2.86'), row('Net Amt :', '53.55')]), 53.55);
  // The invoice sense stays: net before tax, gross with it.
  assert.equal(total(['Item A 1 100.00', row('Net amount', '100.00'), row('VAT 19%', '19.00'), row('Gross amount', '119.00')]), 119);
});

test('OCR amounts that lost their decimal point are read with it ("RM 88 17")', () => {
  assert.equal(total(['Item A 1 88.17', row('Total', 'RM 88 17'), row('Visa', 'RM 88.17')]), 88.17);
  assert.equal(total(['Item A 1 47.80', row('Total', '47 80')]), 47.8);
});

test('the change after stray OCR figures still counts ("0.90 Change : 19.10"), and an OCR-misspelt "Inclusiva" is inclusive', () => {
  assert.equal(total(['Item A 1 80.91', row('Total Sales (Excluding GST)', '80.91'), row('Total GST:', '0.00'), row('Total Sales (Inclusiva of GST) :', '80.90'), row('CASH :', '100.00'), row('0.90 Change :', '19.10')]), 80.9);
});

test('when the best label names a part (excluding tax) and the payment lines show another sum, the sum paid is the total', () => {
  // The total's own line is unreadable ("TotaSales(nlusivoT)"); cash minus change says 100.90.
  assert.equal(total(['Item A 1 50.88', 'Item B 1 50.00', row('Total Sales (Excluding GST) :', '95.17'), row('Total GST .', '5.71'), row('TotaSales(nlusivoT) :', '100.90'), row('CASH :', '101.00'), row('Change :', '0.10')]), 100.9);
  // Without payment lines, the labelled amount stays.
  assert.equal(total(['Item A 1 50.88', row('Total Sales (Excluding GST) :', '95.17')]), 95.17);
});

test('the change printed after the tax lines still counts: tendered minus change, not the cash handed over', () => {
  assert.equal(
    total([
      'Kaffeehaus Beispiel',
      row('1 Latte', '4.49'),
      row('1 Chai', '4.79'),
      row('Bar', '10.00'),
      row('0.72 MwSt. 19%', '4.49'),
      row('Netto', '3.77'),
      row('0.76 MwSt. 19%', '4.79'),
      row('Netto', '4.03'),
      row('Subtotal', '9.28'),
      row('Rueckgeld', '0.72'),
    ]),
    9.28,
  );
});

test('"NET PAYABLE" is the sum to pay; the TOTAL of an "ITEM  TOTAL" header is no label of the first item\'s price', () => {
  const lines: FixtureLine[] = [
    'HIMALAYA RESTAURANT PRIVATE LIMITED',
    row('ITEM', 'TOTAL'),
    row('PAD THAI', '218.83'),
    row('LAMB CURRY', '261.51'),
    row('SUB TOTAL', '480.34'),
    row('CGST @ 9%', '43.23'),
    row('SGST @ 9%', '43.23'),
    row('ROUND OFF', '0.20'),
    row('NET PAYABLE', 'Rs .567.00'),
  ];
  assert.equal(total(lines), 567);
});

test('a card slip\'s total after the tip ("+ Tip" / "= Total") is what was paid; a count after the total\'s label is not the total', () => {
  assert.equal(
    total(['THE GOLDEN FORK', row('Subtotal', '118.84'), row('Tax', '10.51'), row('Total', '129.35'), 'VISA XXXX1609', row('Amount :', '$129.35'), row('+ Tip :', '$23.00'), row('= Total:', '$152.35'), 'I agree to pay the above total amount']),
    152.35,
  );
  assert.equal(total(['SUPERMERCADOS LA HUERTA', row('Leche entera 6x1L', '5,94'), [[50, 'TOTAL (21 art.)'], [300, '64,15']], row('Tarjeta', '64,15')]), 64.15);
});

test('a net amount after a discount under the gross is what was paid', () => {
  assert.equal(total(['CITY MEDICALS', 'CASH MEMO', row('ANTACID TAB 15S 1', '30.49'), row('Gross Amt', '368.35'), row('Less Disc 10%', '36.84'), row('Round Off', '0.49'), row('NET AMOUNT', '332.00'), 'Get well soon']), 332);
});

test('totals in rand, pesos and złoty glued to their amounts, a tax class glued after, a masked card number, a pump\'s pre-authorisation', () => {
  assert.equal(total(['Pump 08 Petrol 434.09', 'Biltong 80g 73.99', 'TOTAL R508.08', 'SnapScan 508.08', 'Tank limit authorised 1,500.00']), 508.08);
  assert.equal(total(['SUBTOTAL 2,149.46', 'Suki card discount 3% -64.48', 'TOTAL AMOUNT DUE P2,084.98', 'GCash 2,084.98']), 2084.98);
  assert.equal(total(['ON Diesel 130,54A', 'PTU A 23,00% 24,41', 'RAZEM 130,54zł', 'Karta płatnicza ****4204 130,54', 'Blokada środków 300,00']), 130.54);
  assert.equal(total(['Super 95 66,87 A', 'SUMME EUR 66,87', 'Bankomatkarte ****4329 66,87', 'Reservierter Betrag 200,00', 'A 20% 55,72 11,15 66,87']), 66.87);
});

test('the total in Polish, Czech, Indonesian and Filipino words (suma, celkem, jumlah, kabuuan)', () => {
  assert.equal(total(['Chleb 5,49', 'Masło 11,99', 'SUMA PTU 12,52', 'SUMA PLN 160,09', 'Gotówka 200,00', 'Reszta 39,91']), 160.09);
  assert.equal(total(['Kniha 1 x 560,00', 'CELKEM 560,00 Kč', 'Hotově 1 000,00', 'Vráceno 440,00']), 560);
  assert.equal(total(['Kopi susu 2 x 28.000 56.000', 'Subtotal 96.000', 'PPN 11% 10.560', 'Service 5.240', 'JUMLAH Rp 111.800', 'TUNAI Rp 150.000', 'KEMBALI Rp 38.200']), 111800);
  assert.equal(total(['Pandesal 10 x 5.00 50.00', 'KABUUAN 450.00', 'CASH 500.00', 'SUKLI 50.00']), 450);
});

test('a total under a coupon that takes the sum above it to it is the total', () => {
  const receipt = ['KINO KOMETA', 'ul. Piotrkowska 88', '90-103 Łódź', 'NIP 725-300-41-96', 'Data: 24.12.2022 Godz.: 15:13', 'Nr paragonu 42532 Kasjer: Anna K.', 'Nachos z sosem 1 x20,19 20,19B'];
  const tail = ['SPRZEDAZ OPODATKOWANA B 137,15', 'PTU B 8,00% 10,16', 'SUMA PTU 10,16', 'RAZEM 137,15z', 'BLIK 137,15', 'Kod aut.: 239144678333', 'Dziekujemy za zakupy'];
  assert.equal(total([...receipt, 'Bilet normalny 2 x31,69 63,38B', 'Popcorn 2 x29,29 58,58B', 'Suma 142,15', 'Kupon -5,00', ...tail]), 137.15);
});

test('an amount grouped by a space that OCR boxed as two phrases ("3" | "702,48") is one amount; a count far left of it is not its group', () => {
  const ocr = (lines: FixtureLine[]) => {
    const p = makePage(lines);
    for (const w of p.words) w.conf = 90;
    return { ...p, source: 'ocr' as const };
  };
  const read = (lines: FixtureLine[]) => extractFields({ pages: [ocr(lines)], fields: TOTAL, dateFormat: null, detectLayout: true, detectTables: false }).data.total;
  assert.equal(read([[[50, 'Sous-total HT'], [300, '3 085,40']], [[50, 'TVA 20 %'], [306, '617,08']], [[50, 'TOTAL TTC'], [300, '3'], [318, '702,48'], [362, 'EUR']]]), 3702.48);
  assert.equal(read([[[50, 'TOTAL'], [200, '3'], [300, '702,48']]]), 702.48);
});

test('a receipt for one sum: the sum it prints with its currency, not the year of the month it pays for', () => {
  const rent = ['ANIL KUMAR SHARMA', 'B-14, Shanti Kunj Apartments, Sector 12, Dwarka, New Delhi 110075', 'RENT RECEIPT', 'Receipt No. 06 Date: 05/06/2024', 'Received with thanks from Mr. Rohan Mehta', 'the sum of Rupees Eighteen Thousand only', 'towards rent for the month of June 2024', 'paid by UPI', 'Rs. 18,000.00'];
  assert.equal(total(rent), 18000);
});

test('a taxi receipt: a card surcharge is part of the sum, not its payment; the trip\'s FROM is no company', () => {
  const taxi: FixtureLine[] = ['SUNCOAST CABS', 'ABN 22 604 118 337', 'PO Box 1440, Maroochydore QLD 4558', 'TAXI RECEIPT', 'DATE 02/09/2024', 'FROM Sunshine Coast Apt', 'TO Mooloolaba Esp', row('FARE', '$35.30'), row('BOOKING FEE', '$1.50'), row('CARD SURCHARGE 5%', '$1.84'), row('TOTAL', '$38.64'), 'PAID MASTERCARD'];
  assert.equal(total(taxi), 38.64);
});

