// Text-layer PDFs and a Workflow schema for the jobs/classify/export tests, made with @cantoo/pdf-lib.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import type { CreateTemplateRequest, FieldDefinition } from '../../src/api/types.js';

export interface InvoiceFixture {
  number: string;
  total: string;
  date: string;
  items?: { description: string; amount: string }[];
  /** Extra pages after the first, each with a line of text naming its number. */
  extraPages?: number;
}

/** Each page is a list of [x, y-from-top, text] placements. */
export async function pdfOf(pages: [number, number, string][][]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const placements of pages) {
    const page = pdf.addPage([595, 842]);
    for (const [x, y, text] of placements) page.drawText(text, { x, y: 842 - y, size: 11, font });
  }
  return Buffer.from(await pdf.save());
}

export function invoicePdf(f: InvoiceFixture): Promise<Buffer> {
  const first: [number, number, string][] = [
    [50, 60, 'ACME Supplies Ltd'],
    [50, 80, 'INVOICE'],
    [50, 120, 'Invoice Number:'],
    [200, 120, f.number],
    [50, 140, 'Invoice Date:'],
    [200, 140, f.date],
    [50, 160, 'Bill to: Example Customer GmbH'],
  ];
  let y = 220;
  if (f.items?.length) {
    first.push([50, y, 'Description'], [400, y, 'Amount']);
    for (const it of f.items) {
      y += 20;
      first.push([50, y, it.description], [400, y, it.amount]);
    }
  }
  first.push([300, y + 40, 'Total Due:'], [400, y + 40, f.total]);
  const extra = Array.from({ length: f.extraPages ?? 0 }, (_, i): [number, number, string][] => [[50, 60, `Appendix page ${i + 2} terms and conditions`]]);
  return pdfOf([first, ...extra]);
}

export function contractPdf(): Promise<Buffer> {
  return pdfOf([
    [
      [50, 60, 'EMPLOYMENT CONTRACT'],
      [50, 100, 'This employment agreement is made between the employer and the employee.'],
      [50, 120, 'The employee agrees to the terms of employment, salary and notice period.'],
      [50, 140, 'Signed by both parties to this contract.'],
    ],
  ]);
}

export async function writeFixture(dir: string, name: string, bytes: Buffer): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, bytes);
  return p;
}

export const invoiceFields: FieldDefinition[] = [
  { name: 'invoice_number', description: 'the invoice number', type: 'text', required: true },
  { name: 'invoice_date', description: 'date of the invoice', type: 'date' },
  { name: 'total_due', description: 'total amount due', type: 'number', required: true },
  {
    name: 'line_items',
    description: 'invoice lines',
    type: 'table',
    subFields: [
      { name: 'description', description: 'item description', type: 'text' },
      { name: 'amount', description: 'line amount', type: 'number' },
    ],
  },
];

export function invoiceTemplate(title: string, extra: Partial<CreateTemplateRequest> = {}): CreateTemplateRequest {
  return { template_title: title, template_type: 'invoice', template_schema: { fields: invoiceFields }, ...extra };
}
