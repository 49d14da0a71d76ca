// The structured invoice of a hybrid e-invoice: UN/CEFACT Cross Industry Invoice XML as ZUGFeRD 1
// (CrossIndustryDocument) and ZUGFeRD 2 / Factur-X / XRechnung CII (CrossIndustryInvoice) attach it
// to the PDF. Its values are exact, so they beat anything read from the page.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { CalendarDate } from '../builtin/parse-date.js';

export interface EInvoiceParty {
  name?: string;
  /** Street lines, then postcode and city, then country code, joined with ", ". */
  address?: string;
  /** VAT registration (schemeID VA), else the tax number (FC). */
  taxId?: string;
}

export interface EInvoiceLine {
  description?: string;
  quantity?: number;
  unitCode?: string;
  /** Net price per unit (per BasisQuantity when the XML says so). */
  unitPrice?: number;
  /** Line net amount. */
  amount?: number;
  taxRate?: number;
  productId?: string;
}

export interface EInvoice {
  /** Which CII generation: 'ZUGFeRD 1' or 'CII' (ZUGFeRD 2, Factur-X, XRechnung CII). */
  syntax: 'ZUGFeRD 1' | 'CII';
  /** The guideline (profile) URN the XML claims. */
  profile?: string;
  number?: string;
  /** UNTDID 1001: 380 invoice, 381 credit note, 384 corrected, 389 self-billed, ... */
  typeCode?: string;
  issueDate?: CalendarDate;
  dueDate?: CalendarDate;
  deliveryDate?: CalendarDate;
  currency?: string;
  seller?: EInvoiceParty;
  buyer?: EInvoiceParty;
  orderReference?: string;
  paymentReference?: string;
  iban?: string;
  lineTotal?: number;
  taxBasis?: number;
  taxTotal?: number;
  grandTotal?: number;
  prepaid?: number;
  duePayable?: number;
  lines: EInvoiceLine[];
}

type Node = Record<string, unknown>;

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Values stay strings: an invoice number "00042" must keep its zeros.
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: false,
  // The XML comes from an uploaded file: entity expansion is bounded.
  processEntities: { enabled: true, maxEntityCount: 50, maxEntitySize: 1000, maxExpansionDepth: 2, maxTotalExpansions: 200 },
});

const list = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

/** The node at a path of element names; the first of repeated elements. */
function at(node: unknown, path: string): unknown {
  let cur: unknown = node;
  for (const name of path.split('/')) {
    cur = list(cur)[0];
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Node)[name];
  }
  return cur;
}

/** Text content of an element (which may carry attributes). */
function textOf(v: unknown): string | undefined {
  const first = list(v)[0];
  const raw = typeof first === 'object' && first !== null ? (first as Node)['#text'] : first;
  if (raw === undefined || raw === null) return undefined;
  const s = String(raw).trim();
  return s === '' ? undefined : s;
}

const text = (node: unknown, ...paths: string[]): string | undefined => {
  for (const p of paths) {
    const t = textOf(at(node, p));
    if (t !== undefined) return t;
  }
  return undefined;
};

function numberOf(s: string | undefined): number | undefined {
  if (s === undefined || !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(s)) return undefined;
  return Number(s);
}

const amount = (node: unknown, ...paths: string[]): number | undefined => numberOf(text(node, ...paths));

/** An amount element that may repeat per currency (TaxTotalAmount): the one in the invoice currency. */
function amountIn(node: unknown, path: string, currency: string | undefined): number | undefined {
  const all = list(at(node, path));
  const own = all.find((v) => typeof v === 'object' && v !== null && (v as Node)['@currencyID'] === currency) ?? all[0];
  return numberOf(textOf(own));
}

/** DateTimeString with format 102 (CCYYMMDD); month (610) and week (616) forms are no calendar date. */
function dateOf(node: unknown, path: string): CalendarDate | undefined {
  const el = list(at(node, `${path}/DateTimeString`))[0];
  const value = textOf(el);
  const format = typeof el === 'object' && el !== null ? (el as Node)['@format'] : undefined;
  if (!value || (format !== undefined && format !== '102')) return undefined;
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return { year, month, day };
}

function party(node: unknown): EInvoiceParty | undefined {
  if (!node) return undefined;
  const addr = at(node, 'PostalTradeAddress');
  const cityLine = [text(addr, 'PostcodeCode'), text(addr, 'CityName')].filter(Boolean).join(' ');
  const parts = [text(addr, 'LineOne'), text(addr, 'LineTwo'), text(addr, 'LineThree'), cityLine, text(addr, 'CountryID')].filter((p) => p);
  const regs = list(at(node, 'SpecifiedTaxRegistration')).map((r) => list((r as Node).ID)[0]);
  const reg = (scheme: string) => textOf(regs.find((id) => typeof id === 'object' && id !== null && (id as Node)['@schemeID'] === scheme));
  const out: EInvoiceParty = { name: text(node, 'Name'), address: parts.length ? parts.join(', ') : undefined, taxId: reg('VA') ?? reg('FC') };
  return out.name || out.address || out.taxId ? out : undefined;
}

