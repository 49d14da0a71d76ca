// The kinds of document a page says it is: its title ("PURCHASE ORDER", "Lieferschein Nr. 4711",
// "WEEKLY TIMESHEET"), or a letter's salutation and closing. Business papers of other kinds share most
// words with invoices and receipts (order numbers, quantities, VAT, totals); their title tells them apart.
import type { Line } from '../layout/lines.js';
import { foldTokens } from './vocabulary.js';

/** Title words of each kind of document, in English, German, French, Spanish, Italian, Dutch and the Nordic languages (folded: no accents, umlauts spelt out). */
export const DOCUMENT_TITLES: Record<string, string[]> = {
  invoice: [
    'invoice', 'tax invoice', 'credit note', 'rechnung', 'gutschrift', 'facture', 'avoir', 'factura', 'fattura', 'nota di credito', 'fatura',
    'factuur', 'creditnota', 'faktura', 'lasku', 'bill', 'nota fiscal', 'nota fiscal de servicos eletronica', 'nfs e', 'nf e',
  ],
  receipt: [
    'receipt', 'sales receipt', 'cash receipt', 'kassenbon', 'kassenbeleg', 'quittung', 'bon', 'recu', 'ticket', 'ticket de caisse', 'scontrino',
    'ricevuta', 'documento commerciale', 'recibo', 'factura simplificada', 'fatura simplificada', 'paragon fiskalny', 'paragon', 'kassabon', 'kvitto', 'kvittering', 'kuitti',
    // Chile's and Peru's boleta, Brazil's cupom fiscal: the sales slips of a shop.
    'boleta', 'boleta electronica', 'boleta de venta', 'cupom fiscal',
  ],
  'purchase order': [
    'purchase order', 'bestellung', 'bestellschein', 'bon de commande', 'orden de compra', 'ordine di acquisto', 'ordine d acquisto',
    'buono d ordine', 'inkooporder', 'bestelbon', 'bestelling', 'inkopsorder', 'inkoepsorder', 'indkobsordre', 'innkjopsordre', 'zamowienie',
  ],
  quotation: [
    'quotation', 'quote', 'estimate', 'proposal', 'angebot', 'kostenvoranschlag', 'devis', 'presupuesto', 'cotizacion', 'preventivo',
    'offerta', 'offerte', 'orcamento', 'tilbud', 'offert', 'tarjous', 'oferta',
  ],
  'delivery note': [
    'delivery note', 'delivery slip', 'packing slip', 'packing list', 'dispatch note', 'goods received note', 'lieferschein',
    'bon de livraison', 'bordereau de livraison', 'albaran', 'nota de entrega', 'documento di trasporto', 'bolla di consegna', 'pakbon',
    'leveringsbon', 'foljesedel', 'foeljesedel', 'folgeseddel', 'pakkseddel', 'delivery order', 'delivery challan', 'delivery docket', 'wz',
    'wydanie zewnetrzne', 'dowod dostawy',
  ],
  'bill of lading': [
    'bill of lading', 'waybill', 'air waybill', 'consignment note', 'cmr', 'frachtbrief', 'lettre de voiture', 'carta de porte',
    'lettera di vettura', 'vrachtbrief', 'shipping manifest',
  ],
  // A bank's slip of a transaction that bought nothing: a cash-machine record, a balance enquiry.
  // ... and a bank's confirmation of a transfer it made ("Ausführungsbestätigung SEPA-Überweisung").
  'bank slip': [
    'atm transaction record', 'atm transaction', 'atm slip', 'atm receipt', 'atm advice', 'balance enquiry', 'balance inquiry', 'mini statement',
    'transfer confirmation', 'bank transfer confirmation', 'ausfuehrungsbestaetigung', 'ueberweisungsbestaetigung', 'confirmation de virement',
    'avis de virement', 'justificante de transferencia', 'comprovativo de transferencia', 'conferma di bonifico', 'bevestiging overschrijving',
    'potwierdzenie przelewu',
  ],
  // An insurer's notice of renewal or its policy schedule ("Your car insurance renewal").
  'insurance notice': ['renewal notice', 'insurance renewal', 'car insurance renewal', 'motor insurance renewal', 'home insurance renewal', 'policy renewal', 'policy schedule', 'schedule of insurance'],
  'bank statement': [
    'bank statement', 'credit card statement', 'card statement', 'kontoauszug', 'releve bancaire', 'releve de compte', 'extracto bancario', 'estratto conto', 'rekeningafschrift', 'bankafschrift',
    'extracto de cuenta', 'extracto', 'extrato bancario', 'extrato de conta', 'extrato',
  ],
  statement: ['statement', 'account statement', 'statement of account', 'kontoubersicht', 'kontouebersicht', 'releve', 'estado de cuenta', 'rekeningoverzicht', 'kontoutdrag'],
  'payment reminder': [
    'reminder', 'payment reminder', 'zahlungserinnerung', 'mahnung', 'relance', 'rappel', 'recordatorio de pago', 'sollecito', 'herinnering',
    'betalingsherinnering', 'aanmaning', 'betalningspaminnelse', 'paminnelse', 'betalingspamindelse', 'maksumuistutus', 'wezwanie do zaplaty',
  ],
  // An invoice issued before the sale to ask for payment in advance; no tax invoice.
  'pro forma': ['proforma', 'pro forma', 'proforma invoice', 'pro forma invoice', 'factura proforma', 'facture proforma', 'proformarechnung', 'proforma rechnung', 'fattura proforma'],
  'remittance advice': ['remittance advice', 'remittance', 'payment advice', 'zahlungsavis', 'avis de paiement', 'aviso de pago'],
  'booking confirmation': [
    'booking confirmation', 'reservation confirmation', 'confirmacao de reserva', 'confirmacion de reserva', 'buchungsbestaetigung',
    'reservierungsbestaetigung', 'confirmation de reservation', 'conferma di prenotazione', 'reserveringsbevestiging',
  ],
  timesheet: ['timesheet', 'time sheet', 'stundenzettel', 'stundennachweis', 'arbeitszeitnachweis', 'feuille de temps', 'hoja de horas', 'urenstaat'],
  'expense report': ['expense report', 'expense claim', 'note de frais', 'nota spese', 'informe de gastos'],
  contract: ['agreement', 'contract', 'vertrag', 'contrat', 'contrato', 'contratto', 'overeenkomst', 'avtal', 'kontrakt'],
  minutes: ['minutes', 'protokoll', 'proces verbal', 'compte rendu', 'acta', 'verbale', 'notulen'],
  'order confirmation': [
    'order confirmation', 'confirmation of order', 'sales order', 'auftragsbestaetigung', 'bestellbestaetigung', 'confirmation de commande',
    'accuse de reception de commande', 'confirmacion de pedido', 'conferma d ordine', 'orderbevestiging', 'ordrebekraeftelse', 'orderbekraftelse',
  ],
  'customs declaration': ['customs declaration', 'zollanmeldung', 'zollinhaltserklaerung', 'declaration en douane', 'declaracion de aduana', 'dichiarazione doganale', 'douaneaangifte'],
  'data sheet': ['data sheet', 'datasheet', 'product data sheet', 'spec sheet', 'specification sheet', 'datenblatt', 'fiche technique', 'ficha tecnica', 'scheda tecnica'],
  'shipping label': ['shipping label', 'shipping labels', 'address label', 'versandetikett', 'etiquette d expedition'],
  agenda: ['agenda', 'tagesordnung', 'ordre du jour', 'orden del dia', 'ordine del giorno', 'dagorde', 'dagordning'],
  itinerary: ['itinerary', 'reiseplan', 'reiseverlauf', 'itineraire', 'itinerario', 'reisschema'],
  'boarding pass': ['boarding pass', 'bordkarte', 'carte d embarquement', 'tarjeta de embarque', 'carta d imbarco', 'instapkaart'],
  payslip: [
    'payslip', 'pay slip', 'pay stub', 'salary slip', 'wage slip', 'earnings statement', 'gehaltsabrechnung', 'lohnabrechnung', 'entgeltabrechnung', 'lohnzettel',
    'bulletin de paie', 'bulletin de salaire', 'fiche de paie', 'nomina', 'recibo de nomina', 'recibo de salario', 'recibo de sueldo', 'recibo de vencimento',
    'holerite', 'contracheque', 'busta paga', 'cedolino', 'loonstrook', 'lonespecifikation', 'loenespecifikation', 'lonseddel', 'lonnsslipp', 'pasek wynagrodzen', 'odcinek wyplaty',
  ],
  // A seller's prices for any buyer, with no sale in it ("TARIFA DE PRECIOS 2024", "Preisliste").
  'price list': ['price list', 'pricelist', 'preisliste', 'liste de prix', 'grille tarifaire', 'tarif', 'tarifs', 'tarifa', 'tarifa de precios', 'lista de precios', 'listino', 'listino prezzi', 'prijslijst', 'prislista', 'prisliste', 'cennik', 'tabela de precos', 'lista de precos'],
  application: ['application', 'antrag', 'demande', 'solicitud', 'domanda', 'aanvraag'],
  report: ['report', 'bericht', 'rapport', 'informe', 'relazione', 'verslag'],
  certificate: ['certificate', 'zertifikat', 'bescheinigung', 'certificat', 'certificado', 'certificato', 'certificaat'],
  // Fines and official notices ("PENALTY CHARGE NOTICE", "Bußgeldbescheid", "Avis de contravention").
  // ... and a tax office's assessment ("Bescheid für 2023 über Einkommensteuer", "Notice of assessment").
  notice: [
    'notice', 'penalty notice', 'notification', 'bussgeldbescheid', 'verwarnung', 'avis de contravention', 'contravention', 'multa', 'contravvenzione', 'boete',
    'bescheid', 'steuerbescheid', 'einkommensteuerbescheid', 'tax assessment', 'notice of assessment', 'assessment notice', 'avis d imposition', 'aanslag',
  ],
  // A ticket to an event, bought before it: admission, not the receipt of the sale.
  'event ticket': ['e ticket', 'eticket', 'event ticket', 'admission ticket', 'concert ticket', 'eintrittskarte', 'billet d entree', 'biglietto d ingresso', 'toegangsbewijs'],
  // A book of the invoices issued or received ("Invoice register", "KNJIGA IZLAZNIH RAČUNA", "Rechnungsausgangsbuch").
  ledger: [
    'invoice register', 'sales register', 'purchase register', 'sales ledger', 'purchase ledger', 'sales journal', 'purchase journal', 'rechnungsausgangsbuch',
    'rechnungseingangsbuch', 'rechnungsausgangsliste', 'journal des ventes', 'journal des achats', 'registro de facturas', 'libro de facturas emitidas',
    'libro de facturas recibidas', 'registro fatture', 'registro iva', 'knjiga izlaznih racuna', 'knjiga ulaznih racuna', 'knjiga izdanih racunov', 'knjiga prejetih racunov',
  ],
  // An office's internal note ("MEMORANDUM", "Hausmitteilung", "Note de service").
  memo: ['memo', 'memorandum', 'internal memo', 'interoffice memo', 'aktennotiz', 'hausmitteilung', 'note de service', 'note interne', 'memorandum interno', 'nota interna', 'interne memo'],
  // A return to the tax office ("VAT Return", "Umsatzsteuer-Voranmeldung", "Déclaration de TVA").
  'tax return': [
    'vat return', 'tax return', 'gst return', 'income tax return', 'umsatzsteuervoranmeldung', 'umsatzsteuer voranmeldung', 'steuererklaerung', 'umsatzsteuererklaerung',
    'declaration de tva', 'declaracion de iva', 'dichiarazione iva', 'aangifte omzetbelasting', 'btw aangifte', 'momsdeklaration', 'momsangivelse', 'mva melding', 'deklaracja vat',
  ],
  form: ['form', 'application form', 'change of address', 'formular', 'formulaire', 'formulario', 'modulo', 'formulier', 'blankett'],
  'deposit slip': ['deposit slip', 'paying in slip', 'paying in', 'einzahlungsschein', 'einzahlungsbeleg', 'bordereau de remise', 'ficha de deposito', 'distinta di versamento', 'stortingsbewijs'],
  // An event's or a conference's programme ("PROGRAMA", "Tagungsprogramm").
  programme: ['programme', 'program', 'programm', 'programa', 'programma', 'event programme', 'conference programme', 'tagungsprogramm', 'programmheft'],
  timetable: ['timetable', 'schedule', 'fahrplan', 'horaire', 'horarios', 'orario', 'dienstregeling', 'tidtabell', 'koreplan', 'rozklad jazdy'],
};

