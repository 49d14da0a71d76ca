// Invoices as several countries print them: labels in Spanish, Italian, Portuguese, Dutch and the
// Nordic languages, month names, "to pay" totals, and the fields users ask for beside the total (its
// tax and net parts, the due date, the customer, the seller's address).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldDefinition } from '../../src/api/types.js';
import { extractFields } from '../../src/engine/builtin/extract-fields.js';
import { findDates } from '../../src/engine/builtin/parse-date.js';
import { fieldTerms } from '../../src/engine/builtin/field-terms.js';
import { typedValue } from '../../src/engine/builtin/typed-value.js';
import { makePage, type FixtureLine } from './page-fixture.js';
import type { PageText } from '../../src/engine/types.js';

const read = (lines: FixtureLine[], fields: FieldDefinition[]) =>
  extractFields({ pages: [makePage(lines)], fields, dateFormat: null, detectLayout: true, detectTables: false }).data;

const VENDOR_FIELD: FieldDefinition = { name: 'vendor', type: 'text', description: 'Name of the seller issuing the invoice' };
const PARTS: FieldDefinition[] = [
  { name: 'total', type: 'number', description: 'Total amount to pay, including tax' },
  { name: 'tax_amount', type: 'number', description: 'VAT amount' },
  { name: 'net_amount', type: 'number', description: 'Total before tax' },
];

test('tax and net fields take their own lines of the totals block, in several languages', () => {
  const blocks: [FixtureLine[], Record<string, number>][] = [
    [[[[300, 'Total HT'], [480, '577,50 €']], [[300, 'TVA 20 %'], [480, '115,50 €']], [[300, 'Total TTC'], [480, '693,00 €']]], { total: 693, tax_amount: 115.5, net_amount: 577.5 }],
    [[[[300, 'Base imponible'], [480, '139,00']], [[300, 'IVA (21%)'], [480, '29,19']], [[300, 'Importe total'], [480, '168,19 €']]], { total: 168.19, tax_amount: 29.19, net_amount: 139 }],
    [[[[300, 'Netto'], [480, '85,98']], [[300, 'MwSt. 7%'], [480, '6,02']], [[300, 'Zu zahlen'], [480, '92,00 EUR']]], { total: 92, tax_amount: 6.02, net_amount: 85.98 }],
    [[[[300, 'Subtotaal'], [480, '440,00']], [[300, 'BTW 21%'], [480, '92,40']], [[300, 'Te betalen'], [480, '€ 532,40']]], { total: 532.4, tax_amount: 92.4, net_amount: 440 }],
    [[[[300, 'Imponibile'], [480, '23,70']], [[300, 'IVA 22%'], [480, '5,21']], [[300, 'Totale da pagare'], [480, '28,91 €']]], { total: 28.91, tax_amount: 5.21, net_amount: 23.7 }],
    [[[[300, 'Netto'], [480, '6 500,00']], [[300, 'Moms 25%'], [480, '1 625,00']], [[300, 'Att betala'], [480, '8 125,00 SEK']]], { total: 8125, tax_amount: 1625, net_amount: 6500 }],
    // Danish "I alt" (in all), a label of two words.
    [[[[300, 'Subtotal'], [480, '4.000,00']], [[300, 'Moms 25%'], [480, '1.000,00']], [[300, 'I alt DKK'], [480, '5.000,00']]], { total: 5000, tax_amount: 1000, net_amount: 4000 }],
    // "Net à payer" is the sum to pay, not a net amount.
    [[[[300, 'Total HT'], [480, '640,00 €']], [[300, 'TVA 10 %'], [480, '64,00 €']], [[300, 'Net à payer'], [480, '704,00 €']]], { total: 704, tax_amount: 64, net_amount: 640 }],
  ];
  for (const [lines, want] of blocks) assert.deepEqual(read(['ACME Supplies Ltd', 'Invoice 12', ...lines], PARTS), want, JSON.stringify(lines));
});

test('a part of the total that is not printed is not found, rather than the total in its place', () => {
  const data = read(['ACME Supplies Ltd', [[300, 'Total CHF'], [480, "1'234.55"]]], PARTS);
  assert.deepEqual(data, { total: 1234.55, tax_amount: null, net_amount: null });
  // "total_incl_vat" asks for the total.
  assert.equal(read([[[300, 'VAT 20%'], [480, '10.00']], [[300, 'Total incl. VAT'], [480, '60.00']]], [{ name: 'total_incl_vat', type: 'number' }]).total_incl_vat, 60);
});

test('invoice numbers and totals under Italian, Spanish and Dutch labels', () => {
  const fields: FieldDefinition[] = [
    { name: 'invoice_number', type: 'text' },
    { name: 'date', type: 'date' },
    { name: 'total', type: 'number' },
  ];
  assert.deepEqual(read(['Rossi Impianti S.r.l.', 'Fattura n. 45/2024 del 28/05/2024', [[300, 'Imponibile'], [480, '1.000,00']], [[300, 'Totale documento'], [480, '€ 1.220,00']]], fields), {
    invoice_number: '45/2024',
    date: '2024-05-28',
    total: 1220,
  });
  assert.deepEqual(read(['Distribuciones Ebro S.L.', 'FACTURA', [[50, 'Nº Factura: 2024/0345'], [250, 'Fecha: 03/02/2024']], [[300, 'TOTAL'], [480, '187,67 €']]], fields), {
    invoice_number: '2024/0345',
    date: '2024-02-03',
    total: 187.67,
  });
  assert.deepEqual(read(['Van Dijk B.V.', 'Factuurnummer: 2024-077', 'Factuurdatum: 5 juni 2024', [[300, 'Totaal te betalen'], [480, '€ 2.468,40']]], fields), {
    invoice_number: '2024-077',
    date: '2024-06-05',
    total: 2468.4,
  });
  // A series code before the number is part of it; a label word before it is not.
  assert.equal(read(['Lopes & Filhos, Lda.', 'Fatura FT 2024/311', 'Data: 12/03/2024'], fields).invoice_number, 'FT 2024/311');
  assert.equal(read(['ACME Ltd', 'Invoice No. INV 00482', 'Date: 12/03/2024'], fields).invoice_number, '00482');
  assert.equal(read(['ACME Ltd', 'Invoice NO 00482', 'Date: 12/03/2024'], fields).invoice_number, '00482');
});

test('month names of Spanish, Italian, Portuguese, Dutch and the Nordic languages', () => {
  const iso = (text: string) => findDates(text).map((m) => `${m.date.year}-${m.date.month}-${m.date.day}`);
  assert.deepEqual(iso('Fecha de emisión: 3 de noviembre de 2024'), ['2024-11-3']);
  assert.deepEqual(iso('Data: 22 de março de 2024'), ['2024-3-22']);
  assert.deepEqual(iso('Milano, 3 novembre 2024 - scadenza 2 dicembre 2024'), ['2024-11-3', '2024-12-2']);
  assert.deepEqual(iso('Datum 5 mei 2024, vervaldatum 4 juni 2024'), ['2024-5-5', '2024-6-4']);
  assert.deepEqual(iso('Fakturadatum 1 augusti 2024'), ['2024-8-1']);
  assert.deepEqual(iso('15 ago 2023'), ['2023-8-15']);
});

