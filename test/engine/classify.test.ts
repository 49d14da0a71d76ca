import { test } from 'node:test';
import assert from 'node:assert/strict';
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