/** Kinds a document of commerce may print as its own title; any other title says it is neither. */
export const BILLING_KINDS = new Set(['invoice', 'receipt']);

/** First words that make a title word a reference to another paper ("Your order", "Enc. Invoice", "Re: Quote"). */
const REFERENCE = new Set(['your', 'our', 'ihre', 'ihr', 'ihrer', 'unsere', 'unser', 'votre', 'notre', 'vos', 'nos', 'su', 'sus', 'nuestro', 'vostro', 'vostra', 'uw', 'onze', 're', 'ref', 'betreff', 'objet', 'oggetto', 'asunto', 'enc', 'encl', 'attached', 'anlage', 'pj', 'see', 'per', 'gemaess', 'laut', 'selon', 'as', 'please', 'bitte', 'veuillez']);
/** Words after a title word that make it a label ("Invoice address", "Bestellung vom"): the paper is named, not titled. */
const LABEL_AFTER = new Set(['address', 'adresse', 'anschrift', 'to', 'an', 'date', 'datum', 'fecha', 'data', 'details', 'terms', 'period', 'vom', 'du', 'del', 'from', 'reference', 'ref']);
const NUMBER_WORDS = new Set(['no', 'nr', 'number', 'nummer', 'numero', 'num', 'nro', 'n°', '#', 'id']);
/** Lines of the first page searched for a title, and how far down it. */
const TITLE_LINES = 12;
const TITLE_DEPTH = 0.5;
const TITLE_TOP = 0.3;
const MAX_TITLE_WORDS = 8;
/** Words a title may have before its kind's word ("MASTER SERVICES AGREEMENT", "WEEKLY TIMESHEET") when printed as a title. */
const MAX_QUALIFIERS = 3;

