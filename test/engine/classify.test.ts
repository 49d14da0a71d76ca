import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentKinds } from '../../src/engine/builtin/document-title.js';
import { documentLines } from '../../src/engine/layout/lines.js';
import { classifyPages } from '../../src/engine/builtin/classify.js';
import { makePage } from './page-fixture.js';

const CLASSES = [
  { label: 'invoice', description: 'An invoice from a supplier asking for payment' },
  { label: 'receipt', description: 'A till receipt for a purchase paid by cash or card' },
];
const sum = (scores: Record<string, number>) => Object.values(scores).reduce((a, b) => a + b, 0);

test('classifies an invoice with scores that sum to 1', () => {
  const page = makePage(['ACME GmbH', 'INVOICE', 'Invoice number: 2041', 'Invoice date: 2019-11-15', 'Bill to: Foo Ltd', 'Due date: 2019-12-15', 'Subtotal 100.00', 'VAT 19% 19.00', 'Amount due 119.00', 'IBAN DE12 3456']);
  const r = classifyPages({ pages: [page], classes: CLASSES });
  assert.equal(r.label, 'invoice');
  assert.ok(Math.abs(sum(r.scores) - 1) < 1e-3);
  assert.ok(r.scores.invoice > 0.8, JSON.stringify(r.scores));
});

test('classifies a till receipt', () => {
  const page = makePage(['CORNER SHOP', 'RECEIPT', 'Cashier: 3', 'Milk 1.20', 'Bread 2.10', 'TOTAL 3.30', 'CASH 5.00', 'CHANGE 1.70', 'Thank you, come again']);
  const r = classifyPages({ pages: [page], classes: CLASSES });
  assert.equal(r.label, 'receipt');
  assert.ok(Math.abs(sum(r.scores) - 1) < 1e-3);
});

test('gives an unrelated document no score near 1', () => {
  const page = makePage(['Minutes of the garden club meeting', 'Present: seven members', 'The roses will be pruned in March.', 'Next meeting: the second Tuesday.']);
  const r = classifyPages({ pages: [page], classes: CLASSES });
  assert.ok(Math.abs(sum(r.scores) - 1) < 1e-3);
  for (const v of Object.values(r.scores)) assert.ok(v < 0.7, JSON.stringify(r.scores));
});

test('gives the mass of an unrelated document to a catch-all label', () => {
  const page = makePage(['Minutes of the garden club meeting', 'The roses will be pruned in March.']);
  const r = classifyPages({ pages: [page], classes: [...CLASSES, { label: 'other', description: 'anything else' }] });
  assert.equal(r.label, 'other');
  assert.ok(Math.abs(sum(r.scores) - 1) < 1e-3);
});

const THREE = [
  { label: 'invoice', description: 'An invoice or bill from a seller asking for payment, with invoice number, due date and tax' },
  { label: 'receipt', description: 'A receipt from a shop, restaurant or ticket machine for a purchase already paid by cash or card' },
  { label: 'other', description: 'Any other document: letters, forms, shipping papers, tables, reports' },
];

test('a till receipt headed "Rechnung" is a receipt: the time of the sale and the card payment outweigh the title', () => {
  const page = makePage(['Gastro GmbH', 'Datum: 14.12.2023', 'Rechnung Nr.: 1900016675', '3 Punsch 0,25 5,40', 'MwSt: 20% 7,18', 'Kartenzahlung', 'Kassa-ID: 2', 'Zeit: 15:57', 'Gesamt: 43,10']);
  const r = classifyPages({ pages: [page], classes: THREE });
  assert.equal(r.label, 'receipt', JSON.stringify(r.scores));
  assert.ok(Math.abs(sum(r.scores) - 1) < 1e-3);
});

test('cue words match without accents or with umlauts spelt out (OCR: "Rueckgeld", "ESPECES")', () => {
  const de = classifyPages({ pages: [makePage(['Kaffee 4.49', 'Bar 10.00', 'Rueckgeld 5.51', 'Vielen Dank'])], classes: THREE });
  assert.equal(de.label, 'receipt', JSON.stringify(de.scores));
  const fr = classifyPages({ pages: [makePage(['CAFE CREME 12.00', 'Total 12.00', 'REGLE PAR ESPECES 12.00', 'CAISSIERE 1'])], classes: THREE });
  assert.equal(fr.label, 'receipt', JSON.stringify(fr.scores));
});

test('a short ticket with little text is still a receipt, yet no score is near 1', () => {
  const r = classifyPages({ pages: [makePage(['Einzelkarte', 'Hamburg AB 2. Kl.', 'BARZAHLUNG 3.30 EUR', '06.02.18 15:46:09'])], classes: THREE });
  assert.equal(r.label, 'receipt', JSON.stringify(r.scores));
  assert.ok(r.scores.receipt < 0.95, JSON.stringify(r.scores));
  // Clock times alone do not make a receipt of a meeting note.
  const note = classifyPages({ pages: [makePage(['Meeting notes', 'Start 10:00, end 11:30', 'Present: seven members'])], classes: THREE });
  assert.equal(note.label, 'other', JSON.stringify(note.scores));
});

test('invoices in Spanish, Italian, Dutch, Swedish, Finnish and Polish are invoices, not "other"', () => {
  const classes = [...CLASSES, { label: 'other', description: 'Any other document: letters, forms, reports' }];
  const invoices = [
    ['Distribuciones Ebro S.L.', 'FACTURA', 'Factura nº: 2024/466', 'Concepto Cantidad Precio Importe', 'IVA 21% 698,88 €', 'Total factura 4.026,88 €'],
    ['Servizi Adriatica S.r.l.', 'FATTURA', 'Fattura n. 2024/625', 'Descrizione Q.tà Prezzo unitario Importo', 'IVA 22% €602,58', 'Totale documento €3.341,58'],
    ['Van Dijk B.V.', 'Factuur', 'Factuurnummer 26-0815', 'Factuurdatum 3 juni 2026', 'Subtotaal €725,00', 'BTW 21% €152,25', 'Totaal €877,25'],
    ['Nordbygg AB', 'FAKTURA', 'Fakturadatum Fakturanummer', 'Summa exkl. moms 54 855,00 kr', 'Moms 25% 13 713,75 kr', 'Att betala 68 568,75 kr'],
    ['Rakennus Oy', 'LASKU', 'Laskun päivämäärä Laskun numero', 'Eräpäivä 12.06.2025', 'ALV 25,5 % 255,00', 'Yhteensä 1 255,00 EUR'],
    ['Baltyk Logistyka Sp. z o.o.', 'FAKTURA VAT nr FV/2024/08/146', 'NIP 779-23-45-678', 'Razem netto 30 790,00 PLN', 'Termin płatności 14 dni'],
  ];
  for (const lines of invoices) assert.equal(classifyPages({ pages: [makePage(lines)], classes }).label, 'invoice', lines[1]);
});