test('dollars of countries that write the day first, and their addresses, keep slash dates day-first; a US address reads them month-first', () => {
  const date = [{ name: 'date', type: 'date' as const }];
  const au = read(['Harbour Plumbing Pty Ltd', 'ABN 51 824 753 556', 'Fremantle WA 6160', 'Invoice Date 10/07/2024', [[300, 'TOTAL'], [480, '$1,440.00']]], date);
  assert.equal(au.date, '2024-07-10');
  const sg = read(['Lion City Cafe Pte Ltd', '1 Raffles Place, Singapore 048616', 'Date 11/10/2020', [[300, 'TOTAL'], [480, 'S$12.40']]], date);
  assert.equal(sg.date, '2020-10-11');
  const us = read(['Maple Office Supply', '4381 Market St, Portland, OR 97205', 'Date 03/05/2024', [[300, 'TOTAL'], [480, '12.40']]], date);
  assert.equal(us.date, '2024-03-05');
});

test('a dollar document with thousands separators reads an ambiguous slash date month-first', () => {
  const data = read(['Summit Roofing Co.', 'Date 11/03/2024', [[300, 'TOTAL'], [480, '$1,440.00']]], [{ name: 'date', type: 'date' }]);
  assert.equal(data.date, '2024-11-03');
});

test('a due date field takes the due date under its words in several languages; the date field does not', () => {
  const fields: FieldDefinition[] = [
    { name: 'date', type: 'date', description: 'Invoice date' },
    { name: 'due_date', type: 'date', description: 'Payment due date' },
  ];
  for (const label of ['Échéance :', 'Vervaldatum:', 'Data de vencimento:', 'Förfallodatum', 'Scadenza:', 'Fecha de vencimiento:', 'Fällig am:']) {
    const data = read(['ACME Supplies Ltd', [[50, 'Date:'], [250, '14.03.2024']], [[50, label], [250, '13.04.2024']]], fields);
    assert.deepEqual(data, { date: '2024-03-14', due_date: '2024-04-13' }, label);
  }
});

test('the customer: a cue with the address after the name, the address window, a name over an address; never a table header', () => {
  const customer: FieldDefinition[] = [{ name: 'customer_name', type: 'text', description: 'Name of the customer billed' }];
  assert.equal(read(['Thames Joinery Ltd', 'Unit 4, Riverside Works, London', 'Invoice to: Mrs J. Patel, 18 Elm Grove, Kingston KT1 1AA'], customer).customer_name, 'Mrs J. Patel');
  assert.equal(read(['Talleres Navarro S.A.', 'Calle Mayor 10, 50001 Zaragoza', 'Cliente: Hostal La Plaza, Avda. de Goya 4, 50006 Zaragoza'], customer).customer_name, 'Hostal La Plaza');
  // A sender line over the address window of a letter.
  const windowed: FixtureLine[] = ['Schmidt & Partner GmbH · Hauptstr. 1 · 10115 Berlin', 'Müller Bau KG', 'Lindenallee 9', '04109 Leipzig', '', [[350, 'Rechnungsnr.: RE-2024-0815']]];
  assert.equal(read(windowed, customer).customer_name, 'Müller Bau KG');
  // A form of address over the name is not the name.
  assert.equal(read(['Schmidt & Partner GmbH · Hauptstr. 1 · 10115 Berlin', 'Herrn', 'Max Mustermann', 'Lindenallee 9', '04109 Leipzig'], customer).customer_name, 'Max Mustermann');
  assert.equal(read(windowed, [{ name: 'vendor_address', type: 'text' }]).vendor_address, 'Hauptstr. 1, 10115 Berlin');
  // No cue: the name over an address block that is not the seller's.
  const blocks: FixtureLine[] = [
    'Alpenblick Treuhand AG',
    'Bahnhofstrasse 5, 8001 Zürich',
    '',
    [[320, 'Frau']],
    [[320, 'Anna Meier']],
    [[320, 'Seeweg 8']],
    [[320, '8802 Kilchberg']],
    '',
    [[50, 'Leistung'], [300, 'Std.'], [380, 'Ansatz'], [480, 'Betrag']],
    [[50, 'Buchhaltung 2023'], [300, '7.5'], [380, '152.84'], [480, "1'146.30"]],
  ];
  assert.equal(read(blocks, customer).customer_name, 'Anna Meier');
  // Only a table and the seller: nobody is named as the customer, least of all the column headers.
  assert.equal(read([blocks[0], blocks[1], '', ...blocks.slice(8)], customer).customer_name, null);
});

test("an address ends before the document's number line and the tax ids of several countries", () => {
  const address: FieldDefinition[] = [{ name: 'vendor_address', type: 'text', description: 'Address of the seller' }];
  assert.equal(read(['Rossi Impianti S.r.l.', 'Via Roma 22 - 20121 Milano (MI)', 'P.IVA 01234567890', 'Fattura n. 45/2024'], address).vendor_address, 'Via Roma 22 - 20121 Milano (MI)');
  assert.equal(read(['Nordisk Bygg AB', 'Storgatan 4, 111 22 Stockholm', 'Fakturanummer 55012'], address).vendor_address, 'Storgatan 4, 111 22 Stockholm');
  assert.equal(read(['De Vries B.V.', 'Industrieweg 7, 3542 AD Utrecht', 'KvK 12345678 - BTW NL123456789B01'], address).vendor_address, 'Industrieweg 7, 3542 AD Utrecht');
});

test('a party field whose candidates all read badly gives its best guess instead of failing the job', () => {
  const data = read(['Customer:', 'see www.example.com invoice page 12.03.2024', 'Total 12.00'], [{ name: 'customer_name', type: 'text' }]);
  assert.equal(data.customer_name, 'see www.example.com invoice page 12.03.2024');
});

test('after a deposit the balance is the amount still due; a balance of 0 is not; a summary table\'s column sums are not the total', () => {
  const toPay = [{ name: 'total', type: 'number' as const, description: 'Balance still due after deposits' }];
  const block = (balance: string, deposit: string): FixtureLine[] => [
    'Harbour Supplies Ltd',
    [[300, 'Subtotal'], [480, '$6,470.00']],
    [[300, 'Tax (7%)'], [480, '$452.90']],
    [[300, 'Total'], [480, '$6,922.90']],
    [[300, 'Deposit Paid'], [480, deposit]],
    [[300, 'Balance Due'], [480, balance]],
  ];
  assert.equal(read(block('$4,842.90', '-$2,080.00'), toPay).total, 4842.9);
  const german: FixtureLine[] = [[[300, 'Nettobetrag'], [480, '4.907,00']], [[300, 'zzgl. 20 % USt'], [480, '981,40']], [[300, 'Gesamtbetrag'], [480, '5.888,40']], [[300, 'abzgl. Anzahlung vom 03.02.2025'], [480, '-1.500,00']], [[300, 'Offener Betrag in EUR'], [480, '4.388,40']]];
  assert.equal(read(german, toPay).total, 4388.4);
  assert.equal(read(block('$0.00', '-$6,922.90'), toPay).total, 6922.9);
  // A field that does not ask for what is left to pay keeps the invoice's total, also "to pay, including tax":
  // a deposit is a payment on the invoice, not part of what it comes to.
  assert.equal(read(block('$4,842.90', '-$2,080.00'), [{ name: 'total', type: 'number' }]).total, 6922.9);
  assert.equal(read(block('$4,842.90', '-$2,080.00'), [{ name: 'total', type: 'number', description: 'Total amount to pay, including tax' }]).total, 6922.9);
  assert.equal(read(german, [{ name: 'total', type: 'number', description: 'Total amount to pay, including tax' }]).total, 5888.4);
  const summary = read(
    [
      'Ganesh Traders Pvt. Ltd.',
      [[300, 'Total'], [380, '38 Nos'], [480, 'Rs. 2,37,048.00']],
      [[50, 'HSN/SAC'], [150, 'Taxable Value'], [250, 'CGST Amount'], [350, 'SGST Amount'], [450, 'Total Tax Amount']],
      [[50, 'Total'], [150, '2,00,888.50'], [250, '18,079.97'], [350, '18,079.97'], [450, '36,159.94']],
    ],
    toPay,
  );
  assert.equal(summary.total, 237048);
});