const SALUTATION = /^(dear|sehr geehrte|liebe|madame|monsieur|chere?|estimad[oa]s?|gentile|egregio|geachte|beste)\b/;
const CLOSING = /\b(yours sincerely|yours faithfully|yours truly|sincerely|kind regards|best regards|warm regards|mit freundlichen gruessen|freundliche gruesse|mit besten gruessen|hochachtungsvoll|cordialement|veuillez agreer|salutations distinguees|sentiments distingues|meilleures salutations|atentamente|saludos cordiales|cordialmente|cordiali saluti|distinti saluti|met vriendelijke groet|vriendelijke groeten|med vanlig halsning|med vaenlig haelsning|med venlig hilsen|med vennlig hilsen)\b/;

/** A German or Dutch compound ending in a long title word ("Mietrechnung", "Sammellieferschein", "Kaufvertrag") titles its kind. */
const compoundOf = (token: string | undefined, word: string): boolean => token !== undefined && word.length >= 6 && token.length > word.length + 2 && token.endsWith(word);

/** A title as folded ("bestellbestaetigung") and as OCR reads umlauts without their dots ("Bestellbestatigung"). */
const spellings = (title: string): string[] => [...new Set([title, title.replace(/(?<=[a-z])([aou])e/g, '$1')])];
const TITLES = Object.entries(DOCUMENT_TITLES).flatMap(([kind, titles]) => titles.flatMap(spellings).map((t) => ({ kind, words: t.split(' ') })));