test('a paper titled as another kind (purchase order, quotation, delivery note, timesheet) is "other", however many invoice words it prints', () => {
  const papers: [string, (string | [number, string][])[]][] = [
    ['purchase order', [[[50, 'Riverside Clinic'], [380, 'PURCHASE ORDER']], [[380, 'PO Number: PO-2024-0871']], 'Vendor: Office Supply Co', 'Ship To: 1420 Oak Rd', 'Qty Unit price Amount', '10 Toner 45.00 450.00', 'Subtotal 450.00', 'Tax 36.00', 'PO Total 486.00', 'Send invoices to ap@clinic.example']],
    ['quotation', ['Hartley Flooring Ltd', 'DEVIS N° D-2024-047', 'Client : Dupont', 'Désignation Qté Prix unitaire Total HT', 'Parquet chêne 40 32,00 1 280,00', 'Total HT 1 280,00', 'TVA 20 % 256,00', 'Total TTC 1 536,00', 'Validité : 30 jours']],
    // A letter-spaced title that the reader splits into phrases of a word each.
    ['delivery note', [[[50, 'Primeurs du Val'], [300, 'BON'], [340, 'DE'], [370, 'LIVRAISON']], 'N° BL-240611-032', 'Livré à : Restaurant Le Vieux Tours', 'Colis Quantité Unité', 'Fraises 4 8 kg', 'Signature du livreur']],
    ['timesheet', ['WEEKLY TIMESHEET', 'Employee: Samuel Okafor', 'Day Date Time in Time out Regular hrs', 'Mon 08/12 08:00 16:30 8.0', 'Tue 08/13 08:00 16:30 8.0', 'Total hours 40.0']],
  ];
  for (const [kind, lines] of papers) assert.equal(classifyPages({ pages: [makePage(lines)], classes: THREE }).label, 'other', kind);
  // A label that names the kind takes it.
  const withPo = classifyPages({ pages: [makePage(papers[0][1])], classes: [...THREE, { label: 'purchase_order', description: 'An order from a buyer' }] });
  assert.equal(withPo.label, 'purchase_order', JSON.stringify(withPo.scores));
});

test('an invoice naming the order or delivery note it bills, and a cover letter sending an invoice, keep their own kinds', () => {
  const invoice = ['Keller GmbH', 'Rechnung Nr. 2024-118', 'Ihre Bestellung vom 02.04.2024', 'Lieferschein Nr. 80012', 'Pos Menge Einzelpreis Gesamt', '1 5 20,00 100,00', 'MwSt 19% 19,00', 'Rechnungsbetrag 119,00', 'Zahlbar bis 30.04.2024'];
  assert.equal(classifyPages({ pages: [makePage(invoice)], classes: THREE }).label, 'invoice');
  // A compound title ("Mietrechnung"), and an order's label whose colon stands apart ("Bestellung | : B123").
  const rent = ['Mietrechnung Nr. 9314110911 vom 01.10.2018', [[50, 'Bestellung'], [200, ': B123456789']] as [number, string][], [[50, 'Lieferavis'], [200, ': L87654321']] as [number, string][], 'Verkäufer: MUSTER-Autovermietung', 'USt.-Id.-Nr. : DE136695976', 'Käufer: MUSTER-KUNDE GMBH', 'Gesamtbetrag 1.190,00', 'Zahlbar bis 15.10.2018'];
  assert.equal(classifyPages({ pages: [makePage(rent)], classes: THREE }).label, 'invoice');
  const letter = ['Pembroke Architectural Services', '14 October 2024', 'Re: Stage 3 design services', 'Dear Ms Hughes,', 'Please find our invoice attached for the work completed in September.', 'Payment terms are 30 days.', 'Yours sincerely,', 'Tom Davies', 'Enc. Invoice'];
  assert.equal(classifyPages({ pages: [makePage(letter)], classes: THREE }).label, 'other');
});

test('the heading of a grid that names a purchase order is no title', () => {
  const invoice = ['Northwind Traders Ltd', [[50, 'Invoice Date'], [200, 'Purchase Order'], [350, 'Customer ID'], [480, 'Terms']] as [number, string][], [[50, '12 Mar 2024'], [200, '4500123'], [350, 'C-88'], [480, 'Net 30']] as [number, string][], 'Item Qty Price Amount', 'Widget 2 10.00 20.00', 'VAT 20% 4.00', 'Amount due 24.00', 'Due date 11 Apr 2024'];
  assert.equal(classifyPages({ pages: [makePage(invoice)], classes: THREE }).label, 'invoice');
});

test('till receipts with tax numbers and invoice words are receipts: umlauts OCR read without dots, card words, one print counted once', () => {
  const receipts = [
    // A fuel station prints RECHNUNG for the tax office; OCR reads "Säule" as "Saule".
    ['Tankstelle Albrecht', 'USt-IdNr.: DE812345678', 'RECHNUNG', 'Saule 8 Super E10', '40,59 l X 1,699 EUR/l 68,96', 'Summe EUR 73,35', 'Girocard 73,35', '19% MwSt 11,71', 'Netto 61,64', 'Datum: 03.01.2021 Zeit: 07:27', 'Gute Fahrt!'],
    // "USt-IdNr." is one print: its "USt" does not count again.
    ['Backerei Sonnenkorn', 'Hauptstr. 7', '79098 Freiburg', '20.07.2018 20:49:09', 'Bon 27075', 'Apfelstrudel 2,61', 'Gesamt 12,50', 'EC-Karte 12,50', 'MwSt 7% 0,82', 'USt-IdNr. DE 271845930'],
    ["HARTLEY'S", '12-14 High Street', 'VAT No: GB 284 5513 90', 'TEABAGS 80S 2.02', 'BALANCE DUE 40.55', 'CONTACTLESS 40.55', 'CHANGE DUE 0.00', 'VAT A=20% 2.97', 'CLUBCARD POINTS THIS VISIT 40', '16/08/24 15:39', 'THANK YOU FOR SHOPPING AT HARTLEYS'],
  ];
  for (const lines of receipts) assert.equal(classifyPages({ pages: [makePage(lines)], classes: THREE }).label, 'receipt', lines[0]);
});

