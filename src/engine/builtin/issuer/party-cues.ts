// Which party of a document a field asks for (the seller who issues it, the buyer it is billed to, or
// where the goods go), and the printed cues of each party's block ("Sold by:", "Bill To", "Kunde",
// "Lieferadresse"), in English, German, French, Spanish, Italian and Dutch.
import type { Line, Phrase } from '../../layout/lines.js';
import { withSplitForm } from './legal-forms.js';

export type Party = 'seller' | 'buyer' | 'ship_to';

export interface PartyAsk {
  party: Party;
  /** The party's name, or its address block. */
  part: 'name' | 'address';
}

/** Words of a field's name or description that name a party; two-word names are joined ("bill to" -> billto). */
const PARTY_WORDS: Record<Party, Set<string>> = {
  ship_to: new Set(['ship', 'shipping', 'shipto', 'delivery', 'deliver', 'consignee', 'lieferadresse', 'lieferanschrift', 'warenempfänger', 'livraison']),
  buyer: new Set(['customer', 'buyer', 'client', 'billto', 'billing', 'billed', 'purchaser', 'payer', 'soldto', 'invoicee', 'recipient', 'debtor', 'receivedfrom', 'kunde', 'käufer', 'rechnungsempfänger', 'acheteur', 'cliente', 'klant', 'kund', 'asiakas', 'nabywca']),
  seller: new Set(['vendor', 'seller', 'supplier', 'company', 'merchant', 'issuer', 'store', 'shop', 'business', 'restaurant', 'biller', 'payee', 'provider', 'sender', 'soldby', 'billfrom', 'from', 'creditor', 'lieferant', 'verkäufer', 'fournisseur', 'vendeur']),
};
/** Seller words that also say "a company" in general: the description may name the party instead ("company" of the customer). */
const GENERIC_SELLER = new Set(['company', 'business']);
const ADDRESS_WORDS = new Set(['address', 'addr', 'adresse', 'anschrift', 'location']);
/** Other words a party's name or address field may carry ("vendor_name", "legal_name"). */
const NEUTRAL_WORDS = new Set(['name', 'legal', 'full', 'registered', 'official', 'party', 'details', 'of', 'the', 'to', 'by', 'bill', 'sold']);

const wordsOf = (text: string): string[] =>
  text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const withPairs = (words: string[]): string[] => [...words, ...words.slice(1).map((w, i) => words[i] + w)];

/** true when a label's tokens name the party ("Customer name", "Kunde"). */
export const labelNamesParty = (tokens: string[], party: Party): boolean => withPairs(tokens).some((t) => PARTY_WORDS[party].has(t));

function partyIn(tokens: string[]): Party | null {
  for (const party of ['ship_to', 'buyer', 'seller'] as const) if (tokens.some((t) => PARTY_WORDS[party].has(t))) return party;
  return null;
}

/**
 * The party a text field asks for, from its name and, when the name is generic ("company", "address"),
 * its description. null: the field is not a party's name or address ("customer_number", "vendor_vat_id").
 */
export function askedParty(field: { name: string; description?: string; type: string }): PartyAsk | null {
  if (field.type !== 'text') return null;
  const words = wordsOf(field.name);
  const known = (t: string) => ADDRESS_WORDS.has(t) || NEUTRAL_WORDS.has(t) || Object.values(PARTY_WORDS).some((s) => s.has(t));
  if (words.length === 0 || !words.every(known)) return null;
  const name = withPairs(words);
  const part = name.some((t) => ADDRESS_WORDS.has(t)) ? 'address' : 'name';
  const fromName = partyIn(name);
  const generic = fromName === null || (fromName === 'seller' && name.every((t) => !PARTY_WORDS.seller.has(t) || GENERIC_SELLER.has(t)));
  const fromDescription = generic ? partyIn(withPairs(wordsOf(field.description ?? ''))) : null;
  const party = fromDescription ?? fromName ?? (part === 'address' ? 'seller' : null);
  return party ? { party, part } : null;
}