function line(item: unknown, v1: boolean): EInvoiceLine {
  // ZUGFeRD 1 names the line's blocks SpecifiedSupplyChainTrade*, CII 16B+ SpecifiedLineTrade*.
  const agreement = at(item, v1 ? 'SpecifiedSupplyChainTradeAgreement' : 'SpecifiedLineTradeAgreement');
  const delivery = at(item, v1 ? 'SpecifiedSupplyChainTradeDelivery' : 'SpecifiedLineTradeDelivery');
  const settlement = at(item, v1 ? 'SpecifiedSupplyChainTradeSettlement' : 'SpecifiedLineTradeSettlement');
  const qty = list(at(delivery, 'BilledQuantity'))[0];
  const price = numberOf(text(agreement, 'NetPriceProductTradePrice/ChargeAmount', 'GrossPriceProductTradePrice/ChargeAmount'));
  const basis = numberOf(text(agreement, 'NetPriceProductTradePrice/BasisQuantity')) ?? 1;
  return {
    description: text(item, 'SpecifiedTradeProduct/Name', 'SpecifiedTradeProduct/Description'),
    quantity: numberOf(textOf(qty)),
    unitCode: typeof qty === 'object' && qty !== null ? ((qty as Node)['@unitCode'] as string | undefined) : undefined,
    unitPrice: price === undefined ? undefined : basis > 0 ? round(price / basis, 6) : price,
    amount: amount(settlement, 'SpecifiedTradeSettlementLineMonetarySummation/LineTotalAmount', 'SpecifiedTradeSettlementMonetarySummation/LineTotalAmount'),
    taxRate: numberOf(text(settlement, 'ApplicableTradeTax/RateApplicablePercent', 'ApplicableTradeTax/ApplicablePercent')),
    productId: text(item, 'SpecifiedTradeProduct/SellerAssignedID', 'SpecifiedTradeProduct/GlobalID'),
  };
}

const round = (v: number, places: number): number => Math.round(v * 10 ** places) / 10 ** places;

/** The invoice of a CII XML document, or null when the XML is not one (or not well-formed). */
export function parseCii(xml: string): EInvoice | null {
  let root: Node;
  try {
    // The parser alone accepts unclosed elements; a truncated XML must not pass for an invoice.
    if (XMLValidator.validate(xml) !== true) return null;
    root = parser.parse(xml) as Node;
  } catch {
    return null;
  }
  const v1 = 'CrossIndustryDocument' in root;
  const doc = root.CrossIndustryInvoice ?? root.CrossIndustryDocument;
  if (!doc || typeof doc !== 'object') return null;
  const header = at(doc, v1 ? 'HeaderExchangedDocument' : 'ExchangedDocument');
  const tx = at(doc, v1 ? 'SpecifiedSupplyChainTradeTransaction' : 'SupplyChainTradeTransaction');
  const agreement = at(tx, v1 ? 'ApplicableSupplyChainTradeAgreement' : 'ApplicableHeaderTradeAgreement');
  const delivery = at(tx, v1 ? 'ApplicableSupplyChainTradeDelivery' : 'ApplicableHeaderTradeDelivery');
  const settlement = at(tx, v1 ? 'ApplicableSupplyChainTradeSettlement' : 'ApplicableHeaderTradeSettlement');
  const sums = at(settlement, v1 ? 'SpecifiedTradeSettlementMonetarySummation' : 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const currency = text(settlement, 'InvoiceCurrencyCode');
  const means = list(at(settlement, 'SpecifiedTradeSettlementPaymentMeans'));
  return {
    syntax: v1 ? 'ZUGFeRD 1' : 'CII',
    profile: text(doc, v1 ? 'SpecifiedExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter/ID' : 'ExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter/ID'),
    number: text(header, 'ID'),
    typeCode: text(header, 'TypeCode'),
    issueDate: dateOf(header, 'IssueDateTime'),
    dueDate: dateOf(settlement, 'SpecifiedTradePaymentTerms/DueDateDateTime'),
    deliveryDate: dateOf(delivery, 'ActualDeliverySupplyChainEvent/OccurrenceDateTime'),
    currency,
    seller: party(at(agreement, 'SellerTradeParty')),
    buyer: party(at(agreement, 'BuyerTradeParty')),
    orderReference: text(agreement, 'BuyerOrderReferencedDocument/IssuerAssignedID'),
    paymentReference: text(settlement, 'PaymentReference'),
    iban: means.map((m) => text(m, 'PayeePartyCreditorFinancialAccount/IBANID')).find(Boolean),
    lineTotal: amount(sums, 'LineTotalAmount'),
    taxBasis: amount(sums, 'TaxBasisTotalAmount'),
    taxTotal: amountIn(sums, 'TaxTotalAmount', currency),
    grandTotal: amount(sums, 'GrandTotalAmount'),
    prepaid: amount(sums, 'TotalPrepaidAmount'),
    duePayable: amount(sums, 'DuePayableAmount'),
    lines: list(at(tx, 'IncludedSupplyChainTradeLineItem')).map((item) => line(item, v1)),
  };
}