test('Portuguese, Polish, Czech, Indonesian and Dutch till receipts are receipts ("Fatura simplificada", "Paragon fiskalny", "Účtenka", "Kembali", "Bonnr")', () => {
  const receipts = [
    ['PASTELARIA ESTRELA', 'Rua da Prata 112', 'NIF 509 876 543', 'FATURA SIMPLIFICADA FS A/2291', '4x Pastel de nata 5,20', 'TOTAL 9,85', 'Numerario 10,00', 'Troco 0,15', 'IVA incl. 13%/23%', 'Obrigado pela preferencia'],
    ['Sklep Spozywczy Pod Lipa', 'ul. Piekna 14/2', 'NIP 525-118-44-90', 'PARAGON FISKALNY', 'Chleb zytni 1 x5,49 5,49C', 'SUMA PTU 2,31', 'SUMA PLN 48,54', 'Karta 48,54 PLN', '00112 #Kasa 1 11:32'],
    ['LEKARNA U SV. ANNY', 'Husova 42', '602 00 Brno', 'ICO: 06128547 DIC: CZ06128547', 'Datum: 09.11.2022 Cas: 19:14:44', 'Uctenka c.61812 Pokladni: Lenka', 'Krem na ruce 100 ml 135,90 A', 'Mezisoucet 650,50', 'CELKEM 617,97 Kc', 'Platebni karta ****0621 617,97', 'SCHVALENO', 'DPH 21 % 22,41'],
    ['KOPI SENJA', 'PT Kopi Senja Nusantara', 'Jl. Braga No. 47', 'Bandung 40111', 'NPWP: 02.415.873.6-017.000', 'Meja 4 Tamu: 5', 'Kasir: Dewi', 'Kopi susu 2 x 28.000 56.000', 'JUMLAH Rp 111.800', 'TUNAI Rp 150.000', 'KEMBALI Rp 38.200', 'Terima kasih'],
    // A Dutch hotel's minibar till: no word for receipt, but its bon number, cashier, PIN and "akkoord".
    ['Hotel De Linde', 'De Linde B.V.', 'Oude Gracht 1', '5611 AB Eindhoven', 'KvK 19503990', 'BTW NL675007158B01', '28 jul 2021 11:49', 'Bonnr: 23-887595', 'Kassier: Noor', 'Kamer: 539', 'MINIBAR', 'Rode wijn 0,375 x3 98,10', 'TE BETALEN 110,90', 'PIN 110,90', 'AKKOORD', 'BTW 21% over 91,65: 19,25', 'Tot de volgende keer'],
  ];
  for (const lines of receipts) assert.equal(classifyPages({ pages: [makePage(lines)], classes: THREE }).label, 'receipt', lines[0]);
});

test('a letter that closes in the manner of its country is a letter, whatever invoice words its body has', () => {
  const letter = ['Atelier Brunel SARL', '12 rue des Lilas', '69003 Lyon', 'Lyon, le 4 avril 2024', 'Objet : votre contrat d’entretien', 'Madame, Monsieur,', 'Votre contrat arrive à échéance le 30 mai 2024. Le montant annuel s’élève à 1 800,00 € HT.', 'Une facture vous sera adressée à la signature.', 'Nous vous prions d’agréer l’expression de nos salutations distinguées.', 'Claire Brunel', 'SIRET 812 345 678 00012 - TVA FR12812345678'];
  assert.equal(classifyPages({ pages: [makePage(letter)], classes: THREE }).label, 'other');
});

test('a statement, a payment reminder and an agenda are other papers; a subject line naming an invoice titles none', () => {
  const statement = ['Thistle Bank Business Current Account', 'Statement', 'HARROWGATE PRINT LTD    Statement period 01 Mar 2024 to 31 Mar 2024', 'Account number 20417733', 'IBAN GB12 THBK 8344 1220 4177 33', 'Opening balance £15,432.77', '04 Mar Card payment Office supplies 82.40', '06 Mar Invoice 5521 paid in 1,200.00', 'VAT refund 310.00', 'Closing balance £3,561.82'];
  assert.equal(classifyPages({ pages: [makePage(statement)], classes: THREE }).label, 'other');
  // A utility's statement asks to be paid by a date: a bill.
  const utility = ['Kettle River Gas & Water Co.', '118 Front Street · Hinckley, MN 55037', 'Account no. 20-55102-07', 'Statement', 'Statement date Mar 25, 2025', 'Water usage 6 kgal $4.2500 $25.50', 'Gas customer charge $12.50', 'Amount due by Apr 15, 2025 $152.16', 'Due date Apr 15, 2025'];
  assert.equal(classifyPages({ pages: [makePage(utility)], classes: THREE }).label, 'invoice');
  // The ISO timestamp of an e-invoice's certification is no till's time of sale.
  const cfdi = ['Distribuidora Cerro Azul, S.A. de C.V.   FACTURA', 'RFC: DCA950612QX4   Serie y folio A-10482', 'Fecha de emisión 2025-04-09T11:32:07', 'Fecha de certificación 2025-04-09T11:32:41', 'Nombre: Constructora Valle Alto, S.A. de C.V.', 'Clave Cantidad Descripción Valor unitario Importe', 'Subtotal $12,700.00', 'IVA 16% $2,032.00', 'Total $14,730.00'];
  assert.equal(classifyPages({ pages: [makePage(cfdi)], classes: THREE }).label, 'invoice');
  const reminder = ['Imprimerie Vasseur SARL', '59800 Lille', 'Lille, le 18 novembre 2024', 'Objet : Relance - facture n° FV-2024-0877 restée impayée', 'Madame, Monsieur,', 'Sauf erreur de notre part, la facture n° FV-2024-0877 du 2 octobre 2024, échue le 1er novembre, reste impayée.', 'Montant TTC : 1 284,00 €', 'IBAN FR76 3000 4000 0312 3456 7890 143', 'Nous vous prions d’agréer nos salutations distinguées.', 'SIRET 812 345 678 00012 - TVA FR12812345678'];
  assert.equal(classifyPages({ pages: [makePage(reminder)], classes: THREE }).label, 'other');
  const agenda = ['Harbor Point Community Association', 'Board of Directors - REGULAR MEETING AGENDA', 'Date: Tuesday, October 15, 2024 | Time: 6:30 PM', '6:30 PM 1. Call to order', "6:40 PM 3. Treasurer's report: reserve fund balance ($412,880)", '7:25 PM 5. New business: assessment of $285/quarter', '8:35 PM 9. Adjournment'];
  assert.ok(documentKinds(documentLines([makePage(agenda)], { detectLayout: true })).has('agenda'));
  for (const [title, kind] of [['AUFTRAGSBESTÄTIGUNG Nr. 40221', 'order confirmation'], ['TECHNICAL DATA SHEET', 'data sheet'], ['CUSTOMS DECLARATION CN23', 'customs declaration']]) {
    assert.ok(documentKinds(documentLines([makePage(['Rheintal Armaturen GmbH', title, 'Menge 12 Stk.'])], { detectLayout: true })).has(kind), title);
  }
  assert.equal(classifyPages({ pages: [makePage(agenda)], classes: THREE }).label, 'other');
});