test("an invoice number's value under its label in a tight grid; another thing's number is never the invoice number", () => {
  const fields = [{ name: 'invoice_number', type: 'text' as const, description: 'Invoice number' }];
  assert.equal(read(['ACME Ltd', 'Customer No. 76069', 'Order No. B363082', 'Thank you'], fields).invoice_number, null);
  assert.equal(read(['ACME Ltd', 'Customer No. 76069', 'TAX INVOICE NO: 4711'], fields).invoice_number, '4711');
  // 6.5 pt labels over their values, the boxes overlapping by 2 pt.
  const tight: PageText = {
    page: 1,
    width: 600,
    height: 800,
    source: 'text',
    words: [
      { text: 'ACME', x0: 50, y0: 40, x1: 90, y1: 50 },
      { text: 'Ltd', x0: 95, y0: 40, x1: 115, y1: 50 },
      { text: 'Invoice', x0: 300, y0: 100, x1: 325, y1: 108 },
      { text: 'No.', x0: 328, y0: 100, x1: 340, y1: 108 },
      { text: 'Invoice', x0: 400, y0: 100, x1: 425, y1: 108 },
      { text: 'Date', x0: 428, y0: 100, x1: 443, y1: 108 },
      { text: '7092854', x0: 300, y0: 106, x1: 345, y1: 116 },
      { text: '03/15/2024', x0: 400, y0: 106, x1: 455, y1: 116 },
      { text: 'Customer', x0: 300, y0: 130, x1: 330, y1: 138 },
      { text: 'No.', x0: 333, y0: 130, x1: 345, y1: 138 },
      { text: '76069', x0: 300, y0: 136, x1: 330, y1: 146 },
    ],
  };
  assert.equal(extractFields({ pages: [tight], fields, dateFormat: null, detectLayout: true, detectTables: false }).data.invoice_number, '7092854');
});

test('the amount due after a deduction beats the invoice total it came from; Czech totals', () => {
  const toPay = [{ name: 'amount_due', type: 'number' as const, description: 'Amount to pay' }];
  const due = read(['Granite Peak IT Services, Inc.', [[300, 'Invoice Total'], [480, '$1,214.55']], [[300, 'Less: Deposit Received 09/05/2025'], [480, '-$300.00']], [[300, 'AMOUNT DUE'], [480, '$914.55']]], toPay);
  assert.equal(due.amount_due, 914.55);
  const sevdesk = read(['Kaiser GmbH', [[300, 'Gesamtbetrag (brutto)'], [480, '629,38 €']], [[300, 'abzgl. Anzahlung'], [480, '-189,00 €']], [[300, 'Zahlbetrag'], [480, '440,38 €']]], toPay);
  assert.equal(sevdesk.amount_due, 440.38);
  assert.equal(read(['Stavebniny Hořice a.s.', 'Faktura - daňový doklad', [[300, 'DPH 21 %'], [480, '2 210,00']], [[300, 'Celkem k úhradě'], [480, '12 734,00 Kč']]], toPay).amount_due, 12734);
});

test('a postcode beside a stacked "Invoice Number" label is not the number; a tagline with dots is no sender line', () => {
  const fields = [{ name: 'invoice_number', type: 'text' as const, description: 'Invoice number' }, VENDOR_FIELD];
  const xero = read(
    [
      [[50, 'Invoice Date'], [400, 'Hollins & Pike Ltd']],
      [[50, '22 Jun 2024'], [400, '18 Kingsway']],
      [[50, 'Invoice Number'], [400, 'Cardiff CF10 1EP']],
      [[50, 'INV-0640'], [400, 'VAT GB 896 2005 12']],
    ],
    fields,
  );
  assert.equal(xero.invoice_number, 'INV-0640');
  const tagline = read(['Heating · Cooling · Ventilation', 'Granite Peak IT Services, Inc.', '850 Mountain View Road', 'Denver, CO 80202', 'Invoice No: 4711'], fields);
  assert.equal(tagline.vendor, 'Granite Peak IT Services, Inc.');
});

test('an amount beside its total label is its value, not a larger one in the footer under it', () => {
  const data = read(
    ['Onda Telecomunicazioni S.p.A.', 'Fattura W24-0871123', [[300, 'Totale imponibile'], [480, '91,94']], [[300, 'IVA 22%'], [480, '20,23']], [[300, 'Totale fattura'], [470, '€ 112,17']], 'Onda Telecomunicazioni S.p.A. – Sede legale Via Lorenzini 4, 20139 Milano – Cap. Soc. € 12.000.000 i.v.'],
    [{ name: 'total', type: 'number', description: 'Total amount to pay, including tax' }],
  );
  assert.equal(data.total, 112.17);
});

test('a bill number printed in groups of digits is read whole; a number and a short count after it are not joined', () => {
  const fields: FieldDefinition[] = [{ name: 'invoice_number', type: 'text', description: 'Invoice number' }];
  assert.equal(read(['Northern Power Ltd', [[50, 'Bill number'], [200, '1002 3887 7412']], [[50, 'Account number'], [200, '55 0912 3341']]], fields).invoice_number, '1002 3887 7412');
  assert.equal(read(['Northern Power Ltd', 'Invoice No 2041 12 Mar 2024'], fields).invoice_number, '2041');
});

test('an invoice number run into its compound label by OCR ("Factuurnr.2024-100453") is read after the label', () => {
  const fields: FieldDefinition[] = [{ name: 'invoice_number', type: 'text', description: 'Invoice number' }];
  assert.equal(read(['tulpia Factuur', [[50, 'www.tulpia.nl'], [300, 'Factuurnr.2024-100453']], 'Ordernummer: NL-55812', 'Factuurdatum: 8 januari 2024'], fields).invoice_number, '2024-100453');
});

test('a name marked "Messrs." (or 御中) is the addressee, not the seller', () => {
  const lines: FixtureLine[] = [
    'INVOICE',
    'Invoice No. INV-240512-07',
    [[50, 'Aoyama Trading Co., Ltd. Messrs.'], [330, 'Minato Precision K.K.']],
    [[50, '1-4-2 Nishi, Naka-ku'], [330, '5-1-9 Kita, Chuo-ku']],
    [[50, 'Nagoya 460-0008'], [330, 'Osaka 541-0041']],
    'Registration No. T1234567890123',
    [[50, 'Total Amount Due'], [330, '¥58,300']],
  ];
  assert.equal(read(lines, [VENDOR_FIELD]).vendor, 'Minato Precision K.K.');
});

const NUMBER_AND_DATE: FieldDefinition[] = [
  { name: 'invoice_number', type: 'text', description: 'Invoice number' },
  { name: 'date', type: 'date', description: 'Invoice date' },
];

