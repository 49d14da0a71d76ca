// Ground truth of ../shared/corpus, read from the upstream truth files that INDEX.csv points to
// (see the corpus MANIFEST.md for each format). Values are normalised here once: dates ISO,
// amounts numbers, line items as lists of amounts.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDate } from '../src/engine/builtin/parse-date.js';
import { parseAmount } from '../src/engine/builtin/parse-amount.js';
import type { FieldDefinition } from '../src/api/types.js';

export interface Truth {
  file: string;
  source: string;
  format: string;
  docClass: string;
  /** 'text' for text-layer PDFs, else 'ocr'. */
  reading: 'text' | 'ocr';
  kind: 'invoice' | 'receipt' | null;
  fields: Partial<Record<'invoice_number' | 'date' | 'total' | 'vendor' | 'company' | 'address', string | number>>;
  /** Amount of each line (line total, or unit price where the truth has no line total); null = count only. */
  lines?: (number | null)[];
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\n') row.push(cell), rows.push(row), (row = []), (cell = '');
    else if (c !== '\r') cell += c;
  }
  if (cell || row.length) row.push(cell), rows.push(row);
  return rows;
}

const iso = (s: string | undefined, monthFirst = false): string | undefined => {
  if (!s) return undefined;
  const d = parseDate(s, { monthFirst });
  return d ? `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}` : undefined;
};
const num = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'string' ? parseAmount(v) : null);

function xmlAll(xml: string, path: string): string[] {
  const re = new RegExp(`<(${path})(?:\\s[^>]*)?>([\\s\\S]*?)</\\1>`, 'g');
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return [...xml.matchAll(re)].map((m) => m[2].trim().replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => entities[e]));
}

async function zugferdTruth(root: string, truthFile: string): Promise<Pick<Truth, 'fields' | 'lines'>> {
  const xml = await readFile(join(root, truthFile), 'utf8');
  const header = xmlAll(xml, 'rsm:(?:ExchangedDocument|HeaderExchangedDocument)')[0] ?? '';
  const seller = xmlAll(xml, 'ram:SellerTradeParty')[0] ?? '';
  const items = xmlAll(xml, 'ram:IncludedSupplyChainTradeLineItem');
  return {
    fields: {
      invoice_number: xmlAll(header, 'ram:ID')[0],
      date: iso(xmlAll(header, 'udt:DateTimeString')[0]),
      total: num(xmlAll(xml, 'ram:GrandTotalAmount')[0]) ?? undefined,
      vendor: xmlAll(seller, 'ram:Name')[0],
    },
    lines: items.map((it) => num(xmlAll(it, 'ram:LineTotalAmount')[0])),
  };
}

async function invoice2dataTruth(root: string, truthFile: string): Promise<Pick<Truth, 'fields' | 'lines'>> {
  const [t] = JSON.parse(await readFile(join(root, truthFile), 'utf8')) as Record<string, unknown>[];
  // Section headers and notes printed between the items are entries of their own there, not items.
  const rawLines = ((t.lines ?? t.line_items) as Record<string, unknown>[] | undefined)?.filter((l) => !('sectionheader' in l) && !('line_note' in l));
  return {
    fields: { invoice_number: t.invoice_number as string, date: iso(t.date as string), total: num(t.amount) ?? undefined, vendor: t.issuer as string },
    lines: rawLines?.map((l) => num(l.price_subtotal ?? l.price ?? l.price_unit)),
  };
}

async function jsonAt(root: string, file: string): Promise<any> {
  return JSON.parse(await readFile(join(root, file), 'utf8'));
}

export async function loadTruth(root: string): Promise<Truth[]> {
  const [head, ...rows] = parseCsv(await readFile(join(root, 'INDEX.csv'), 'utf8')).filter((r) => r.length > 1);
  const col = (r: string[], name: string) => r[head.indexOf(name)] ?? '';
  const out: Truth[] = [];
  for (const r of rows) {
    const file = col(r, 'file');
    const source = col(r, 'source');
    const truthFile = col(r, 'truth_file').split(' ; ')[0].trim();
    const docClass = col(r, 'doc_class');
    const t: Truth = {
      file,
      source,
      format: col(r, 'format'),
      docClass,
      reading: col(r, 'format') === 'pdf' && col(r, 'text_layer') === 'yes' ? 'text' : 'ocr',
      kind: null,
      fields: {},
    };
    if (source === 'zugferd' && truthFile.endsWith('.xml')) Object.assign(t, { kind: 'invoice' }, await zugferdTruth(root, truthFile));
    else if (source === 'invoice2data' && truthFile.endsWith('.json')) Object.assign(t, { kind: 'invoice' }, await invoice2dataTruth(root, truthFile));
    else if (source === 'sroie') {
      const k = await jsonAt(root, truthFile);
      Object.assign(t, { kind: 'receipt', fields: { company: k.company, date: iso(k.date), address: k.address, total: num(k.total) ?? undefined } });
    } else if (source === 'azure_fr_samples') {
      const f = (await jsonAt(root, truthFile)).analyzeResult.documentResults[0].fields;
      if (docClass === 'invoice') t.kind = 'invoice';
      else t.kind = 'receipt';
      t.fields =
        t.kind === 'invoice'
          ? { invoice_number: f.InvoiceId?.valueString, date: f.InvoiceDate?.valueDate, total: f.InvoiceTotal?.valueNumber, vendor: f.VendorName?.valueString }
          : { company: f.MerchantName?.valueString, date: f.TransactionDate?.valueDate, total: f.Total?.valueNumber };
    } else if (source === 'mindee' && truthFile) {
      const p = (await jsonAt(root, truthFile)).document.inference.prediction;
      t.kind = docClass === 'invoice' ? 'invoice' : 'receipt';
      t.fields =
        t.kind === 'invoice'
          ? { invoice_number: p.invoice_number?.value, date: p.date?.value, total: p.total_amount?.value, vendor: p.supplier_name?.value }
          : { company: p.supplier_name?.value, date: p.date?.value, total: p.total_amount?.value };
      if (t.kind === 'invoice') t.lines = (p.line_items as { total_amount: number | null }[]).map((l) => l.total_amount);
    } else if (source === 'myreceipts') {
      t.kind = docClass === 'invoice' ? 'invoice' : 'receipt';
      const date = iso(col(r, 'date'));
      if (date) t.fields = { date };
    }
    for (const [k, v] of Object.entries(t.fields)) if (v === undefined || v === null || v === '') delete (t.fields as Record<string, unknown>)[k];
    out.push(t);
  }
  return out;
}

/** The line-items field both accuracy benches ask for (the truth's rows: description, quantity, unit price, amount). */
export const LINE_ITEMS_FIELD: FieldDefinition & { subFields: NonNullable<FieldDefinition['subFields']> } = {
  name: 'line_items',
  type: 'table',
  subFields: [
    { name: 'description', type: 'text' },
    { name: 'quantity', type: 'number' },
    { name: 'unit_price', type: 'number' },
    { name: 'amount', type: 'number', description: 'Line total' },
  ],
};