test('Vietnamese and Norwegian till slips are receipts; a Hungarian invoice is an invoice', () => {
  const label = (lines: string[]) => classifyPages({ pages: [makePage(lines)], classes: CLASSES }).label;
  assert.equal(label(['PHO BAC 1950', 'HOA DON THANH TOAN', 'So HD: 000231 Ban: 05', 'Ngay: 05/03/2024 Thu ngan: Lan', 'Pho bo tai nam 2 65.000 130.000', 'Tong cong: 365.040', 'Tien khach dua: 400.000', 'Tien thoi lai: 34.960', 'Cam on quy khach! Hen gap lai!']), 'receipt');
  assert.equal(label(['BYPARK', 'Bypark Drift AS', 'KVITTERING', 'Automat: 03', 'Inn: 05.03.2024 09:12', 'Belop kr 196,00', 'Bankkort **** 7719', 'Takk for besoket!']), 'receipt');
  assert.equal(label(['Duna Nyomda Kft.', 'SZÁMLA', 'Számla sorszáma: DN-2024-00418', 'Teljesítés dátuma: 2024.05.14.', 'Fizetési határidő: 2024.05.29.', 'Nettó összesen 545 900 Ft', 'ÁFA 27% 147 393 Ft', 'Fizetendő 693 293 Ft']), 'invoice');
});

test('a penalty notice, a form, a deposit slip and a timetable are other papers; a Danish bakery slip is a receipt', () => {
  const fine = ['PENALTYCHARGE NOTICE', 'Road Traffic Act 1991', 'Borough of Westmere Parking Services', 'PCN Number WM41128807', 'Date of Contravention 12/03/2026', 'Time 10:47', 'Penalty charge £70.00', 'Reduced to £35.00 if paid within 14 days', 'Pay online or by card'];
  const form = ['NOTIFICATION OF CHANGE OF ADDRESS', 'Form CA-2 (rev. 01/2026) Please complete in BLOCK CAPITALS', 'Title', 'Surname', 'Date of birth', 'Customer reference', 'Previous address', 'Signature', 'Date'];
  const slip = ['HARBOURSIDE COMMUNITY BANK Date: 16/03/2026', 'DEPOSIT SLIP - CURRENT / SAVINGS ACCOUNT', 'Account name: Marisol Vance', 'Notes 50 × 4 200.00', 'Coins 6.40', 'Cheques (2) 415.00', 'TOTAL DEPOSIT 621.40', 'Paid in by: M. Vance', 'Cash'];
  const table = ['TIMETABLE Line 42', 'Monday to Friday · valid from 02.03.2026', 'Harbour Terminal 06:05 06:35 07:05', 'Fish Market 06:08 06:38 07:08', 'Hospital 06:24 06:54 07:24', 'Tickets from the driver', 'Thank you for travelling with us'];
  for (const lines of [fine, form, slip, table]) assert.equal(classifyPages({ pages: [makePage(lines)], classes: THREE }).label, 'other', lines[0]);
  const bakery = ['Bageriet Solsikken', 'Solsikken Bageri ApS', 'Nørregade 22', '5000 Odense C', 'CVR 38123456', 'Bon 6620 02.03.2026', 'Kl.08:31 Eksp: Mette', 'Rugbrød 32,00', 'I ALT DKK 134,00', 'Kontant 200,00', 'Byttepenge 66,00', 'Heraf moms 25% 26,80', 'Tak for besøget!'];
  assert.equal(classifyPages({ pages: [makePage(bakery)], classes: THREE }).label, 'receipt');
});

test("an event's programme with its sessions' times, its café breaks and its fees is another paper", () => {
  const programme = [
    'VIII JORNADAS LOGISUR 2025',
    'Logística sostenible y digitalización de la cadena de suministro',
    'Sevilla · FIBES Palacio de Congresos · 16 y 17 de octubre de 2025',
    'PROGRAMA',
    'Jueves, 16 de octubre',
    'Hora Sesión Ponente Sala',
    '08:30–09:15 Acreditación y café de bienvenida Hall',
    '09:15–09:45 Inauguración oficial Consejera de Foment A',
    '09:45–10:45 Ponencia: El puerto de Sevilla como nodo intermodal Dña. Carmen Ruiz A',
    '11:00–12:15 Mesa redonda: última milla y ZBE urbanas Varios A',
    '12:30–13:30 Taller: trazabilidad con RFID y blockchain D. Iñaki Larrea B',
    '13:30–15:00 Almuerzo networking Terraza',
    '15:00–16:30 Casos de éxito: almacenes automatizados Varios A',
    '16:45–18:00 Visita técnica Puerto de Sevilla (plazas limitadas) Bus',
    'Viernes, 17 de octubre',
    'Hora Sesión Ponente Sala',
    '09:00–10:00 Ponencia: descarbonización de flotas pesadas D. Tomás Vidal A',
    '10:15–11:30 Mesa redonda: talento y formación en logística Varios A',
    '11:30–12:00 Pausa café Hall',
    '12:00–13:15 Presentación del Barómetro LogiSur 2025 Equipo LogiSur A',
    '13:15–13:45 Entrega de los Premios LogiSur y clausura A',
    'Cuotas de inscripción',
    'Modalidad Hasta 15/09 Desde 16/09',
    'Socios LogiSur 120,00 € 150,00 €',
    'No socios 190,00 € 230,00 €',
    'Estudiantes y desempleados 40,00 € 40,00 €',
    'Precios con IVA incluido. La inscripción incluye documentación, cafés y almuerzo. Inscripciones en logisur.es/jornadas. Programa',
    'sujeto a cambios.',
    'Organiza: Asociación Andaluza de Logística LogiSur · Colaboran: Autoridad Portuaria de Sevilla, Universidad de Sevilla',
  ];
  assert.equal(classifyPages({ pages: [makePage(programme)], classes: THREE }).label, 'other');
});

test("a Mexican CFDI invoice (folio, comprobante, forma and método de pago) is an invoice", () => {
  const cfdi = [
    'Comercializadora Sierra Madre S.A. de C.V.', 'RFC: TAT916129KU3', 'FACTURA', 'Folio: KU-418076', 'Fecha de emisión: 2023-10-11T13:18:25',
    'Tipo de comprobante: I - Ingreso', 'Receptor: Colegio Miguel Hidalgo A.C.', 'Uso CFDI: G03 - Gastos en general', 'Método de pago: PPD - Pago en parcialidades o diferido',
    'Forma de pago: 99 - Por definir', 'Condiciones de pago: 10 días', 'Clave Cant. Descripción Valor unitario Importe', '81112100 1 Diseño de catálogo 44,295.00 44,295.00',
    'Base imponible $ 53,698.00', 'TOTAL $ 62,289.68',
  ];
  assert.equal(classifyPages({ pages: [makePage(cfdi)], classes: THREE }).label, 'invoice');
});