test('the invoice number after "n.º", with its lettered series; a date under a compound date label is no number', () => {
  const pt = read([[[300, 'Fatura n.º FT A/2024/233']], [[50, 'Rua Direita 15'], [300, 'Data 14 de outubro de 2024']], ...Array.from({ length: 3 }, (_, i) => [[50, `Artigo ${i + 1}`], [480, `${i + 2},00`]] as [number, string][])], NUMBER_AND_DATE);
  assert.deepEqual(pt, { invoice_number: 'FT A/2024/233', date: '2024-10-14' });
  // A label stacked over its value beside a big title: the title makes the value's line start higher.
  const page = makePage([[[486, 'Factuurnummer']], [[480, 'SDW-2024-07']], [[486, 'Factuurdatum']], [[480, '15 april 2024']]]);
  const title = page.words.find((w) => w.text === 'SDW-2024-07')!;
  page.words.push({ text: 'Factuur', x0: 56, y0: title.y0 - 12, x1: 195, y1: title.y1 + 2 });
  const nl = extractFields({ pages: [page], fields: NUMBER_AND_DATE, dateFormat: null, detectLayout: true, detectTables: false }).data;
  assert.deepEqual(nl, { invoice_number: 'SDW-2024-07', date: '2024-04-15' });
});

test('a header row names the document beside its number ("Tipo documento | Numero" over "FATTURA | 127/2024")', () => {
  const data = read(
    [
      [[50, 'Tipo documento'], [150, 'Numero'], [230, 'Data'], [320, 'Cod. cliente']],
      [[50, 'FATTURA'], [150, '127/2024'], [230, '05/03/2024'], [320, '004512']],
      [[50, 'Pagamento'], [150, 'Scadenza'], [300, 'Rif. DDT']],
      [[50, 'Bonifico 30 gg'], [150, '30/04/2024'], [300, 'n. 311 del 28/02/2024']],
    ],
    NUMBER_AND_DATE,
  );
  assert.deepEqual(data, { invoice_number: '127/2024', date: '2024-03-05' });
});

test('the issue date over installation and service dates; Polish month names', () => {
  const es = read([[[50, 'Fecha de emisión']], [[50, '21 de mayo de 2024'], [300, 'Fecha de instalación 14/05/2024']], [[300, 'Presupuesto P-24-118 (29/04/2024)']]], [NUMBER_AND_DATE[1]]);
  assert.equal(es.date, '2024-05-21');
  const pl = read(['FAKTURA nr 7/2024', 'Data wykonania usługi: 5 czerwca 2024 r.', 'Data wystawienia: 7 czerwca 2024 r.', 'Termin płatności: 21 czerwca 2024 r.'], NUMBER_AND_DATE);
  assert.deepEqual(pl, { invoice_number: '7/2024', date: '2024-06-07' });
  assert.deepEqual(findDates('12 października 2023')[0]?.date, { year: 2023, month: 10, day: 12 });
});

test("a number under the title that has its own label, or belongs to an address or an item row, is not the invoice's number", () => {
  const nl = read(
    [
      [[50, 'Waddenwerk Advies B.V.'], [400, 'FACTUUR']],
      [[50, 'Keizersgracht 411']],
      [[50, 'Btw-nr.: NL857826391B01'], [300, 'Factuurnummer'], [420, 'F-2025-597']],
      [[300, 'Klantnummer'], [420, 'C3907']],
      [[300, 'Factuurdatum'], [420, '19-09-2025']],
    ],
    NUMBER_AND_DATE,
  );
  assert.equal(nl.invoice_number, 'F-2025-597');
  const fr = read(
    [
      [[50, 'Meuse & Sambre Distribution SRL']],
      [[50, 'FACTURE']],
      [[50, 'Hainaut Numérique Conseil BV'], [300, 'Numéro'], [480, '2023/7453']],
      [[50, 'Avenue Louise 180'], [300, 'Date'], [480, '02/10/2023']],
      [[50, '1050 Bruxelles']],
      [[50, 'N°'], [80, 'Désignation'], [300, 'Qté'], [360, 'Prix unitaire HT'], [480, 'Montant HT']],
      [[50, '1'], [80, 'Hébergement web'], [300, '1'], [360, '473,01'], [480, '473,01']],
    ],
    NUMBER_AND_DATE,
  );
  assert.equal(fr.invoice_number, '2023/7453');
});

test('the issue date over order, delivery and due dates printed above it, in several languages', () => {
  const cases: [string[], string][] = [
    [['FACTURA', 'Fecha de pedido: 7 de agosto de 2023', 'Fecha de entrega: 31 de agosto de 2023', 'Fecha: 5 de septiembre de 2023'], '2023-09-05'],
    [['Fattura', 'Data DDT 19/09/2024', 'Vs. ordine B20207', 'Data ordine 01/09/2024', 'Data emissione 27/09/2024'], '2024-09-27'],
    [['FAKTURA VAT', 'Data zamówienia 2025-01-14', 'Data sprzedaży 2025-01-20', 'Data wystawienia 2025-01-28'], '2025-01-28'],
    [['FAKTURA – DAŇOVÝ DOKLAD', 'Datum objednávky 16. 5. 2025', 'Datum splatnosti 8. 7. 2025', 'Datum vystavení 8. 6. 2025'], '2025-06-08'],
    [['Factuur', 'Besteldatum 02-03-2024', 'Datum 09-03-2024'], '2024-03-09'],
    [['Facture', 'Date de commande : 02/03/2024', 'Date : 09/03/2024'], '2024-03-09'],
  ];
  for (const [lines, want] of cases) assert.equal(read(['Nordwind Handel GmbH', ...lines], [NUMBER_AND_DATE[1]]).date, want, lines.join(' / '));
});

test('the sum to pay after a discount under the value of the services', () => {
  const data = read(
    [
      [[50, 'Descrição do serviço'], [300, 'Qtde'], [360, 'Valor unit.'], [480, 'Valor total']],
      [[50, 'Gestão de mídias sociais'], [300, '1'], [360, 'R$ 2.400,00'], [480, 'R$ 2.400,00']],
      [[50, 'Campanha de tráfego pago'], [300, '1'], [360, 'R$ 850,00'], [480, 'R$ 850,00']],
      [[50, 'Produção de vídeos curtos'], [300, '4'], [360, 'R$ 320,00'], [480, 'R$ 1.280,00']],
      [[50, 'Valor dos serviços'], [480, 'R$ 4.530,00']],
      [[50, 'Desconto fidelidade'], [480, '-R$ 150,00']],
      [[50, 'Total a pagar'], [480, 'R$ 4.380,00']],
      'Pagamento via PIX ou boleto bancário. Após o vencimento: multa de 2% e juros de 1% ao mês.',
    ],
    [PARTS[0]],
  );
  assert.equal(data.total, 4380);
});

test('a sum of money is no invoice number, though a label with the word for invoice stands before it', () => {
  const terms = fieldTerms(NUMBER_AND_DATE[0]);
  for (const money of ['3.608,22', '1,066.07', '12.50', "1'234.56", '$14,730.00', 'EUR 1.204,00']) assert.equal(typedValue(money, terms, { monthFirst: false }), null, money);
  for (const id of ['GA-24/0763', '2024.001', 'RE-20201121/508', 'FT A2024/7969']) assert.deepEqual(typedValue(id, terms, { monthFirst: false }), { kind: 'text', value: id }, id);
});