/** Printed cues that head a party's block or label its name; single words only with a colon or alone. */
const CUES: Record<Party, string[]> = {
  seller: [
    'sold by', 'bill from', 'billed by', 'issued by', 'invoice from', 'service provider', 'seller', 'supplier', 'vendor', 'issuer',
    'merchant', 'provider', 'payee', 'from', 'verkäufer', 'rechnungssteller', 'lieferant', 'leistungserbringer', 'anbieter', 'absender',
    'vendeur', 'fournisseur', 'émetteur', 'prestataire', 'vendido por', 'proveedor', 'emisor', 'venditore', 'fornitore', 'cedente',
    'verkoper', 'leverancier', 'sprzedawca', 'myyjä', 'säljare', 'leverandør', 'dodavatel', 'dodávateľ', 'furnizor', 'eladó', 'verkauft von', 'vendu par', 'remit to',
    // Brazil's NFS-e: the provider of the services (prestador) and its taker (tomador).
    'prestador', 'prestador de serviços', 'prestador dos serviços',
    // Baltic, Croatian, Slovene, Bulgarian, Turkish, Indonesian, Nordic, Czech/Slovak, Polish and Hungarian sellers and suppliers.
    'pardavėjas', 'pardavejas', 'tiekėjas', 'tiekejas', 'pārdevējs', 'pardevejs', 'piegādātājs', 'piegadatajs', 'müüja', 'muuja', 'tarnija',
    'dobavljač', 'dobavljac', 'prodavatelj', 'izdavatelj', 'dobavitelj', 'prodajalec', 'izdajatelj', 'доставчик', 'продавач', 'satıcı', 'satici',
    'penjual', 'leverantör', 'toimittaja', 'sælger', 'saelger', 'selger', 'fornecedor', 'prodávající', 'predávajúci', 'dostawca', 'szállító',
  ],
  buyer: [
    'bill to', 'billed to', 'billing address', 'invoice to', 'invoiced to', 'sold to', 'customer', 'client', 'buyer', 'purchaser',
    'recipient', 'payer', 'to', 'kunde', 'rechnungsempfänger', 'rechnungsadresse', 'käufer', 'auftraggeber', 'leistungsempfänger',
    'empfänger', 'acheteur', 'facturé à', 'facturer à', 'adresse de facturation', 'destinataire', 'cliente', 'comprador', 'acquirente',
    'committente', 'koper', 'klant', 'odběratel', 'odberateľ', 'cumpărător', 'beneficiar', 'vevő', 'factuur aan', 'spett.le', 'destinatario', 'kund', 'asiakas', 'nabywca', 'faktureres til',
    'fakturamottaker', 'fakturaadress', 'facturar a', 'facturado a', 'faturar a', 'faturado a', 'fatturare a', 'fatturato a', 'tomador',
    'tomador de serviços', 'tomador dos serviços',
    'pirkėjas', 'pirkejas', 'gavėjas', 'pircējs', 'pircejs', 'ostja', 'kupac', 'kupec', 'получател', 'купувач', 'alıcı', 'alici', 'pembeli',
    'køber', 'kjøper', 'köpare', 'ostaja', 'kupující', 'kupujúci', 'odbiorca',
    // Labels of the buyer's name: a subscriber or guest is who is billed. Not "account holder" (Kontoinhaber,
    // titulaire): in the bank details it names the seller's account.
    'customer name', 'client name', 'subscriber', 'guest name', 'kundenname', 'nom du client', "nom de l'abonné", 'abonné', 'nombre del cliente',
    // A receipt for money received names its payer so: "Received from Mr. Lukas Brandt".
    'received from', 'received with thanks from', 'erhalten von', 'reçu de', 'recibí de', 'recibimos de', 'ricevuto da', 'recebemos de',
    // ... and a donation receipt its donor.
    'donor', 'donateur', 'spender', 'donante', 'doador',
  ],
  ship_to: [
    'ship to', 'shipped to', 'deliver to', 'delivered to', 'delivery address', 'shipping address', 'delivery to', 'consignee',
    'lieferadresse', 'lieferanschrift', 'warenempfänger', 'adresse de livraison', 'livraison', 'livré à', 'livrer à', 'envío a',
    'enviar a', 'spedire a', 'destinazione', 'afleveradres',
  ],
};
/** Words too common to be a cue without a colon after them ("from 1 May", "to be paid"). */
const COLON_ONLY = new Set(['from', 'to', 'client', 'customer']);