/**
 * The kinds the text titles: the longest title words at its start, or after a few qualifiers when it is
 * printed as a title (capitals, a larger size); not a reference ("Your order") nor a label ("Purchase
 * Order: 4500123", "Invoice address", "Bill of Lading No: 88").
 */
function titledIn(text: string, prominent: boolean, whole = false): string[] {
  const kinds: string[] = [];
  // A subject line ("Objet : Relance - facture n° FV-2024-0877") names the papers it is about: it titles none.
  // "Your order" names another paper; "Your (credit card) statement", "Your car insurance renewal" is how such a paper titles itself.
  const yours = (tokens: string[]) => REFERENCE.has(tokens[0] ?? '') && !['statement', 'renewal'].includes(tokens.at(-1) ?? '');
  if (yours(foldTokens(text))) return kinds;
  // "STRAIGHT BILL OF LADING – SHORT FORM", "Minutes – Finance Committee": the title is one side of a dash.
  for (const part of text.split(/\s[–—-]\s/)) {
    const tokens = foldTokens(part);
    if (tokens.length === 0 || tokens.length > MAX_TITLE_WORDS || yours(tokens)) continue;
    const colonAt = part.includes(':') ? foldTokens(part.slice(0, part.indexOf(':'))).length : -1;
    const capitals = part === part.toUpperCase();
    // "Your statement": the title follows the word that addresses the reader.
    const from = REFERENCE.has(tokens[0]) ? 1 : 0;
    for (let i = from; i <= from + (prominent || capitals ? MAX_QUALIFIERS : 0); i++) {
      const t = TITLES.filter((t) => t.words.every((w, k) => tokens[i + k] === w || (t.words.length === 1 && compoundOf(tokens[i + k], w)))).sort(
        (a, b) => b.words.length - a.words.length,
      )[0];
      if (!t) continue;
      const end = i + t.words.length;
      const after = tokens[end];
      const label = colonAt === end || (colonAt === end + 1 && NUMBER_WORDS.has(after)) || (after !== undefined && LABEL_AFTER.has(after));
      // After qualifiers the kind ends the title, or a number follows it ("WEEKLY TIMESHEET", "COMMERCIAL INVOICE No. 5"):
      // "What every invoice must show" is a heading about invoices.
      const ends = i === from || tokens.slice(end).every((w) => NUMBER_WORDS.has(w) || /\d/.test(w));
      if (!label && ends && (!whole || end === tokens.length)) kinds.push(t.kind);
      break;
    }
  }
  return kinds;
}