test('letter-spaced labels read as words ("I N V O I C E  N U M B E R"); the Czech number sign "č."', () => {
  // A text layer writes letter-spaced text one letter a word: 4 pt letters, 2 pt apart, 8 pt between words.
  const spaced = (text: string, x: number): [number, string][] => {
    const cells: [number, string][] = [];
    for (const word of text.split(' ')) {
      for (const ch of word) cells.push([x, ch]), (x += 8);
      x += 10;
    }
    return cells;
  };
  const page = makePage([[...spaced('INVOICE NUMBER', 50), [300, 'LA-2025-0044']], [...spaced('DATE OF ISSUE', 50), [300, '7 February 2025']], [...spaced('SERVICE PERIOD', 50), [300, '1 January 2025 – 31 January 2025']]]);
  for (const w of page.words) if (w.text.length === 1) w.x1 = w.x0 + 5;
  const data = extractFields({ pages: [page], fields: NUMBER_AND_DATE, dateFormat: null, detectLayout: true, detectTables: false }).data;
  assert.deepEqual(data, { invoice_number: 'LA-2025-0044', date: '2025-02-07' });
  assert.deepEqual(read(['FAKTURA – DAŇOVÝ DOKLAD', 'č. 2025-0318', 'Datum vystavení 14.04.2025'], NUMBER_AND_DATE), { invoice_number: '2025-0318', date: '2025-04-14' });
});

test('a Mexican invoice\'s series and folio is its number, not the fiscal folio (UUID) nor the certificate number', () => {
  const data = read(
    [
      [[50, 'Distribuidora Cerro Azul, S.A. de C.V.'], [450, 'FACTURA']],
      [[50, 'RFC: DCA950612QX4'], [330, 'Serie y folio'], [450, 'A-10482']],
      [[330, 'Fecha de emisión'], [450, '2025-04-09T11:32:07']],
      [[330, 'No. certificado emisor'], [450, '00001000000512345678']],
      'Folio fiscal (UUID):',
      '7F3C9A12-58B4-4E0D-A1C3-92D6E0B4F871',
    ],
    NUMBER_AND_DATE,
  );
  assert.deepEqual(data, { invoice_number: 'A-10482', date: '2025-04-09' });
});

test('the legal name named by the page: "is a trading name of", "is operated by", a Razón Social; the buyer beside a cue without colon', () => {
  const dental = read(['Invoice   Harbourview Dental', '14 Harbour Road, Howth, Co. Dublin', 'Invoice No. HVD-24-0917', 'Total €360.00', 'Harbourview Dental is a trading name of Harbourview Dental Care Limited, registered in Ireland, CRO No. 612845.'], [VENDOR_FIELD]);
  assert.equal(dental.vendor, 'Harbourview Dental Care Limited');
  const hotel = read(
    [
      'ASTERIA',
      'SUITES · NAXOS',
      'Kalliste Touristiki A.E. – Hotel Enterprises · Agios Prokopios Beach, 843 00 Naxos, Greece',
      'INVOICE',
      [[50, 'Bill to'], [110, 'Nordlicht Reisen GmbH'], [350, 'Guest Dr. Katrin Vogel']],
      [[110, 'Friedrichstraße 95'], [350, 'Room 214']],
      [[300, 'Total'], [480, '1,284.00']],
      'Asteria Suites Naxos is operated by Kalliste Touristiki A.E. · Registered office: Agios Prokopios, 843 00 Naxos',
    ],
    [VENDOR_FIELD],
  );
  assert.equal(hotel.vendor, 'Kalliste Touristiki A.E.');
  const razon = read(['DISTRIBUIDORA PAMPEANA', 'Av. Colón 1450, Córdoba', 'FACTURA A', 'Razón Social: DISTRIBUIDORA PAMPEANA S.R.L.', 'CUIT: 30-71234567-9'], [VENDOR_FIELD]);
  assert.equal(razon.vendor, 'DISTRIBUIDORA PAMPEANA S.R.L.');
});

test('totals, dates and taxes in Turkish and Hungarian; Greek, Turkish and Vietnamese legal forms', () => {
  const fields: FieldDefinition[] = [...PARTS, { name: 'date', type: 'date', description: 'Invoice date' }, VENDOR_FIELD];
  const tr = read(['ANADOLU TEKSTİL TOPTAN TİCARET A.Ş.', 'Fatura Tarihi: 12-06-2024', [[300, 'Mal Hizmet Toplam Tutarı'], [480, '315.800,00 TL']], [[300, 'Hesaplanan KDV(%20)'], [480, '58.934,80 TL']], [[300, 'Ödenecek Tutar'], [480, '353.608,80 TL']]], fields);
  assert.deepEqual([tr.total, tr.tax_amount, tr.date, tr.vendor], [353608.8, 58934.8, '2024-06-12', 'ANADOLU TEKSTİL TOPTAN TİCARET A.Ş.']);
  const hu = read(['Duna Nyomda Kft.', 'Számla kelte: 2024.05.14.', [[300, 'Nettó összesen'], [480, '545 900 Ft']], [[300, 'ÁFA 27%'], [480, '147 393 Ft']], [[300, 'Fizetendő'], [480, '693 293 Ft']]], fields);
  assert.deepEqual([hu.total, hu.tax_amount], [693293, 147393]);
  assert.equal(read(['Kalliste Touristiki A.E.', 'Agios Prokopios Beach, 843 00 Naxos', 'Invoice No. A-1874'], [VENDOR_FIELD]).vendor, 'Kalliste Touristiki A.E.');
  assert.equal(read(['PHO BAC 1950', 'CONG TY TNHH AM THUC BAC HA', 'MST: 0312345678'], [VENDOR_FIELD]).vendor, 'CONG TY TNHH AM THUC BAC HA');
});

test('a "brutto" column heading is no gross total: the net sum under the table does not outrank "Do zapłaty"', () => {
  const lines: FixtureLine[] = [
    'Drukarnia Wisła Sp. z o.o.',
    'Faktura nr: FV/118/03/2026',
    [[50, 'Lp.'], [70, 'Nazwa'], [250, 'Ilość'], [300, 'Cena'], [350, 'Wartość'], [420, 'VAT'], [470, 'Wartość']],
    [[350, 'netto'], [470, 'brutto']],
    [[50, '1'], [70, 'Druk przewodnika'], [250, '1500'], [300, '9,40'], [350, '14 100,00'], [420, '5 %'], [470, '14 805,00']],
    [[50, '2'], [70, 'Plakaty B2'], [250, '300'], [300, '3,20'], [350, '960,00'], [420, '23 %'], [470, '1 180,80']],
    [[300, 'Razem netto'], [470, '15 060,00 PLN']],
    [[300, 'VAT 23 %'], [470, '220,80 PLN']],
    [[300, 'VAT 5 %'], [470, '705,00 PLN']],
    [[300, 'Do zapłaty'], [470, '15 985,80 PLN']],
  ];
  assert.equal(read(lines, PARTS.slice(0, 1)).total, 15985.8);
});

