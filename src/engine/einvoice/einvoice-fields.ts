// Workflow fields -> values of an embedded e-invoice. A field takes an XML value only when its name
// says plainly which one (the same role words the built-in engine uses for printed labels); any other
// field is left to the engine that reads the page.
import type { FieldDefinition, SubFieldDefinition } from '../../api/types.js';
import { fieldTerms } from '../builtin/field-terms.js';
import { formatDate } from '../builtin/format-date.js';
import type { CalendarDate } from '../builtin/parse-date.js';
import { DUE_WORDS, hasWord, INCLUSIVE_WORDS, NET_PART_WORDS, OTHER_DATE_WORDS, STOPWORDS, synonymsOf, TAX_WORDS } from '../builtin/vocabulary.js';
import type { EInvoice, EInvoiceLine, EInvoiceParty } from './cii.js';

type Value = string | number | CalendarDate | undefined;

const group = (word: string) => synonymsOf(word);
const BUYER = new Set([...group('customer'), 'recipient', 'payer', 'bill', 'billed', 'sold', 'empfänger', 'destinataire']);
const PREPAID = new Set(['prepaid', 'paid', 'deposit', 'vorauszahlung', 'anzahlung', 'acompte']);
const DELIVERY = new Set(['delivery', 'service', 'supply', 'lieferdatum', 'liefer', 'lieferung', 'leistungsdatum', 'livraison', 'shipped', 'ship']);
const ORDER = group('order');
const ID = new Set([...group('number'), 'code', 'ident']);
const IBAN = new Set(['iban', 'account', 'konto', 'bankverbindung', 'rib']);
const CURRENCY = group('currency');
const INVOICE = group('invoice');

function nameWords(field: FieldDefinition | SubFieldDefinition): string[] {
  return field.name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}#]+/u)
    .filter((w) => w && !STOPWORDS.has(w));
}

const any = (words: string[], set: Set<string>) => words.some((w) => set.has(w)) || hasWord(words, set);

function partyOf(inv: EInvoice, words: string[]): EInvoiceParty | undefined {
  return any(words, BUYER) ? inv.buyer : inv.seller;
}

/** The XML value a scalar field asks for; undefined when its name does not say which. */
function scalarValue(inv: EInvoice, field: FieldDefinition): Value {
  const words = nameWords(field);
  const { role } = fieldTerms(field);
  switch (role) {
    case 'date':
      if (any(words, DUE_WORDS)) return inv.dueDate;
      if (any(words, DELIVERY)) return inv.deliveryDate;
      return any(words, OTHER_DATE_WORDS) ? undefined : inv.issueDate;
    case 'total':
    case 'part':
    case 'amount': {
      const taxWords = words.filter((w) => TAX_WORDS.has(w));
      if (taxWords.length && !any(words, INCLUSIVE_WORDS)) return inv.taxTotal;
      if (any(words, NET_PART_WORDS)) return inv.taxBasis ?? inv.lineTotal;
      if (any(words, PREPAID)) return inv.prepaid;
      if (any(words, DUE_WORDS)) return inv.duePayable ?? inv.grandTotal;
      return role === 'total' ? inv.grandTotal : undefined;
    }
    case 'vendor':
      return partyOf(inv, words)?.name;
    case 'address':
      return partyOf(inv, words)?.address;
    case 'identifier': {
      if (any(words, TAX_WORDS)) return partyOf(inv, words)?.taxId;
      if (any(words, ORDER)) return inv.orderReference;
      // "invoice_number", "bill_no", "number": nothing but invoice and number words (checked before the
      // buyer words, among which "bill" also stands).
      if (words.every((w) => INVOICE.has(w) || ID.has(w) || w === 'document')) return inv.number;
      return undefined; // a customer, supplier or other number
    }
    case 'plain':
      if (words.some((w) => CURRENCY.has(w))) return inv.currency;
      if (words.includes('iban')) return inv.iban;
      if (any(words, BUYER) && (words.includes('name') || words.length === 1)) return inv.buyer?.name;
      return undefined;
  }
}

type LineKey = keyof EInvoiceLine;

/** The line property a table column asks for. */
function lineKey(sub: SubFieldDefinition): LineKey | undefined {
  const words = nameWords(sub);
  const has = (w: string) => words.some((x) => group(w).has(x));
  if (sub.type === 'date') return undefined;
  if (has('tax')) return sub.type === 'number' ? 'taxRate' : undefined;
  if (has('price')) return 'unitPrice';
  if (sub.type === 'number' && (has('total') || words.includes('net') || words.includes('line'))) return 'amount';
  if (has('quantity')) return words.includes('unit') && sub.type !== 'number' ? 'unitCode' : 'quantity';
  // "item_number", "article_no": the product's code, not its name.
  if (words.some((w) => ID.has(w) || w === 'sku')) return words.includes('line') || words.includes('position') ? undefined : 'productId';
  if (has('description')) return 'description';
  return undefined;
}

function output(v: Value, field: FieldDefinition | SubFieldDefinition, dateFormat: string | null): unknown {
  if (v === undefined) return undefined;
  if (typeof v === 'object') return field.type === 'date' ? formatDate(v, dateFormat) : undefined;
  if (field.type === 'number') return typeof v === 'number' ? v : undefined;
  if (field.type === 'date') return undefined;
  return String(v);
}

/**
 * Values for the fields the e-invoice answers, by field name; fields it cannot answer are absent.
 * A table takes the invoice's lines when at least one column names a line property.
 */
export function einvoiceValues(inv: EInvoice, fields: FieldDefinition[], dateFormat: string | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.type === 'table') {
      const columns = (field.subFields ?? []).map((sub) => ({ sub, key: lineKey(sub) }));
      if (inv.lines.length === 0 || !columns.some((c) => c.key)) continue;
      out[field.name] = inv.lines.map((line) =>
        Object.fromEntries(columns.map(({ sub, key }) => [sub.name, (key && output(line[key], sub, dateFormat)) ?? null])),
      );
      continue;
    }
    const value = output(scalarValue(inv, field), field, dateFormat);
    if (value !== undefined) out[field.name] = value;
  }
  return out;
}