/** A line with money is an item, not a title. */
const withMoney = (l: Line): boolean => /\d[.,]\d{2}(?!\d)/.test(l.text);
/** A row of several short phrases without figures may be a table's heading ("Purchase Order  Terms  Due"): a title there is all its phrase holds. */
const headingLike = (l: Line): boolean => l.phrases.length >= 3 && !/\d/.test(l.text);

/**
 * The kinds of document the first page titles itself: phrases near its top (a title wrapped over two
 * lines read together), and "letter" for a salutation with a closing.
 */
export function documentKinds(lines: Line[]): Set<string> {
  const first = lines.filter((l) => l.page === lines[0]?.page);
  const kinds = new Set<string>();
  const heights = first.map((l) => l.height).sort((a, b) => a - b);
  const medianHeight = heights[Math.floor(heights.length / 2)] ?? 0;
  // The first lines in reading order, and any line near the top (a title in a right-hand column is read after the left one).
  const top = first.filter((l, i) => (i < TITLE_LINES || l.y0 <= TITLE_TOP * l.pageHeight) && l.y0 <= TITLE_DEPTH * l.pageHeight && !withMoney(l));
  for (const [i, l] of top.entries()) {
    l.phrases.forEach((p, k) => {
      // A letter-spaced title read as phrases of a word each ("BON | DE | LIVRAISON"): the phrase with the
      // rest of its line; a title wrapped over two lines ("COMMERCIAL CREDIT" / "APPLICATION"): with the
      // phrase under it at its left edge (not under a line with figures: a place and date over a subject
      // line is no title). The longest reading that titles a kind counts.
      const under = /\d/.test(p.text) ? undefined : top[i + 1]?.phrases.find((q) => Math.abs(q.x0 - p.x0) < l.height && top[i + 1].y0 - l.y1 < l.height);
      const rest = l.phrases.slice(k).map((q) => q.text).join(' ');
      const prominent = Math.max(...p.words.map((w) => w.y1 - w.y0)) >= 1.2 * medianHeight;
      const last = k === l.phrases.length - 1;
      // "Bestellung | : B123456789": a label whose colon the reader put in the next phrase.
      if (!last && /^\s*:/.test(l.phrases[k + 1].text)) return;
      // On a heading-like row only a reading to the row's end: "Purchase Order | Customer ID | Terms" titles nothing.
      const readings = headingLike(l) ? [rest] : [...(last ? [] : [rest]), ...(under ? [`${p.text} ${under.text}`] : []), p.text];
      for (const text of readings) {
        const found = titledIn(text, prominent, headingLike(l));
        found.forEach((kind) => kinds.add(kind));
        if (found.length) break;
      }
    });
  }
  const folded = first.map((l) => foldTokens(l.text).join(' '));
  if (folded.some((t) => SALUTATION.test(t)) && folded.some((t) => CLOSING.test(t))) kinds.add('letter');
  const text = folded.join(' ');
  const told = Object.entries(TELLTALES).filter(([, telltale]) => telltale.test(text));
  // What a telltale says outweighs a title word such a paper also prints ("Receipts attached").
  if (told.length) for (const kind of BILLING_KINDS) kinds.delete(kind);
  for (const [kind] of told) kinds.add(kind);
  return kinds;
}