test('a Czech "Daňový doklad č." is the invoice number, not the register insert ("vložka"); a Danish "1. marts 2026" is a date', () => {
  const cz: FixtureLine[] = [
    'Novák & Dvořák Stavební s.r.o. FAKTURA',
    'Vinohradská 1840/112, 130 00 Praha 3',
    'Zapsáno u MS v Praze, oddíl C, vložka 251887',
    [[50, 'Odběratel'], [300, 'Daňový doklad č.:'], [500, '2026000118']],
    [[50, 'Bytové družstvo'], [300, 'Datum vystavení:'], [500, '6. 3. 2026']],
  ];
  const NUMBER: FieldDefinition[] = [{ name: 'invoice_number', type: 'text', description: 'Invoice number' }];
  assert.equal(read(cz, NUMBER).invoice_number, '2026000118');
  // Read without its háček ("c."), the label names no number: still the register's insert is none.
  assert.notEqual(read(cz.map((l) => (Array.isArray(l) ? l.map(([x, t]) => [x, t.replace('č.', 'c.')] as [number, string]) : l)), NUMBER).invoice_number, '251887');
  const dk: FixtureLine[] = ['Skovbo Software ApS FAKTURA', 'CVR-nr. 41 88 20 17', [[50, 'Faktureres til'], [300, 'Fakturadato: 1. marts 2026']], [[50, 'Tandlægerne i Viby I/S'], [300, 'Betalingsdato: 15. marts 2026']]];
  assert.equal(read(dk, [{ name: 'date', type: 'date', description: 'Invoice date' }]).date, '2026-03-01');
});

test('an Italian "N. documento" over its value is the invoice number, not a code in an item; an Austrian "19. Jänner 2024" is a date', () => {
  const fields: FieldDefinition[] = [
    { name: 'invoice_number', type: 'text', description: 'Invoice number' },
    { name: 'date', type: 'date', description: 'Invoice date' },
  ];
  const it = read(['FATTURA', 'Officine Rossi S.r.l.', [[350, 'N. documento']], [[350, '91/2025']], 'Parmigiano Reggiano DOP 24 mesi 18,5 kg 19,20'], fields.slice(0, 1));
  assert.equal(it.invoice_number, '91/2025');
  const at = read(['RECHNUNG', [[50, 'Rechnung Nr.'], [200, 'R2401-414']], [[50, 'Belegdatum'], [200, '19. Jänner 2024']], [[50, 'Fälligkeit'], [200, '18. Februar 2024']]], fields);
  assert.deepEqual(at, { invoice_number: 'R2401-414', date: '2024-01-19' });
});

test('a phone label ending in "no" ("Teléfono") is no number label: the invoice number is the one under the title', () => {
  const cl = read(['Andes Australes Ingenieria SpA', 'Giro: Servicios de ingenieria', 'Teléfono: +56 2 3411 7003', [[350, 'R.U.T.: 76.660.526-0']], [[350, 'FACTURA ELECTRONICA']], [[350, 'N° 3927']], 'Señor(es): Constructora Los Aromos Ltda.'], [{ name: 'invoice_number', type: 'text', description: 'Invoice number' }]);
  assert.equal(cl.invoice_number, '3927');
});

test('invoices of the Baltics, Central Europe, the Balkans, Iceland and Indonesia: their number labels and totals', () => {
  const fields: FieldDefinition[] = [
    { name: 'invoice_number', type: 'text', description: 'Invoice number' },
    { name: 'total', type: 'number', description: 'Total amount to pay, including tax' },
  ];
  const cases: [FixtureLine[], Record<string, unknown>][] = [
    [['Lumora OÜ', 'ARVE', [[300, 'Arve nr'], [420, 'ARV-2024-0317']], [[300, 'KMKR'], [420, 'EE102345678']], [[300, 'Summa km-ta'], [480, '2 903,57']], [[300, 'Käibemaks 22%'], [480, '638,79']], [[300, 'Kokku tasuda'], [480, '3 542,36']]], { invoice_number: 'ARV-2024-0317', total: 3542.36 }],
    [['Tatrastroj s.r.o.', 'FAKTÚRA', [[300, 'Faktúra číslo'], [420, '2024010457']], [[300, 'IČ DPH'], [420, 'SK2020123456']], [[300, 'Základ DPH'], [480, '1 836,47']], [[300, 'Spolu k úhrade'], [480, '2 258,86']]], { invoice_number: '2024010457', total: 2258.86 }],
    [['Jadrateh d.o.o.', 'RAČUN', [[300, 'Broj računa'], [420, '417/1/1']], [[300, 'OIB'], [420, '12345678901']], [[300, 'Osnovica'], [480, '1.861,31']], [[300, 'Ukupno za platiti'], [480, '2.326,64']]], { invoice_number: '417/1/1', total: 2326.64 }],
    [['Rodopa EOOD', 'FAKTURA', [[300, 'DDS No:'], [420, 'BG101784362']], [[300, 'Фактура №'], [420, '0000004521']], [[300, 'Общо'], [480, '2318,50']]], { invoice_number: '0000004521', total: 2318.5 }],
    [['Fjardarljos ehf.', 'REIKNINGUR', [[300, 'Reikningur nr.'], [420, '0012094']], [[300, 'Kt.'], [420, '510101-2345']], [[300, 'Samtals'], [480, '227.805']]], { invoice_number: '0012094', total: 227805 }],
  ];
  for (const [lines, want] of cases) assert.deepEqual(read(lines, fields), want, String(lines[0]));
});

test("a utility bill: the previous balance is not the total, nor an item's amount under the table header; \"Total charges\" sums the charges", () => {
  const TOTAL: FieldDefinition[] = [{ name: 'total', type: 'number', description: 'Total amount to pay, including tax' }];
  const bill: FixtureLine[] = [
    'Brightwater Energy Supply DAC',
    'Electricity bill  Account 3004518826  Bill date 12/03/2024',
    [[50, 'Previous balance'], [200, '€210.50'], [400, 'Total amount due']],
    [[50, 'Payment received 02/02/2024'], [200, '-€150.00']],
    [[50, 'Balance brought forward'], [200, '€60.50'], [400, '€432.93']],
    [[50, 'Description'], [250, 'Quantity'], [350, 'Rate'], [450, 'Amount']],
    [[50, 'Day units'], [250, '776'], [350, '€0.3412'], [450, '€264.77']],
    [[50, 'Night units'], [250, '376'], [350, '€0.1689'], [450, '€63.51']],
    [[50, 'Total before VAT'], [450, '€328.28']],
    [[50, 'VAT @ 9%'], [450, '€29.55']],
    [[50, 'Total charges this period'], [450, '€357.83']],
  ];
  assert.equal(read(bill, TOTAL).total, 357.83);
  // Service charges stay a part of the total.
  assert.equal(read(['Meal 1 40.00 40.00', [[50, 'Service charges'], [300, '4.00']], [[50, 'Total'], [300, '44.00']]], TOTAL).total, 44);
});

test('an invoice number of eight digits that reads as a date, after a number sign; a compact date after a date label is no number', () => {
  const NUMBER: FieldDefinition[] = [{ name: 'invoice_number', type: 'text', description: 'Invoice number' }];
  assert.equal(read(['Stavebniny Horák s.r.o.', 'Faktura – daňový doklad č. 20240518', 'Datum vystavení: 06.05.2024'], NUMBER).invoice_number, '20240518');
  assert.equal(read(['ACME Ltd', 'Invoice No. 20240518', 'Date: 06.05.2024'], NUMBER).invoice_number, '20240518');
  assert.equal(read(['ACME Ltd', 'Invoice date 20240518', 'Total 12.00'], NUMBER).invoice_number, null);
});

test("an Italian invoice's document type code is not its number, in brackets after the title or under its own label", () => {
  const NUMBER: FieldDefinition[] = [{ name: 'invoice_number', type: 'text', description: 'Invoice number' }];
  const grid: FixtureLine[] = [
    'Officine Grafiche Brambilla S.r.l.',
    [[52, 'Tipo documento'], [160, 'Numero'], [250, 'Data'], [340, 'Pagamento']],
    [[52, 'FATTURA (TD01)'], [160, '412/2024'], [250, '30/04/2024'], [340, 'Bonifico 30 gg']],
  ];
  assert.equal(read(grid, NUMBER).invoice_number, '412/2024');
  assert.equal(read(['Officine Grafiche Brambilla S.r.l.', 'Tipo documento: TD01', 'Fattura n. 412/2024 del 30/04/2024'], NUMBER).invoice_number, '412/2024');
});