test('Finnish and Hungarian till slips are receipts', () => {
  const fi = ['RAUTAKAUPPA KOIVU', 'Koivu Rauta Oy', 'Hameenkatu 15', '33100 Tampere', 'Kassa 5 Myyja M Lena', '22.04.2024 09:15', 'TELA 18CM 15,60', 'valisumma 111,50', 'YHTEENSA EUR 111,50', 'Pankkikortti 111,50', 'ALV 25,5% 22,66', 'Kiitos kaynnista!'];
  const hu = ['ABC KISBOLT', 'Toth es Tarsa Kft.', 'Kiraly utca 26.', '1061 Budapest', 'NYUGTA', '1 TEJ 2,8% 1L 459 B', 'OSSZESEN 2 165 Ft', 'AFA 27% 47', 'KESZPENZ 3 000', 'VISSZAJARO 835', '2024.04.25 08:27 Nyugtaszam 968107', 'Koszonjuk a vasarlast!'];
  for (const lines of [fi, hu]) assert.equal(classifyPages({ pages: [makePage(lines)], classes: THREE }).label, 'receipt', lines[0]);
});

test('Estonian, Lithuanian and Croatian till slips are receipts', () => {
  const ee = ['PAGARIPOOD LEIVAKORV', 'Raekoja plats 9, Tartu', '02.11.2023 10:15', 'Tsekk 0087 Kassa 1', '2 x Kaneelirull 3,60', 'KOKKU 10,40', 'Sularaha 20,00', 'Tagasi 9,60', 'Head isu!'];
  const lt = ['KELIAS', 'UAB Kelio degalai', 'Savanoriu pr. 176, LT-03154 Vilnius', 'Kvitas Nr. 4411', 'Benzinas 95 66,70', 'IS VISO 66,70', 'Grynieji 70,00', 'Graza 3,30'];
  const hr = ['PEKARA KLAS', 'Ilica 112, 10000 Zagreb', 'Racun br: 2270/PP1/1', 'Datum: 23.10.2024. 06:52', 'Burek sa sirom 1 2,20', 'UKUPNO 6,80', 'Gotovina 10,00', 'Blagajnik: Ana'];
  for (const lines of [ee, lt, hr]) assert.equal(classifyPages({ pages: [makePage(lines)], classes: THREE }).label, 'receipt', lines[0]);
});


test('Estonian, Latvian, Lithuanian and Icelandic invoices are invoices', () => {
  const ee = ['Lumora OÜ', 'ARVE', 'Arve nr ARV-2024-0317', 'Kuupäev 14.03.2024', 'Maksetähtaeg 28.03.2024', 'KMKR EE102345678', 'Teenus 2 903,57', 'Käibemaks 22% 638,79', 'Kokku tasuda 3 542,36 EUR', 'IBAN EE38 2200 2210 2014 5685'];
  const lv = ['SIA Koka Nami', 'RĒĶINS Nr. RK-24/0381', 'Datums 03.05.2024', 'Apmaksas termiņš 17.05.2024', 'PVN reģ. Nr. LV40003123456', 'Summa bez PVN 4 431,03', 'PVN 21% 930,47', 'Kopā apmaksai 5 361,28 EUR'];
  const lt = ['UAB Vejo Ratas', 'PVM SĄSKAITA FAKTŪRA', 'Serija VRT Nr. 004512', 'Data 2024-05-07', 'Apmokėti iki 2024-05-21', 'PVM kodas LT100001234567', 'Suma be PVM 3 289,31', 'PVM 21% 690,75', 'Iš viso 3 979,90 EUR'];
  const is = ['Fjardarljos ehf.', 'REIKNINGUR', 'Reikningur nr. 0012094', 'Dagsetning 20.11.2024', 'Gjalddagi 05.12.2024', 'Kt. 510101-2345', 'Upphæð án VSK 183.714', 'VSK 24% 44.091', 'Samtals 227.805 kr.'];
  for (const lines of [ee, lv, lt, is]) assert.equal(classifyPages({ pages: [makePage(lines)], classes: THREE }).label, 'invoice', lines[0]);
});

const WITH_OTHER = [
  { label: 'invoice', description: 'An invoice or bill from a seller asking for payment, with invoice number, due date and tax' },
  { label: 'receipt', description: 'A receipt from a shop, restaurant or ticket machine for a purchase already paid by cash or card' },
  { label: 'other', description: 'Any other document: letters, forms, shipping papers, tables, reports' },
];
const label = (lines: string[]) => classifyPages({ pages: [makePage(lines)], classes: WITH_OTHER }).label;

test('a paper without a sum of money is neither an invoice nor a receipt, whatever it calls itself', () => {
  // An entry ticket, titled a ticket (a receipt's title), with a ticket number and no price.
  assert.equal(label(['PLAZA SERI KENANGA', 'CAR PARK', '** ENTRY TICKET **', 'ENTRY DATE 14/08/2019', 'ENTRY TIME 09:12:47', 'TICKET NO 0219-448172', 'PLEASE PAY AT AUTO PAY STATION', 'BEFORE RETURNING TO YOUR CAR.']), 'other');
  // A points statement and a shipping label (its weight has one decimal, no money).
  assert.equal(label(['PetalPoints Rewards', 'Points Statement - October 2019', 'Date Activity Points', '01/10 Opening balance 12,480', '05/10 Earned - Bedok Mall outlet +320', 'Closing balance 8,945', 'This is not a tax invoice.']), 'other');
  assert.equal(label(['FROM: HARBOR & PINE SUPPLY LLC SHIP DATE: 16APR24', '4418 INDUSTRIAL PKWY WT: 4.2 LB', 'SHIP TO:', 'KIM & DAUGHTERS CATERING', 'TRACKING #', '9400111899223141592653', 'REF: SVN-US-7731904552', 'ORDER 112-4420918-6652301']), 'other');
  // The same ticket with its price paid is a receipt.
  assert.equal(label(['PLAZA SERI KENANGA', 'CAR PARK', 'PARKING RECEIPT', 'ENTRY 14/08/2019 09:12', 'EXIT 14/08/2019 11:40', 'PARKING FEE RM 6.00', 'PAID BY CARD']), 'receipt');
});