/**
 * Words that tell a kind of paper wherever they stand on its first page, not only in its title: no invoice
 * or receipt prints them (folded text: "pay to the order of" on a cheque, a cash machine's "balance
 * enquiry", an employee's "expense claim" listing the receipts it claims, a card statement's minimum
 * payment beside its credit limit).
 */
const TELLTALES: Record<string, RegExp> = {
  cheque: /\bpay\s?to\s?the\b.{0,120}?\border of\b/,
  'bank slip': /\b(?:balance (?:enquiry|inquiry)|pertanyaan baki)\b/,
  'expense report': /\bexpense (?:claim|report)\b/,
  // An offer that says how long it holds ("This quotation is valid for 30 days", "Penawaran ini berlaku 30 hari").
  quotation:
    /\b(?:this (?:quote|quotation|offer|estimate|proposal) is valid|(?:quote|quotation|offer|estimate) valid (?:for|until)|penawaran ini berlaku|(?:dieses )?angebot (?:ist )?(?:gueltig|gilt)|(?:offre|devis) valable|(?:presupuesto|oferta|cotizacion) valid[oa]|(?:offerta|preventivo) valid[oa]|offerte (?:is )?geldig|teklif gecerli)\b/,
  // A card's statement asks for a minimum payment against a credit limit; no bill offers to take less.
  'bank statement': /^(?=.*\b(?:minimum (?:payment|amount)|mindestbetrag|mindestzahlung|paiement minimum|pago minimo|pagamento minimo|minimale betaling)\b)(?=.*\b(?:credit limit|available credit|kreditrahmen|verfuegungsrahmen|limite de credit|limite de credito|limite di credito|kredietlimiet)\b)/,
};