test('the document type with its code under a header row ("TD01 Fattura") names the number beside it, not a delivery note\'s "n. 88"', () => {
  const NUMBER: FieldDefinition[] = [{ name: 'invoice_number', type: 'text', description: 'Invoice number' }];
  const grid: FixtureLine[] = [
    'Officine Trevisan S.r.l.',
    [[52, 'Tipo documento'], [160, 'Numero'], [230, 'Data'], [300, 'DDT'], [420, 'Divisa']],
    [[52, 'TD01 Fattura'], [160, '137/2025'], [230, '06/10/2025'], [300, 'n. 88 del 01/10/2025'], [420, 'EUR']],
  ];
  assert.equal(read(grid, NUMBER).invoice_number, '137/2025');
});

test('a sum in a box under its label, set to the box\'s right edge, is the label\'s value', () => {
  const TOTAL: FieldDefinition[] = [{ name: 'total', type: 'number', description: 'Total amount to pay, including tax' }];
  const data = read(
    [
      'PENNINE VALLEY BREWING CO. LTD',
      [[46, 'Casks remain the property of the brewery.'], [355, 'Total Net']],
      [[46, 'Deposit refunded on return of empties.'], [507, '1,347.70']],
      [[355, 'Total VAT']],
      [[517, '249.54']],
      [[46, 'Acc 22817364'], [109, 'Ref: SI-061274'], [355, 'INVOICE TOTAL GBP']],
      [[497, '1,597.24']],
    ],
    TOTAL,
  );
  assert.equal(data.total, 1597.24);
});

test('the sum of one kind of line ("Goods total", "Total parts") is part of the total', () => {
  const TOTAL: FieldDefinition[] = [{ name: 'total', type: 'number', description: 'Total amount to pay, including tax' }];
  const uk = read(['Thistledown Office Supplies Ltd', [[50, 'VAT analysis'], [350, 'Goods total £790.88']], [[350, 'Delivery £9.95']], [[350, 'Total net £800.83']], [[350, 'VAT £146.17']], [[350, 'TOTAL DUE £947.00']]], TOTAL);
  assert.equal(uk.total, 947);
  const garage = read(['Talleres Ebro, S.L.', [[50, 'Total repuestos'], [400, '533,60']], [[50, 'Total mano de obra'], [400, '264,00']], [[50, 'TOTAL'], [400, '965,10 €']]], TOTAL);
  assert.equal(garage.total, 965.1);
});

test('a number the invoice refers to ("NFS-e correspondente nº", "Contrato nº") is not its own', () => {
  const NUMBER: FieldDefinition[] = [{ name: 'invoice_number', type: 'text', description: 'Invoice number' }];
  const data = read(
    [
      [[50, 'Cordeiro & Maia Tecnologia Ltda.'], [380, 'FATURA DE SERVIÇOS']],
      [[50, 'Rua Padre Chagas, 415, sala 802 – Moinhos de Vento'], [380, 'Nº'], [400, '0482/2025']],
      'Contrato nº CT-2025/017 – vigência 01/06/2025 a 31/05/2026',
      'Valor total dos serviços R$ 10.122,25',
      'NFS-e correspondente nº 0000731, código de verificação 9F2A-71BC.',
    ],
    NUMBER,
  );
  assert.equal(data.invoice_number, '0482/2025');
  // Printed alone, the number referred to is still none.
  assert.equal(read(['Cordeiro & Maia Tecnologia Ltda.', 'FATURA DE SERVIÇOS', 'Valor total R$ 10.122,25', 'NFS-e correspondente nº 0000731'], NUMBER).invoice_number, null);
});

test('a number\'s label does not run over the number into the next label ("FACTURA A-3391 · Folio fiscal 6F2A…")', () => {
  const NUMBER: FieldDefinition[] = [{ name: 'invoice_number', type: 'text', description: 'Invoice number' }];
  const data = read(['Soluciones Industriales del Bajío, S.A. de C.V.', 'FACTURA A-3391 · Folio fiscal 6F2A9C1E-4B7D-4E21-9A33-0C8E5D7B1F42 · (continuación)', 'Total $133,905.76'], NUMBER);
  assert.equal(data.invoice_number, 'A-3391');
  // A number sign glued to the number is still the label's.
  assert.equal(read(['Free SAS', 'Facture n°562044387 du 02 Juillet 2015', 'Total 29,99 €'], NUMBER).invoice_number, '562044387');
});

test('a sum of discounts in another language ("Total Descontos") is a part of the total, not the total', () => {
  const TOTAL: FieldDefinition[] = [{ name: 'total', type: 'number', description: 'Total amount to pay, including tax' }];
  const data = read(
    [
      'Lusitana - Comércio de Produtos Alimentares, Lda.',
      [[350, 'Total Ilíquido'], [480, '821,18 €']],
      [[350, 'Total Descontos'], [480, '30,00 €']],
      [[350, 'Total IVA'], [480, '77,57 €']],
      [[50, '23,00 % 116,11 26,71'], [350, 'Total (EUR)'], [480, '868,75 €']],
    ],
    TOTAL,
  );
  assert.equal(data.total, 868.75);
});

test('a header row over its values takes its value though a time on the value line has a colon ("11:42")', () => {
  const NUMBER: FieldDefinition[] = [{ name: 'invoice_number', type: 'text', description: 'Invoice number' }];
  const grid: FixtureLine[] = [
    'ΚΥΚΛΑΔΙΚΗ ΠΛΗΡΟΦΟΡΙΚΗ Α.Ε.',
    [[60, 'Σειρά'], [160, 'Αριθμός'], [260, 'Ημερομηνία'], [360, 'Ώρα']],
    [[60, 'ΤΠΔ'], [160, '1542'], [260, '23/10/2024'], [360, '11:42']],
  ];
  assert.equal(read(grid, NUMBER).invoice_number, '1542');
});

test('Greek and Hungarian labels: the amount payable, the serial number ("Sorszám")', () => {
  const FIELDS: FieldDefinition[] = [
    { name: 'invoice_number', type: 'text', description: 'Invoice number' },
    { name: 'total', type: 'number', description: 'Total amount to pay, including tax' },
  ];
  const gr = read(
    ['ΚΥΚΛΑΔΙΚΗ ΠΛΗΡΟΦΟΡΙΚΗ Α.Ε.', 'ΤΙΜΟΛΟΓΙΟ ΠΩΛΗΣΗΣ', [[300, 'Σύνολο αξίας'], [480, '6.854,50']], [[300, 'Έκπτωση'], [480, '467,56']], [[300, 'Καθαρή αξία'], [480, '6.386,94']], [[300, 'ΦΠΑ 24%'], [480, '1.532,87']], [[300, 'ΠΛΗΡΩΤΕΟ ΠΟΣΟ (€)'], [480, '7.919,81']]],
    FIELDS,
  );
  assert.equal(gr.total, 7919.81);
  const hu = read([[[50, 'Kovács és Társa'], [400, 'SZÁMLA']], [[400, 'Sorszám: KT-2024-000318']], [[300, 'Fizetendő végösszeg:'], [450, '1 252 054 Ft']]], FIELDS);
  assert.deepEqual(hu, { invoice_number: 'KT-2024-000318', total: 1252054 });
});

