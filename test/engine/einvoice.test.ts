import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCii } from '../../src/engine/einvoice/cii.js';
import { einvoiceValues } from '../../src/engine/einvoice/einvoice-fields.js';
import { createDocumentEngine, EINVOICE_READER } from '../../src/engine/index.js';
import type { FieldDefinition } from '../../src/api/types.js';
import { ciiXml, hybridPdf, zugferd1Xml, type CiiFixture } from './einvoice-fixtures.js';
import { useFixtureDir } from './read-fixtures.js';

const INVOICE: CiiFixture = {
  number: 'RE-2026/0042',
  issued: '20261103',
  due: '20261203',
  currency: 'EUR',
  seller: 'Kontor & Söhne GmbH',
  buyer: 'Beispiel AG',
  grandTotal: '238.00',
  taxTotal: '38.00',
  taxBasis: '200.00',
  duePayable: '138.00',
  lines: [
    { name: 'Consulting', qty: '2', price: '150.00', basis: '2', amount: '150.00' },
    { name: 'Travel', qty: '1', price: '50.00', amount: '50.00' },
  ],
};

/** What is printed on the page differs from the XML on purpose: the XML must win. */
const PRINTED = ['Kontor GmbH', 'Invoice No: PRINTED-1', 'Invoice Date: 01/01/2020', 'Phone: +49 30 123456', 'Total: 999.00'];

const f = (name: string, type: FieldDefinition['type'], description?: string): FieldDefinition => ({ name, type, ...(description ? { description } : {}) });