test('a delivery order and a cash-machine slip are other papers; a statement listing invoices is no invoice', () => {
  assert.equal(label(['SINAR GEMILANG LOGISTIK SDN BHD', 'DELIVERY ORDER', 'Deliver To: KEDAI PERABOT SETIA MAJU D/O No: DO-19-04471', 'No. Description Qty Unit', '1 Plastic Chair Stackable 40 PCS', 'Total amount RM 480.00', 'Goods received in good order and condition.']), 'other');
  assert.equal(label(['BANK PERMATA TIMUR BERHAD', 'ATM TRANSACTION RECORD', 'DATE 21/06/2019 TIME 22:41:05', 'CARD NO XXXXXXXXXXXX8830', 'WITHDRAWAL RM 200.00', 'AVAIL BAL RM 2,431.18', 'THANK YOU FOR BANKING WITH US']), 'other');
  const statement = ['Saltbush Landscaping Pty Ltd', 'STATEMENT', 'Statement Date 31 May 2024', 'Date Activity Invoice Amount Payments Balance AUD', '8 Mar 2024 Invoice # INV-0583 (overdue) 2,426.60 2,426.60', '2 Apr 2024 Invoice # INV-0597 1,188.00 3,614.60', '19 Apr 2024 Payment – thank you 1,188.00 2,426.60', '6 May 2024 Invoice # INV-0611 935.00 3,361.60', 'BALANCE DUE AUD 3,361.60', 'Please note: this statement lists invoices previously issued. It is not a tax invoice.'];
  assert.equal(label(statement), 'other');
  // A utility's bill titled "Statement" that asks for this period's charges stays a bill.
  assert.equal(label(['Cedar Hollow Water Authority', 'STATEMENT', 'Account 10023', 'Water usage 14 kgal 61.20', 'Sewer charge 40.46', 'Total current charges $101.66', 'Amount due $101.66', 'Due date 04/15/2024']), 'invoice');
});

test('other papers that print sums: a pro-forma, a remittance advice, a booking confirmation, a card statement, a cheque, an expense claim', () => {
  const papers: Record<string, string[]> = {
    proforma: ['Shakti Exports Pvt. Ltd.', 'GSTIN 27AAECS1234F1Z5', 'PROFORMA INVOICE', 'PI No. PI/24-25/0117  Date 12/07/2024', 'Cotton yarn 40s 500 kg 310.00 155,000.00', 'Total INR 182,900.00', 'This is a Proforma Invoice and not a Tax Invoice.'],
    remittance: ['MERIDIAN LOGISTICS PTE LTD  REMITTANCE ADVICE', 'To: Harbourline Supplies', 'We have paid the following invoices', 'Invoice INV-5521 1,200.00', 'Invoice INV-5534 860.50', 'Total paid SGD 2,060.50'],
    booking: ['Hotel Ribeira Douro', 'Confirmação de Reserva', 'Booking confirmation', 'N.º da reserva: RD-2407-55183', 'Check-in: 09/08/2024  Check-out: 11/08/2024', 'Total da estadia: 312,00 €', 'Pagamento no hotel'],
    statement: ['Harbour Bank', 'Your credit card statement', 'Card number **** 4417', 'Statement date 28 February 2024', 'New balance £1,408.37', 'Minimum payment £42.25', 'Payment due by 24 March 2024'],
    cheque: ['MARGARET A. HOLLOWAY  2147', '1187 Pinecrest Lane  Date May 3, 2024', 'PAY TO THE Summit Roofing & Gutters LLC $ 1,275.00', 'ORDER OF', 'One thousand two hundred seventy-five DOLLARS', 'FIRST PRAIRIE BANK', 'MEMO Invoice 3381'],
    expenses: ['Tui Analytics Limited', 'Employee Hemi Walker', 'Date Merchant Description Category Amount', '04/03/2024 Kotuku Air Airfare 289.00', '05/03/2024 Harbour Lights Motel 1 night 164.00', 'All original receipts are attached.', 'EXPENSE CLAIM', 'Total claim (NZ$) 453.00'],
  };
  for (const [name, lines] of Object.entries(papers)) assert.equal(label(lines), 'other', name);
});

test('a Chilean boleta is a receipt, a Brazilian NFS-e an invoice, a Polish WZ a delivery note', () => {
  assert.equal(label(['FERRETERÍA LOS ANDES SpA', 'RUT 76.123.456-7', 'BOLETA ELECTRÓNICA', 'N° 884512', 'Fecha 14/05/2024', 'Martillo 1 $ 8.990', 'TOTAL $ 21.000', 'El IVA de esta boleta es $ 3.353']), 'receipt');
  assert.equal(label(['PREFEITURA DE SÃO PAULO', 'NOTA FISCAL DE SERVIÇOS ELETRÔNICA – NFS-e', 'Número da Nota 00012873', 'PRESTADOR DE SERVIÇOS  Pixel Norte Design Ltda', 'TOMADOR DE SERVIÇOS  Casa Verde Alimentos S.A.', 'Valor total do serviço R$ 4.500,00', 'ISS 5% R$ 225,00']), 'invoice');
  assert.equal(label(['Hurtownia Budowlana Mazur Sp. z o.o.  WZ 0418/05/2024', 'Wydanie materiału na zewnątrz', 'Odbiorca: P.H.U. Domel', 'Cement portlandzki 40 21,50 860,00', 'Razem wartość netto: 4 696,60 zł']), 'other');
});

test('a payslip titled "recibo", a price list and an untitled card statement are other papers', () => {
  const papers: Record<string, string[]> = {
    payslip: ['Tecelagem Norte, Lda.  RECIBO DE VENCIMENTO', 'NIPC 509 000 127  Período Março 2024', 'Cód. Descrição Qtd. Valor unit. Abonos Descontos', 'R01 Vencimento base 30 1.150,00', 'D01 Segurança Social 11% 126,50', 'Total de abonos 1.150,00 €', 'Líquido a receber 1.023,50 €'],
    prices: ['Aceites del Sur, S.L.', 'CIF B-23000780', 'TARIFA DE PRECIOS 2024 – CANAL HORECA', 'Ref. Producto Formato Precio €/ud IVA', 'AOV-050 Aceite de oliva virgen extra 5 L 38,90 5%', 'ACE-200 Aceituna rellena lata 2,5 kg 9,80 10%', 'Pedido mínimo: 150,00 €. Forma de pago: transferencia a 30 días fecha factura.'],
    card: ['Northshore Savings Bank  Statement period: 02/15/2024 – 03/14/2024', 'Visa Rewards · Account ending 7730', 'New balance $1,026.45', 'Minimum payment due $30.79', 'Payment due date 04/09/2024', 'Credit limit $6,500.00', 'Available credit $5,473.55', '02/20 PAYMENT - THANK YOU -412.30', '02/16 FUEL STOP #12 34.20'],
  };
  for (const [name, lines] of Object.entries(papers)) assert.equal(label(lines), 'other', name);
});