/** A cue as printed and without its accents and umlauts, as OCR often reads them ("Rechnungsempfanger"). */
const spellings = (cue: string): string[] => [...new Set([cue, cue.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')])];

const CUE_PATTERNS = (Object.entries(CUES) as [Party, string[]][]).flatMap(([party, cues]) =>
  cues.flatMap(spellings).map((cue) => ({
    party,
    single: !cue.includes(' '),
    colonOnly: COLON_ONLY.has(cue),
    re: new RegExp(`^\\W{0,2}${cue.replace(/\s+/g, '[\\s-]*')}(?![\\p{L}\\p{N}])\\s*(:)?\\s*(.*)$`, 'iu'),
  })),
);

export interface Cue {
  party: Party;
  line: Line;
  phrase: Phrase;
  /** The name printed after the cue on its phrase ("Sold by: ACME Ltd"), or null for a heading. */
  inline: string | null;
  /** A receipt's thanks or welcome: it may name the shop's brand or mall, so the letterhead's legal name outranks it. */
  thanks?: boolean;
}

/** A phrase that starts with a party cue, and what follows it. */
export function cueOf(phraseText: string): { party: Party; inline: string | null } | null {
  // OCR reads Slovak ľ as l’ ("Dodavatel’:"): an apostrophe before the colon is that letter's caron.
  const text = phraseText.trim().replace(/[’‘`´]/g, "'").replace(/(?<=\p{L})'(?=\s*:)/u, '');
  // A heading in two languages at once ("Aan / À", "Van / De"): the words of a sender or recipient pair.
  const bilingual = text.toLowerCase().replace(/:$/, '').split(/\s*\/\s*/);
  if (bilingual.length >= 2) {
    if (bilingual.every((w) => PAIRED_HEADINGS.some(([, to]) => to === w))) return { party: 'buyer', inline: null };
    if (bilingual.every((w) => PAIRED_HEADINGS.some(([from]) => from === w))) return { party: 'seller', inline: null };
  }
  for (const p of CUE_PATTERNS) {
    const m = p.re.exec(text);
    if (!m) continue;
    const colon = m[1] !== undefined;
    // "Bill to Address:" is a heading too: the rest is a label of its own.
    const rest = /^[\p{L} .]{1,25}:$/u.test(m[2].trim()) ? '' : m[2].trim();
    // ... unless it heads a block alone, in capitals ("CLIENT" over the buyer's name beside "ÉMETTEUR").
    const heading = rest === '' && /^\W{0,2}\p{Lu}{6,}\W{0,2}$/u.test(text);
    if (p.colonOnly && !colon && !heading) continue;
    // "Customer No: 12" or "Supplier portal" is not the cue of a block.
    if (!colon && rest !== '' && p.single) continue;
    return { party: p.party, inline: rest === '' ? null : rest };
  }
  return null;
}

/**
 * Who a payment goes to names the seller, wherever the words stand in a phrase ("All payments to be made
 * in favour of", "Cheques payable to ACME Ltd", "Payment received by ACME"). "Received by" alone is not
 * one: on a delivery note it is the buyer's signatory.
 */
const PAYEE = /\b(?:payment\s+received\s+by|payable\s+to|in\s+favou?r\s+of|à\s+l'ordre\s+de|zugunsten(?:\s+(?:von|der|des))?)(?![\p{L}\p{N}])\s*:?\s*(.*)$/iu;

/** A phrase naming the payee, and the name after the words (null: the name heads the block under it). */
export function payeeOf(phraseText: string): { party: Party; inline: string | null } | null {
  const m = PAYEE.exec(phraseText.trim().replace(/[’‘`´]/g, "'"));
  if (!m) return null;
  return { party: 'seller', inline: m[1].trim() === '' ? null : m[1].trim() };
}

/**
 * A receipt's thanks or welcome names the shop ("Thanks for shopping at ACME Market", "Vielen Dank für
 * Ihren Einkauf bei ACME", "Merci de votre visite chez ACME", "Welcome to ACME"): the name follows,
 * capitalised ("… shopping with us" names nobody).
 */
const SHOP_THANKS =
  /(?:\bfor\s+(?:shopping|dining|visiting|choosing|staying)(?:\s+(?:at|with|in))?|\bwelcome\s+to|\bf(?:ü|ue)r\s+ihren\s+(?:einkauf|besuch)\s+(?:bei|im|in\s+der|in)|\bvotre\s+visite\s+(?:chez|à))\s+(?!(?:(?:at|with|in)\s+)?(?:us|our|unser\w*|uns|nous|notre)\b)(\p{Lu}.*)$/iu;

/**
 * A phrase thanking for (or welcoming to) a visit of the shop it names, and that name; the name may
 * be printed on the next line ("Thank you for visiting" / "Clachan").
 */
export function shopThanksOf(phraseText: string, nextLine = ''): { party: Party; inline: string; thanks: true } | null {
  const text = phraseText.trim().replace(/[’‘`´]/g, "'");
  const next = nextLine.trim();
  const m = SHOP_THANKS.exec(text) ?? (next.split(/\s+/).length <= 5 ? SHOP_THANKS.exec(`${text} ${next}`) : null);
  const name = m?.[1].replace(/[\s!.]+$/u, '');
  return name ? { party: 'seller', inline: name, thanks: true } : null;
}

/**
 * The heading of a remittance slip, the part returned with the payment ("PAYMENT ADVICE", "Remittance
 * slip", "Please detach and return with your payment"): its "To:" names who is paid, the seller.
 */
const REMITTANCE_HEADING =
  /\b(?:payment|remittance)\s+(?:advice|slip|stub|coupon|counterfoil)\b|\b(?:detach|return)\b.{0,40}\bwith\s+(?:your\s+)?(?:payment|remittance)\b|\bavis\s+de\s+paiement\b|\bzahlungsavis\b/i;
/** Lines above a cue that a remittance heading may stand on. */
const REMITTANCE_REACH = 4;

/**
 * Headings of two blocks side by side, sender then recipient, that are cues only as a pair: "From" and
 * "To" (without colons), "Van"/"Aan", "Von"/"An", "Da"/"A", "De"/"Para", "Od"/"Do", "Från"/"Till".
 */
const PAIRED_HEADINGS: [string, string][] = [['from', 'to'], ['van', 'aan'], ['von', 'an'], ['de', 'à'], ['da', 'a'], ['de', 'para'], ['od', 'do'], ['från', 'till'], ['fra', 'til']];

function pairedCues(line: Line): Cue[] {
  const words = line.phrases.map((p) => p.text.trim().replace(/\s*:$/, '').toLowerCase());
  for (const [from, to] of PAIRED_HEADINGS) {
    const i = words.indexOf(from);
    const j = words.indexOf(to, i + 1);
    if (i >= 0 && j > i) return [{ party: 'seller', inline: null, line, phrase: line.phrases[i] }, { party: 'buyer', inline: null, line, phrase: line.phrases[j] }];
  }
  return [];
}

/** Words of a taxi's or a ride's receipt. */
const RIDE_WORDS = /\b(?:taxi|cab|trip|ride|fare|tariff|distance|pick-?up|drop-?off|driver)\b/i;
/** A "From:" line with "To:" right under it, or a "To:" line right under "From:", on a ride's receipt. */
export function rideLeg(lines: Line[], i: number): boolean {
  const leg = (l: Line | undefined, word: string) => l !== undefined && l.page === lines[i].page && new RegExp(`^\\W{0,2}${word}\\s*:`, 'i').test(l.text.trim());
  const pair = (leg(lines[i], 'from') && leg(lines[i + 1], 'to')) || (leg(lines[i], 'to') && leg(lines[i - 1], 'from'));
  return pair && lines.some((l) => l.page === lines[i].page && RIDE_WORDS.test(l.text));
}

export function findCues(lines: Line[]): Cue[] {
  const out: Cue[] = [];
  for (const [i, line] of lines.entries()) {
    const paired = pairedCues(line);
    if (paired.length) {
      out.push(...paired);
      continue;
    }
    for (const phrase of line.phrases) {
      const below = lines[i + 1]?.page === line.page && phrase === line.phrases.at(-1) ? lines[i + 1].text : '';
      let c = cueOf(phrase.text) ?? payeeOf(phrase.text) ?? shopThanksOf(phrase.text, below);
      if (!c) continue;
      const slip = lines.slice(Math.max(0, i - REMITTANCE_REACH), i + 1).some((l) => l.page === line.page && REMITTANCE_HEADING.test(l.text));
      if (c.party === 'buyer' && /^\W{0,2}to\b/i.test(phrase.text.trim()) && slip) c = { ...c, party: 'seller' };
      // A ride's "From: Sydney Airport T1" over "To: Crown St": where it began and ended, no parties.
      if (/^\W{0,2}(?:from|to)\s*:/i.test(phrase.text.trim()) && rideLeg(lines, i)) continue;
      // "Vendeur: | Tom": a cue ending in a colon names what follows close after it on its line, not
      // the line below (text further right is another column).
      const next = line.phrases[line.phrases.indexOf(phrase) + 1];
      const close = next && next.x0 - phrase.x1 < 3 * line.height && !cueOf(next.text);
      const inline = c.inline ?? (/:\s*$/.test(phrase.text) && close ? next.text.trim() : null);
      out.push({ ...c, inline, line, phrase });
    }
  }
  return out;
}

export interface BlockLine {
  line: Line;
  /** The phrases of the line inside the block's column. */
  phrases: Phrase[];
  text: string;
}

/**
 * The lines of a cue's block: below it (its own line first when the name follows the cue), in its
 * column (phrases that start within the cue phrase's span), up to a wide gap or another cue.
 */
export function blockOf(lines: Line[], cue: Cue, maxLines = 7): BlockLine[] {
  const h = cue.line.height;
  const x0 = cue.phrase.x0 - 2 * h;
  const x1 = Math.max(cue.phrase.x1, cue.phrase.x0 + 6 * h) + h;
  const out: BlockLine[] = [];
  let bottom = cue.line.y1;
  for (const line of lines) {
    if (line.page !== cue.line.page || line.index <= cue.line.index) continue;
    if (line.y0 - bottom > 2.5 * Math.max(h, line.height)) break;
    const phrases = line.phrases.filter((p) => p.x0 >= x0 && p.x0 <= x1);
    if (phrases.length === 0) continue;
    // A legal form split off its name by a wide space, as monospaced print and OCR set it ("Wistomar Technika Sp." | "z o.o.").
    const last = phrases[phrases.length - 1];
    if (withSplitForm(line, last) !== last.text) phrases.push(line.phrases[line.phrases.indexOf(last) + 1]);
    if (phrases.some((p) => cueOf(p.text))) break;
    out.push({ line, phrases, text: phrases.map((p) => p.text).join(' ') });
    bottom = line.y1;
    if (out.length >= maxLines) break;
  }
  return out;
}