describe('parseCii', () => {
  test('reads a ZUGFeRD 2 / Factur-X invoice: header, parties, dates, totals in the invoice currency, lines', () => {
    const inv = parseCii(ciiXml(INVOICE));
    assert.ok(inv);
    assert.equal(inv.syntax, 'CII');
    assert.equal(inv.profile, 'urn:cen.eu:en16931:2017');
    assert.equal(inv.number, 'RE-2026/0042');
    assert.deepEqual(inv.issueDate, { year: 2026, month: 11, day: 3 });
    assert.deepEqual(inv.dueDate, { year: 2026, month: 12, day: 3 });
    assert.equal(inv.seller?.name, 'Kontor & Söhne GmbH');
    assert.equal(inv.seller?.address, 'Hauptstraße 1, 10115 Berlin, DE');
    assert.equal(inv.buyer?.taxId, 'DE999999999');
    assert.equal(inv.orderReference, 'PO-77');
    assert.deepEqual([inv.grandTotal, inv.taxTotal, inv.taxBasis, inv.duePayable], [238, 38, 200, 138]);
    assert.deepEqual(inv.lines, [
      // The net price is per BasisQuantity (150.00 for 2 units): per unit it is 75.
      { description: 'Consulting', quantity: 2, unitCode: 'HUR', unitPrice: 75, amount: 150, taxRate: 19, productId: 'P-1' },
      { description: 'Travel', quantity: 1, unitCode: 'HUR', unitPrice: 50, amount: 50, taxRate: 19, productId: 'P-2' },
    ]);
  });

  test('reads the ZUGFeRD 1 layout', () => {
    const inv = parseCii(zugferd1Xml('0007', '20140102', 'Alte Firma KG', '11.90'));
    assert.equal(inv?.syntax, 'ZUGFeRD 1');
    assert.equal(inv?.number, '0007');
    assert.deepEqual(inv?.issueDate, { year: 2014, month: 1, day: 2 });
    assert.equal(inv?.seller?.name, 'Alte Firma KG');
    assert.equal(inv?.grandTotal, 11.9);
    assert.deepEqual(inv?.lines, [{ description: 'Widget', quantity: 2, unitCode: 'C62', unitPrice: 5, amount: 10, taxRate: undefined, productId: undefined }]);
  });

  test('is null for XML that is not a CII invoice or not well-formed, and bounds entity expansion', () => {
    assert.equal(parseCii('<notes><note>hello</note></notes>'), null);
    assert.equal(parseCii('<rsm:CrossIndustryInvoice><unclosed>'), null);
    const bomb = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><rsm:CrossIndustryInvoice xmlns:rsm="x"><rsm:ExchangedDocument><ram:ID xmlns:ram="y">&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;</ram:ID></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>`;
    const inv = parseCii(bomb);
    assert.ok(inv === null || (inv.number ?? '').length < 10_000, 'entity expansion is not bounded');
  });
});

describe('einvoiceValues', () => {
  const inv = parseCii(ciiXml(INVOICE))!;

  test('answers fields whose names say which value, typed and in the date_format', () => {
    const fields = [
      f('invoice_number', 'text'),
      f('date', 'date', 'Invoice date'),
      f('due_date', 'date'),
      f('total', 'number', 'Total amount to pay, including tax'),
      f('amount_due', 'number'),
      f('vat_amount', 'number'),
      f('net_total', 'number'),
      f('vendor', 'text', 'Name of the seller'),
      f('vendor_address', 'text'),
      f('customer_name', 'text'),
      f('currency', 'text'),
      f('order_number', 'text'),
      f('bill_no', 'text'),
    ];
    assert.deepEqual(einvoiceValues(inv, fields, '%d.%m.%Y'), {
      invoice_number: 'RE-2026/0042',
      date: '03.11.2026',
      due_date: '03.12.2026',
      total: 238,
      amount_due: 138,
      vat_amount: 38,
      net_total: 200,
      vendor: 'Kontor & Söhne GmbH',
      vendor_address: 'Hauptstraße 1, 10115 Berlin, DE',
      customer_name: 'Beispiel AG',
      currency: 'EUR',
      order_number: 'PO-77',
      bill_no: 'RE-2026/0042',
    });
  });

  test('leaves out fields it cannot answer and fields of the wrong type', () => {
    const out = einvoiceValues(inv, [f('phone', 'text'), f('customer_number', 'text'), f('supplier_no', 'text'), f('ship_date', 'date'), f('invoice_number', 'number'), f('notes', 'text')], null);
    assert.deepEqual(out, {});
  });

  test('fills a table from the lines, column by column, null where a column names no line value', () => {
    const table: FieldDefinition = {
      name: 'line_items',
      type: 'table',
      subFields: [
        { name: 'item_number', type: 'text' },
        { name: 'description', type: 'text' },
        { name: 'qty', type: 'number' },
        { name: 'unit_price', type: 'number' },
        { name: 'amount', type: 'number', description: 'Line total' },
        { name: 'colour', type: 'text' },
      ],
    };
    assert.deepEqual(einvoiceValues(inv, [table], null).line_items, [
      { item_number: 'P-1', description: 'Consulting', qty: 2, unit_price: 75, amount: 150, colour: null },
      { item_number: 'P-2', description: 'Travel', qty: 1, unit_price: 50, amount: 50, colour: null },
    ]);
    const unknown: FieldDefinition = { name: 'sizes', type: 'table', subFields: [{ name: 'colour', type: 'text' }] };
    assert.deepEqual(einvoiceValues(inv, [unknown], null), {});
  });
});

describe('extracting a hybrid e-invoice PDF', () => {
  const fx = useFixtureDir();
  const OPTIONS = { useOcr: false, detectLayout: true, detectTables: false };
  const FIELDS = [f('invoice_number', 'text'), f('invoice_date', 'date'), f('total', 'number'), f('vendor', 'text'), { ...f('phone', 'text'), required: true }];

  test('takes the attached XML over the printed values, and reads the page for the rest', async () => {
    const engine = createDocumentEngine();
    const file = await fx().file('hybrid.pdf', await hybridPdf(PRINTED, [{ name: 'factur-x.xml', xml: ciiXml(INVOICE) }]));
    const r = await engine.extract({ filePath: file, kind: 'pdf', fields: FIELDS, dateFormat: null, options: OPTIONS });
    assert.deepEqual(r.data, { invoice_number: 'RE-2026/0042', invoice_date: '2026-11-03', total: 238, vendor: 'Kontor & Söhne GmbH', phone: '+49 30 123456' });
    assert.deepEqual(r.missingRequired, []);
    assert.equal(r.engine.name, 'docdrop-builtin+einvoice');
    // The page text is still read (search_term finds the document by what it shows).
    assert.match(r.text ?? '', /PRINTED-1/);
  });

  test('does not call the engine when the XML answers every field, also with OCR forced', async () => {
    const engine = createDocumentEngine();
    const file = await fx().file('all.pdf', await hybridPdf(PRINTED, [{ name: 'zugferd-invoice.xml', xml: ciiXml(INVOICE) }]));
    const r = await engine.extract({ filePath: file, kind: 'pdf', fields: FIELDS.slice(0, 4), dateFormat: null, options: OPTIONS });
    assert.deepEqual(r.engine, EINVOICE_READER);
    assert.equal(r.data.total, 238);
    const ocr = await engine.extract({ filePath: file, kind: 'pdf', fields: FIELDS.slice(0, 4), dateFormat: null, options: { ...OPTIONS, useOcr: true } });
    assert.equal(ocr.data.invoice_number, 'RE-2026/0042');
  });

  test('ignores attachments that are not a CII invoice, and a broken one, reading the page instead', async () => {
    const engine = createDocumentEngine();
    for (const attachment of [
      { name: 'notes.xml', xml: '<notes><total>1.00</total></notes>' },
      { name: 'factur-x.xml', xml: '<rsm:CrossIndustryInvoice xmlns:rsm="x"><broken>' },
    ]) {
      const file = await fx().file(`other-${attachment.name}`, await hybridPdf(PRINTED, [attachment]));
      const r = await engine.extract({ filePath: file, kind: 'pdf', fields: FIELDS, dateFormat: null, options: OPTIONS });
      assert.equal(r.data.invoice_number, 'PRINTED-1', attachment.xml);
      assert.equal(r.data.total, 999);
      assert.equal(r.engine.name, 'docdrop-builtin');
    }
  });

  test('segments are read from their pages, not from the XML of the whole document', async () => {
    const engine = createDocumentEngine();
    const file = await fx().file('seg.pdf', await hybridPdf(PRINTED, [{ name: 'factur-x.xml', xml: ciiXml(INVOICE) }]));
    const r = await engine.extract({ filePath: file, kind: 'pdf', fields: FIELDS.slice(0, 1), dateFormat: null, options: { ...OPTIONS, chunkByPages: 1 } });
    assert.equal(r.data.invoice_number, 'RE-2026/0042');
    assert.equal(r.chunks?.[0].data.invoice_number, 'PRINTED-1');
  });
});