test('titles spelt with letters that accents do not make (ł, ø, æ, ö) are read: a Polish payment demand, a Swedish delivery note', () => {
  const kinds = (lines: string[]) => [...documentKinds(documentLines([makePage(lines)], { detectLayout: true }))];
  assert.deepEqual(kinds(['Hurtownia Mazur Sp. z o.o.', 'WEZWANIE DO ZAPŁATY', 'Termin: 7 dni']), ['payment reminder']);
  assert.deepEqual(kinds(['Nordvik Trä AB', 'FÖLJESEDEL', 'Ordernr 4471']), ['delivery note']);
  assert.deepEqual(kinds(['Fjordlys AS', 'LØNNSSLIPP', 'Periode mars 2024']), ['payslip']);
});

test("a bank's confirmation of a transfer and an insurer's renewal notice are other papers", () => {
  const transfer = [
    'Mittelrhein Bank AG', 'Kessler Haustechnik GmbH  Koblenz, 10.05.2024', 'Ausführungsbestätigung SEPA-Überweisung', 'Auftraggeber Kessler Haustechnik GmbH',
    'IBAN Auftraggeber DE44 5705 0120 0012 3456 78', 'Empfänger Bauer Elektro KG', 'IBAN Empfänger DE21 3706 0193 4455 6677 00', 'Betrag 4.760,00 EUR',
    'Verwendungszweck Rechnung RE-2024-0815 vom 02.05.2024, Kd-Nr. 30771', 'Ausführungstag 10.05.2024', 'Kontostand nach Buchung: 18.204,37 EUR',
    'Sie dient nicht als Rechnung und nicht als Quittung im Sinne des § 368 BGB.', 'Mittelrhein Bank AG · Amtsgericht Koblenz HRB 12345 · USt-IdNr. DE123456789',
  ];
  const renewal = [
    'Thistle Mutual', 'Mr Callum Reid  Policy number TMI-MTR-5583021', 'Edinburgh  Date of notice 2 August 2024', 'Your car insurance renewal',
    'Your premium This year Last year', 'Comprehensive cover £512.80 £468.20', 'Insurance Premium Tax (12%) - included above £61.55 £55.10',
    'Total annual premium £567.29 £519.19', 'How you pay', 'Payment Date Amount', 'Deposit 1 September 2024 £56.73', 'Total amount payable (APR 0%) £595.83',
    'This notice is not a request for payment if you pay by Direct Debit.',
  ];
  assert.equal(label(transfer), 'other');
  assert.equal(label(renewal), 'other');
});

test('a Quebec invoice (FACTURE, TPS/TVQ, "Facturer à", "Bon de commande") is an invoice, though it thanks its customer', () => {
  const lines = [
    'Atelier Boréal inc.', '2150, rue Saint-Denis', 'Montréal (Québec) H2X 3K8', 'TPS : 812345678 RT0001', 'TVQ : 1234567890 TQ0001',
    'FACTURE No de facture 2024-0412', 'Date 2024-11-15', 'Échéance 2024-12-15', 'Bon de commande BC-88127', 'FACTURER À LIVRER À',
    'Description Qté Prix unitaire Montant', 'Table de salle à manger en érable 1 2 480,00 $ 2 480,00 $', 'Sous-total 5 595,00 $',
    'TPS (5 %) 289,00 $', 'TVQ (9,975 %) 576,56 $', 'TOTAL (CAD) 6 645,56 $', 'Merci de votre confiance !',
  ];
  assert.equal(label(lines), 'invoice');
});

test('a tax office\'s assessment and an event\'s e-ticket are other papers; opening hours are no time of a sale', () => {
  assert.equal(label(['Finanzamt Freiburg-Stadt Steuernummer 06471/12345', 'Datum 17.06.2024', 'Bescheid für 2023 über Einkommensteuer, Solidaritätszuschlag und Kirchensteuer', 'Festgesetzt werden 14.286,00 €', 'Bitte zahlen Sie den Betrag von 444,96 € spätestens am 22.07.2024 an die Kasse des Finanzamts', 'IBAN DE08 6800 0000 0068 0015 05', 'Öffnungszeiten: Mo-Mi 7:30-15:30, Do 7:30-17:30, Fr 7:30-12:00']), 'other');
  assert.equal(label(['ENTRADA', 'Localizador: SND-7Q4K-2291', 'E-TICKET - Sonoridades 2024', 'Sábado, 19 de octubre de 2024 - Apertura de puertas 20:00 - Inicio 21:00', 'Precio 45,00 €', 'Total 48,50 € (IVA incluido)', 'Forma de pago Tarjeta Visa ***0932', 'No se admiten cambios ni devoluciones']), 'other');
});

test('an order confirmation whose title OCR read without its umlaut, and a Spanish account statement, are other papers', () => {
  assert.equal(label(['Bestellbestatigung - Ihre Bestellung 302-4471185', 'Von: Kochwerk24 <bestellung@kochwerk24.de>', 'vielen Dank fur Ihre Bestellung bei Kochwerk24!', 'Bestellnummer: 302-4471185 Bestelldatum: 13.05.2024', 'Artikel Menge Einzelpreis Summe', 'Kochmesser Damast 20 cm 1 64,95 64,95', 'Gesamtsumme 203,85', 'enthaltene MwSt. (19 %) 32,55', 'Lieferadresse Zahlungsart', 'Lena Fischer Kauf auf Rechnung', 'RosenstraBe 7 Zahlungsziel: 14 Tage ab Lieferung', 'Bitte beachten Sie: Diese E-Mail ist keine Rechnung. Die Rechnung liegt Ihrer', 'Lieferung bei und wird Ihnen zusatzlich per E-Mail zugesandt. Bitte uberweisen Sie', 'den Betrag erst nach Erhalt der Rechnung.', 'Kochwerk24 GmbH · SpaldingstraBe 160 · 20097 Hamburg · Amtsgericht Hamburg HRB 147722 · USt-ldNr. DE 301 448 921']), 'other');
  assert.equal(label(['Banco Aurora', 'EXTRACTO DE CUENTA', 'Titular Estudio Marea Diseño, S.L.', 'IBAN ES76 0182 4021 5102 0158 7734', 'Saldo inicial a 01/03/2024 12.480,35 €', '05/03/2024 05/03/2024 Pago factura 2024-A-00562 -655,82 15.410,39', '08/03/2024 07/03/2024 Compra tarjeta *4417 Papelería Turia -48,90 15.361,49', 'Saldo final a 31/03/2024 6.103,76 €']), 'other');
});