test('a due date in Romanian ("Data scadenţei") is not the invoice date', () => {
  const DATE: FieldDefinition[] = [{ name: 'date', type: 'date', description: 'Invoice date' }];
  const data = read(['Carpatic Consult S.R.L.', 'FACTURA', 'Nr. factura: CCS-00457', 'Data scadentei: 11.07.2024', 'Data (ziua, luna, anul): 11.06.2024'], DATE);
  assert.equal(data.date, '2024-06-11');
});

/** A text-layer page whose lines `big` are printed `by` times as tall. */
function sized(lines: FixtureLine[], big: number[], by = 2): PageText {
  const p = makePage(lines);
  for (const w of p.words) if (big.includes(Math.round((w.y0 - 50) / 14))) w.y1 = w.y0 + 10 * by;
  return p;
}
const readPage = (page: PageText, fields: FieldDefinition[]) => extractFields({ pages: [page], fields, dateFormat: null, detectLayout: true, detectTables: false }).data;

test('the invoice number is not an account\'s, an order\'s nor the corrected invoice\'s; a series names the document\'s own', () => {
  const ph = read(['Bayanihan Office Solutions, Inc.', [[40, 'Acct. No. 1843-0567-22'], [400, 'No.'], [470, '0004721']]], NUMBER_AND_DATE);
  assert.equal(ph.invoice_number, '0004721');
  const dk = read([[[350, 'HAVNENS KAFFE']], 'KREDITNOTA', [[40, 'Havnens Kaffebrænderi ApS'], [350, 'Kreditnotanr. 20250142']], [[40, 'Café Nørrebro Bageri I/S'], [350, 'Dato 3. marts 2025']], [[40, 'Jægersborggade 31'], [350, 'Vedr. faktura nr. 20250119 af 25.02.2025']], [[40, '2200 København N'], [350, 'Kundenr. 10482']]], NUMBER_AND_DATE);
  assert.equal(dk.invoice_number, '20250142');
  const lt = read(['UAB Knygų sala', 'PVM SĄSKAITA FAKTŪRA', 'Serija ir Nr. KS-004512', 'Išrašymo data: 2025-03-10', [[40, 'AB SEB bankas'], [300, 'Apmokėti iki: 2025-03-24']], [[40, 'A. s. LT72 7044 0600 0123 4567'], [300, 'Užsakymas: Nr. 25/031']]], NUMBER_AND_DATE);
  assert.equal(lt.invoice_number, 'KS-004512');
  // Mexico's series and folio, beside a payment deadline that is no issue date.
  const mx = read([[[400, 'FACTURA']], [[355, 'Serie y Folio A-8842']], [[40, 'FERRETERO DEL BAJÍO'], [300, 'Fecha de emisión 06/05/2025']], [[40, 'Grupo Ferretero del Bajío, S.A. de C.V.'], [300, 'Fecha límite de pago 05/06/2025']], 'Col. Jardines del Moral, C.P. 37160'], NUMBER_AND_DATE);
  assert.deepEqual([mx.invoice_number, mx.date], ['A-8842', '2025-05-06']);
});

test('Slovene, Bulgarian and Lithuanian totals and parties: "Za plačilo" over "Skupaj brez DDV", "Сума за плащане", the seller under "PARDAVĖJAS"', () => {
  const si = read([[[300, 'Skupaj brez DDV'], [480, '2.020,20 €']], [[300, 'DDV 22 % od 1.378,20'], [480, '303,20 €']], [[300, 'ZA PLAČILO'], [480, '2.384,39 €']], [[300, 'Plačano'], [480, '-300,00 €']]], PARTS);
  assert.equal(si.total, 2384.39);
  const bg = readPage(sized([[[440, 'ФАКТУРА']], [[469, '№ 0000004821']], [[50, 'ПОЛУЧАТЕЛ'], [300, 'ДОСТАВЧИК']], [[50, 'Тракия Билд ООД'], [300, 'Балкан Електро Инженеринг ЕООД']], [[50, 'гр. Пазарджик 4400'], [300, 'гр. Пловдив 4000']], [[300, 'Данъчна основа'], [480, '18 744,10 лв.']], [[300, 'ДДС 20%'], [480, '3 748,82 лв.']], [[300, 'Сума за плащане'], [480, '22 492,92 лв.']]], [0]), [VENDOR_FIELD, PARTS[0]]);
  assert.deepEqual([bg.vendor, bg.total], ['Балкан Електро Инженеринг ЕООД', 22492.92]);
  const lt = read(['Knygų sala', [[195, 'PVM SĄSKAITA FAKTŪRA']], [[42, 'PARDAVĖJAS'], [300, 'PIRKĖJAS']], [[42, 'UAB Knygų sala'], [300, 'VšĮ Kauno jaunimo centras']], [[42, 'Gedimino pr. 28'], [300, 'Laisvės al. 55']]], [{ name: 'customer', type: 'text', description: 'Name of the buyer' }]);
  assert.equal(lt.customer, 'VšĮ Kauno jaunimo centras');
});

test('a legal name under its logo\'s two lines, with the title block beside them, is the seller', () => {
  const cl = readPage(sized([[[90, 'PATAGONIA'], [407, 'R.U.T.: 76.912.384-5']], [[90, 'CAFÉS Y TOSTADURÍA']], [[397, 'FACTURA ELECTRÓNICA']], [[42, 'Cafés y Tostaduría Patagonia SpA'], [400, 'N° 48213']], 'Av. Italia 1450, Providencia', 'Santiago, Región Metropolitana'], [0], 2.5), [VENDOR_FIELD]);
  assert.equal(cl.vendor, 'Cafés y Tostaduría Patagonia SpA');
});

test('the addressee under a small-print sender line written with commas is no seller, whatever tax number stands beside it', () => {
  const p = makePage([[[455, 'seeland']], [[505, 'haustechnik']], [[459, 'Seeland Haustechnik AG']], [[485, 'Industriestrasse 27']], [[509, '6005 Luzern']], [[42, 'Seeland Haustechnik AG, Industriestrasse 27, 6005 Luzern']], [[42, 'Immobilien Pilatusblick GmbH'], [430, 'UID CHE-284.617.395 MWST']], [[42, 'Frau Claudia Arnold']], [[42, 'Pilatusstrasse 41']], [[42, '6003 Luzern']], [[42, 'Rechnung RE-2025-1147']]]);
  for (const w of p.words) {
    const line = Math.round((w.y0 - 50) / 14);
    if (line === 0) w.y1 = w.y0 + 30;
    if (line === 5) w.y1 = w.y0 + 7;
  }
  assert.equal(readPage(p, [VENDOR_FIELD]).vendor, 'Seeland Haustechnik AG');
});

test('on a scan, a legal name run on into its street is cut at its form and taken over the logo\'s words', () => {
  const p = sized(['COLLINE TOSCANE FATTURA', 'Oleificio Colline Toscane S.r.l. Via Chiantigiana 88,50012 Bagno a Ripoli (FI)', 'amministrazione@collinetoscane.it', 'P.IVA e C.F. 06512340487 · REA FI-634512', 'SPETT.LE', 'Enoteca Il Gallo Nero'], [0], 1.5);
  for (const w of p.words) w.conf = 90;
  assert.equal(readPage({ ...p, source: 'ocr' }, [VENDOR_FIELD]).vendor, 'Oleificio Colline Toscane S.r.l.');
});
