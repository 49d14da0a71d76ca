// Hybrid e-invoices made on the fly: a CII invoice XML (ZUGFeRD 2 / Factur-X layout, or the older
// ZUGFeRD 1 one) attached to a text PDF with @cantoo/pdf-lib, as invoicing software does.
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';

export interface CiiFixture {
  number: string;
  /** CCYYMMDD */
  issued: string;
  due?: string;
  currency: string;
  seller: string;
  buyer: string;
  grandTotal: string;
  taxTotal: string;
  taxBasis: string;
  duePayable?: string;
  lines: { name: string; qty: string; price: string; basis?: string; amount: string }[];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const date = (tag: string, d: string) => `<ram:${tag}><udt:DateTimeString format="102">${d}</udt:DateTimeString></ram:${tag}>`;
const party = (tag: string, name: string, street: string, city: string) =>
  `<ram:${tag}><ram:Name>${esc(name)}</ram:Name><ram:PostalTradeAddress><ram:PostcodeCode>10115</ram:PostcodeCode><ram:LineOne>${street}</ram:LineOne><ram:CityName>${city}</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE999999999</ram:ID></ram:SpecifiedTaxRegistration></ram:${tag}>`;

/** ZUGFeRD 2 / Factur-X (CrossIndustryInvoice). The tax total is also given in a second currency. */
export function ciiXml(f: CiiFixture): string {
  const lines = f.lines
    .map(
      (l, i) =>
        `<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument><ram:SpecifiedTradeProduct><ram:SellerAssignedID>P-${i + 1}</ram:SellerAssignedID><ram:Name>${esc(l.name)}</ram:Name></ram:SpecifiedTradeProduct><ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>${l.price}</ram:ChargeAmount>${l.basis ? `<ram:BasisQuantity unitCode="C62">${l.basis}</ram:BasisQuantity>` : ''}</ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement><ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="HUR">${l.qty}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery><ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19</ram:RateApplicablePercent></ram:ApplicableTradeTax><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${l.amount}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID>${esc(f.number)}</ram:ID><ram:TypeCode>380</ram:TypeCode>${date('IssueDateTime', f.issued)}</rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction>${lines}
<ram:ApplicableHeaderTradeAgreement>${party('SellerTradeParty', f.seller, 'Hauptstraße 1', 'Berlin')}${party('BuyerTradeParty', f.buyer, 'Nebenweg 2', 'Hamburg')}<ram:BuyerOrderReferencedDocument><ram:IssuerAssignedID>PO-77</ram:IssuerAssignedID></ram:BuyerOrderReferencedDocument></ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeDelivery/>
<ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>${f.currency}</ram:InvoiceCurrencyCode>${f.due ? `<ram:SpecifiedTradePaymentTerms>${date('DueDateDateTime', f.due)}</ram:SpecifiedTradePaymentTerms>` : ''}<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount>${f.taxBasis}</ram:LineTotalAmount><ram:TaxBasisTotalAmount>${f.taxBasis}</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="XXX">1.00</ram:TaxTotalAmount><ram:TaxTotalAmount currencyID="${f.currency}">${f.taxTotal}</ram:TaxTotalAmount><ram:GrandTotalAmount>${f.grandTotal}</ram:GrandTotalAmount><ram:DuePayableAmount>${f.duePayable ?? f.grandTotal}</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation></ram:ApplicableHeaderTradeSettlement>
</rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>`;
}

/** The ZUGFeRD 1.0 layout (CrossIndustryDocument), header and totals only. */
export function zugferd1Xml(number: string, issued: string, seller: string, grandTotal: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15"><rsm:HeaderExchangedDocument><ram:ID>${number}</ram:ID><ram:TypeCode>380</ram:TypeCode>${date('IssueDateTime', issued)}</rsm:HeaderExchangedDocument><rsm:SpecifiedSupplyChainTradeTransaction><ram:ApplicableSupplyChainTradeAgreement><ram:SellerTradeParty><ram:Name>${esc(seller)}</ram:Name></ram:SellerTradeParty></ram:ApplicableSupplyChainTradeAgreement><ram:ApplicableSupplyChainTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode><ram:SpecifiedTradeSettlementMonetarySummation><ram:GrandTotalAmount currencyID="EUR">${grandTotal}</ram:GrandTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation></ram:ApplicableSupplyChainTradeSettlement><ram:IncludedSupplyChainTradeLineItem><ram:SpecifiedSupplyChainTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>5.00</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedSupplyChainTradeAgreement><ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">2</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery><ram:SpecifiedSupplyChainTradeSettlement><ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount>10.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation></ram:SpecifiedSupplyChainTradeSettlement><ram:SpecifiedTradeProduct><ram:Name>Widget</ram:Name></ram:SpecifiedTradeProduct></ram:IncludedSupplyChainTradeLineItem></rsm:SpecifiedSupplyChainTradeTransaction></rsm:CrossIndustryDocument>`;
}

/** A one-page text PDF (lines top to bottom) with the given files attached. */
export async function hybridPdf(lines: string[], attachments: { name: string; xml: string }[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((text, i) => page.drawText(text, { x: 50, y: 780 - i * 20, size: 11, font }));
  for (const a of attachments) await doc.attach(new TextEncoder().encode(a.xml), a.name, { mimeType: 'text/xml', description: 'invoice data' });
  return doc.save();
}