test('a till slip titled as an invoice that hands back change is a receipt; a Turkish fiş reads with its dotted capitals', () => {
  // The Philippines' POS slips print "SALES INVOICE"; cash in, change out is a sale paid at the counter.
  assert.equal(label(['HealthPlus DRUGSTORE', 'SALES INVOICE', 'SI No: 00-0358214', 'Date: 08/23/2024 15:52', 'PARACETAMOL 500MG TAB 95.00', 'AMOXICILLIN 50OMG CAP 262.50', 'TOTAL 7 ITEM(S) 1,092.00', 'AMOUNT DUE P1,092.00', 'CASH 1,500.00', 'CHANGE 408.00', 'VAT Amount (12%) 47.20', 'Customer Name:', 'THIS SERVES AS YOUR SALES INVOICE', 'Thank you and get well soon!']), 'receipt');
  assert.equal(label(['KARDEŞLER MARKET', 'Bağdat Cad. No:212 Kadıköy/İSTANBUL', 'TARİH: 08.06.2024 SAAT: 18:44', 'FİŞ NO: 0118', 'EKMEK 20,00', 'TOPKDV *4,32', 'TOPLAM *436,30', 'NAKİT *500,00', 'PARA ÜSTÜ *63,70', 'TEŞEKKÜR EDERİZ']), 'receipt');
  // A form titled QUITTUNG for money received in cash is a receipt, buyer and seller named on it or not.
  assert.equal(label(['QUITTUNG', 'Nr. EUR Netto MwSt.', '07 420,00 - entfällt (privat)', 'von (Käufer)', 'Jonas Weidmann, Rüttenscheider Str. 70, 45130 Essen', 'für Gebrauchtes Fahrrad', 'Betrag dankend in bar erhalten.', 'Unterschrift des Empfängers (Verkäufer)']), 'receipt');
  // Argentina's "Factura B" to the final consumer paid by card, and a Slovene taxi's "Račun" paid in cash.
  assert.equal(label(['HOJAS DE OTONO S.R.L.', 'IVA RESPONSABLE INSCRIPTO', 'FACTURA B (Cod.006)', 'Fecha: 09/05/2025 Hora: 18:21', 'A CONSUMIDOR FINAL', 'Rayuela 24.900,00', 'TOTAL $102.500,00', 'TARJETA DEBITO MAESTRO $102.500,00', 'cupon 0431 Lote 112 ****6120', 'IVA Contenido $2.967,77', 'Comprobante Autorizado']), 'receipt');
  assert.equal(label(['TAXI', 'Ljubljanica prevozi d.o.o.', 'Racun st. : V07-2025-004312', 'Datum : 07.03.2025', 'Zacetek voznje 22:31', 'ZA PLACILO EUR 17,64', 'DDV 9,5% 1,53', 'Placano : GOTOVINA', 'ZOI : a41f09c2e7b8d3', 'Hvala za voznjo!']), 'receipt');
});

test('bills that never say invoice: a fee note payable by a date, a Dutch "Uw rekening", a Croatian hotel račun paid by card, a Chilean factura electrónica', () => {
  assert.equal(label(['HARROW & PELL SOLICITORS', 'Fee note no: 24/0618', 'FEE NOTE', 'To professional charges in connection with your purchase of 41 Heworth Green, exchange of contracts', 'Net £ VAT £ Total £', 'Our fees 2,850.00 570.00 3,420.00', 'Total £3,893.80', 'Less: paid on account 2 April 2024 -£500.00', 'Balance payable by 28 June 2024 £3,393.80', 'Payment to client account, NatWest, sort code 60-02-14', 'We will never change our bank details by email.']), 'invoice');
  assert.equal(label(['belmo mobiel', 'Klantnummer: 20447193', 'Datum: 2 juni 2024', 'Uw rekening van mei', 'Te betalen: € 24,74. Wij schrijven dit bedrag automatisch af.', 'Abonnement Sim Only 20 GB 16,53', 'Totaal excl. btw 20,45', 'Btw 21% 4,29', 'Totaal te betalen € 24,74']), 'invoice');
  assert.equal(label(['Lavanda Turizam d.o.o.', 'RAČUN', 'KUPAC', 'Geo Consult Berlin GmbH', 'Broj računa 217-1-1', 'Datum računa 14.04.2025.', 'Datum dospijeća 14.04.2025.', 'Vrijeme izdavanja 10:42', 'Način plaćanja Kartica', 'Noćenje 640,00', 'Ukupno bez PDV-a 1.000,40 €', 'PDV 13% 113,93 €', 'UKUPNO ZA PLATITI 1.141,33 €', 'JIR: 3f8c21a7-9d4e', 'ZKI: a41c09e2f7b35d6c']), 'invoice');
  assert.equal(label(['PATAGONIA', 'R.U.T.: 76.912.384-5', 'FACTURA ELECTRÓNICA', 'Cafés y Tostaduría Patagonia SpA N° 48213', 'FECHA EMISIÓN: 12 de febrero de 2025', 'CONDICIÓN DE VENTA: Crédito 30 días', 'Café grano tostado 453.600', 'Monto Neto $1.448.400', 'I.V.A. 19% $275.196', 'Total $1.723.596', 'Timbre Electrónico SII']), 'invoice');
});

test('an offer valid for some days, a memo about invoices, a VAT return and a register of invoices are other papers', () => {
  assert.equal(label(['PT Kode Kreatif Nusantara', 'Perihal Penawaran Harga Aplikasi Kasir', 'Kepada Yth. Ibu Dewi Lestari', 'No Uraian Qty Harga satuan Jumlah', '1 Pembuatan aplikasi kasir 1 18.500.000,00 18.500.000,00', 'Subtotal Rp 25.700.000,00', 'Total penawaran Rp 28.527.000,00', 'Penawaran ini berlaku 30 hari sejak tanggal surat.', 'terima kasih']), 'other');
  assert.equal(label(['MEMORANDUM', 'To All budget holders', 'From Finance - Accounts Payable', 'Subject New rules for supplier invoices', 'What every invoice must show', 'a unique invoice number and invoice date', 'the due date or payment terms', 'Where the invoice total differs from the PO by more than £250', 'Till receipts and card slips are not invoices']), 'other');
  assert.equal(label(['HM Revenue & Customs', 'VAT Return', 'For the period 01 01 24 to 31 03 24', 'Registration number Period Due date', 'Box 1 VAT due in the period on sales 31,884.20', 'Box 3 Total VAT due 31,884.20', 'Box 4 VAT reclaimed on purchases 6,412.75', 'Box 5 Net VAT to pay 25,471.45', 'Signature Date']), 'other');
  assert.equal(label(['Bitfor d.o.o.', 'KNJIGA IZLAZNIH RAČUNA', 'Broj računa Datum Kupac Osnovica PDV 25% Ukupno', '118-1-1 31.05.2024. Ljekarna Trešnjevka d.o.o. 810,00 202,50 1.012,50', '117-1-1 30.05.2024. Autoškola Ivić 240,00 60,00 300,00', 'Ukupno PDV 841,25 EUR', 'Ukupno 4.206,25 EUR']), 'other');
});
