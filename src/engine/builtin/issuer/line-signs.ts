// Signs of what a printed line is, for telling a party's name from its address, its registration
// numbers and the document's own words (English, German, French, Malay, the commonest Spanish, Italian,
// Portuguese, Dutch and Nordic ones, and general forms).
import type { Line } from '../../layout/lines.js';

export const NOT_A_NAME =
  /\b(tax|page|seite|date|datum|tel|phone|fax|email|e-mail|www|http|no\.?|nr\.?|gst|vat|reg|siret|siren|iban|swift|bic|kassenbon|beleg|table|cashier|kassa|kasa|blagajna|thank|thanks|merci|danke|vielen|welcome|visit|visite|scontrino|ricevuta|kvitto|kvittering|kassabon)\b|documento\s+commerciale|invoice|rechnung|facture|factura|fattura|fatura|factuur|faktur|penjualan|receipt|quittung|фактура|счет|τιμολ/iu;
/** Where an address ends: contact, tax and document lines (document words also glued by OCR: "TAXINVOICE"). */
export const ADDRESS_STOP =
  /\b(tel|tél|phone|ph|mob|mobile|hp|fax|e-?mail|www|http|gst|gstid|gstin|hst|pst|qst|fssai|cin|lic|vat|vatreg|tax|telp|tin|npwp|rfc|dič|ičo|reg|inh|inhaber|date|datum|cashier|table|document|documento|(?<!(?:cad|caddesi|sok|sokak|sk)\.?\s?)no\s*:|steuer\p{L}*|st\s?\.?\s?-?\s?nr|ust|ust-?id\p{L}*|uid|mwst|tva|siret|siren|iban|bic|nif|cif|nipc?|kvk|btw|p\.?\s?iva|c\.?\s?f|abn|org\.?\s?nr|cvr|cnpj|tlf|tlfn|telf|öffnungszeiten|offnungszeiten|opening\s+hours|open\s+daily|horaires?|horario|orari|openingstijden|öppettider|åbningstider|godziny\s+otwarcia|cliente?|customer|kunde|klant|bill\s+of\s+supply|quittung|ticket|beleg|kassenbon|tid\s*:|mid\s*:|mgr|puh|y-tunnus|kassa|myyjä|myyja|a\.?f\.?m|d\.?o\.?y|pos\s?\d+|v\.\s?d\.?\s*\d{6,}|vergi|vkn|mersis|kmkr|pvn|pvm|oib|ddv|cui|eik|kt|kennitala|iva)(?![\p{L}\p{N}])|\bcashier|\b(?:store|st)\s*#\s*\d|@|(?<![\p{L}\p{N}])\+\d{2}|invoice|receipt|rechnung|facture|factura|fattura|fatura|factuur|faktura|recibo|ricevuta|scontrino|boleta|reçu|kvitto|kvittering|kuitti|nyugta/iu;
/** General street and area words of addresses (English, German, French, Malay, Spanish, Italian). */
const STREET_WORDS =
  /(?<![\p{L}\p{N}])(street|road|avenue|ave|blvd|boulevard|lane|drive|suite|floor|flr|level|lot|unit|block|blk|building|bldg|plaza|highway|hwy|jalan|jln|jl|lorong|lrg|taman|tmn|kawasan|bandar|persiaran|soi|thanon|brgy|barangay|strasse|straße|strabe|str|weg|platz|allee|gasse|rue|chemin|route|autoroute|quai|via|viale|piazza|corso|strada|calle|avenida|avda|av|colonia|paseo|carrer|carretera|rua|praça|praca|calçada|calcada|travessa|largo|estrada|ul|ulica|aleja|ulice|náměstí|namesti|třída|trida|utca|út|tér|körút|cad|caddesi|sok|sokak|mah|mahallesi|bulvarı|bulvari|tänav|tanav|tn|maantee|mnt|plats|puiestee|iela|prospekts|bulvāris|bulvaris|gatvė|gatve|cesta|trg|strada|bulevardul|calea|bul)(?![\p{L}\p{N}])/iu;
/** One word that is a street or area word ("LOT", "Jalan"). */
const STREET_WORD_ALONE = new RegExp(`^(?:${STREET_WORDS.source})$`, 'iu');
export const isStreetWord = (word: string): boolean => STREET_WORD_ALONE.test(word);
/** The same, with the spaces OCR may drop: "NO.53JALANPUTRA 1,", "81200JOHORBAHRU". */
const GLUED_ADDRESS = /jalan|taman|lorong|kawasan|persiaran|strasse|straße|strabe|street|avenue|boulevard|(?<!\d)\d{5}(?=\p{Lu}{3})/iu;
/** A street name compounded with its street word, then the house number ("Muensterplatz 21", "Industriestr. 25"). */
const COMPOUND_STREET = /\p{L}{2,}(?:(?:straße|strasse|strabe|str\.|platz|weg|gasse|allee|damm|ufer|ring|markt|straat|laan|gracht|plein|kade|dijk|singel|gatan|gata|vägen|väg|vej|veien|vegen|gate|gade|torget|torv|katu|tie|stræti|straeti|gata|vegur)\s+|str\.)\d+\s?\p{L}?\b/iu;
/** A street, a comma and its house number, as southern Europe prints them ("Via Garibaldi, 21", "C/ Mayor,14"). */
const STREET_COMMA_NUMBER = /^\p{L}[\p{L}.'’/ -]{1,40},\s?\d{1,4}\s?[a-zA-Z]?$/u;
/** Postcodes beyond the plain four or five digits: "111 22" (SE), "3542 AD" (NL), "1100-053" (PT), "00-950" (PL), "SE1 9XX" (UK). */
const POSTCODE = /\b\d{3}\s\d{2}\b|\b\d{4}\s?[A-Z]{2}\b|\b\d{4}-\d{3}\b|\b\d{2}-\d{3}\b|\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b|\b[A-Z]\d[\dW]\s?(?=[A-Z\d]{4}\b)(?=[A-Z\d]{0,3}[A-Z])[A-Z\d]{4}\b/;
/** A postcode that no business name holds: the UK's "SE1 9XX", Ireland's Eircode "P17 XK23". */
export const hasLetteredPostcode = (text: string): boolean => /\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b|\b[A-Z]\d[\dW]\s?(?=[A-Z\d]{4}\b)(?=[A-Z\d]{0,3}[A-Z])[A-Z\d]{4}\b/.test(text);

/** A town and a six-digit postcode: "PUNE - 411001" (IN), "SINGAPORE 300849". */
const TOWN_POSTCODE6 = /\p{L}{3,}\s?[-–]?\s?\d{6}(?!\d)/u;

/** A line that reads as part of an address: a house number first (also "Shop 16,", "Shop No. 22"), a postcode, or a street word. */
/** A street named without its number, in title case ("Castle Way", "Harbour Road"), on a line of its own. */
const NUMBERLESS_STREET = /^(?:\p{Lu}[\p{L}'’-]*\s+){1,3}(?:Street|Road|Avenue|Boulevard|Drive|Lane|Highway|Way|Terrace|Crescent|Close|Parade|Mews|Grove)$/u;
export const addressLike = (text: string): boolean =>
  /^\W*\d+\w?\b|^\W*(?:no|nr|lot|plot|unit|shop|kiosk|stall|suite|flat|door|sector)\.?\s*(?:no\.?\s*)?\d|^\W*[A-Z]{0,3}\d[\w-]*,/i.test(text) ||
  // OCR ran the house number, the street and its type together: "99BrunswickSt", "12HighRd".
  /^\W*\d{1,4}\p{Lu}\p{Ll}{2,}\p{Lu}\p{Ll}{0,3}\.?(?:\s|,|$)/u.test(text) ||
  // ... or the house number and the street's first word: "3Kings Parade".
  /^\W*\d{1,4}\p{Lu}\p{Ll}{2,}\s+\p{Lu}\p{Ll}{2,}/u.test(text) ||
  /(?<!#\s?)\b\d{4,5}\b/.test(text) ||
  // A shop's unit in a mall, after the mall's name: "Musgrave Centre Shop 208".
  /\b(?:shop|unit|kiosk|stall)\s+(?:no\.?\s*)?\d+[A-Z]?$/i.test(text) ||
  POSTCODE.test(text) ||
  TOWN_POSTCODE6.test(text) ||
  STREET_WORDS.test(text) ||
  GLUED_ADDRESS.test(text) ||
  COMPOUND_STREET.test(text) ||
  STREET_COMMA_NUMBER.test(text.trim()) ||
  NUMBERLESS_STREET.test(text.trim()) ||
  // A road and its kilometre ("S.S. 16 Adriatica km 214", "Carretera N-340, km 12"), as Italy and Iberia give roadside addresses.
  /(?<![\p{L}\p{N}])km\.?\s?\d{1,4}(?:[.,]\d{1,3})?(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])S\.\s?[SP]\.\s?\d/iu.test(text) ||
  /(?:^|\s)C\/\s?\p{Lu}/u.test(text) ||
  // A post box ("PO Box 455", OCR's "P.0. BOX", "Postbus 1234", "B.P. 12", "Apartado 45", "Casilla 112").
  /^\W*(?:p\.?\s?[o0]\.?\s?box|post\s?office\s+box|postbus|postfach|postboks|boîte\s+postale|b\.p\.|apartado|casilla|caixa\s+postal)\s*\d/iu.test(text) ||
  // A floor of a building as Hong Kong, the Philippines and Singapore write it ("G/F Robinsons Place", "12/F"), or a street corner ("Pedro Gil cor. Adriatico St.").
  /(?:^|\s)(?:[UL]?G|\d{1,2})\/F(?![\p{L}\p{N}])|\bcor\.\s+\p{Lu}/u.test(text);

/**
 * A house number, then a street name ending in its street type ("4381 MARKET ST", "69 King William Rd"),
 * or a shop or unit number first ("Shop 16, 69 King William St", "Unit 4B"): an address, whatever
 * trade its words name.
 */
export const streetAddress = (text: string): boolean =>
  /^\W*\d+[A-Z]?,?\s+(?:\p{L}+\.?\s+){1,4}(?:st|street|rd|road|ave|avenue|blvd|dr|drive|ln|lane|hwy|pkwy|way|ct|court|pl|place|sq|square|terrace|crescent|close|parade|gardens|mews|circle|grove|row|walk|green)\.?,?$/iu.test(text.trim()) ||
  NUMBERLESS_STREET.test(text.trim()) ||
  /^\W*(?:shop|unit|suite|kiosk|stall)\.?\s*(?:no\.?\s*)?\d+\w?\b/i.test(text);

/** A shop's founding year under its name, alone or ending a slogan ("Since 1987", "Seit 1952", "Family Italian Kitchen since 1987"): not its address. */
export const FOUNDED = /^\W*(?:[\p{L}'’&,. -]*\s)?(?:since|est\.?|estd\.?|established|founded|seit|gegr\.?|gegründet|depuis|desde|dal|dall'|sinds|sedan|siden|od)\s*\d{4}\W*$/iu;

/** Lines under a name that carry its registration or tax number, not its address: "(123456-X)", "Company No: 12345-A", "GST ID: 0012". */
export const REGISTRATION_LINE =
  /^[({[][^)}\]]*\d[^)}\]]*[)}\]]?$|\b(company|co|reg|roc|registration|business)\b\.?\s*(no|nr|number)\b|\b(gst|vat|tax|sst)\b.{0,12}\b(no|nr|id|reg)\b|\b(no|nr)\b\W{0,3}[A-Z]{0,4}\d{5,}-?[A-Z]?\W*$/i;
/** Phone numbers: "07-382 2812", "(480) 555-0134", "04 48 70 73 41", "0593804010". */
export const PHONE = /\d{2,4}[-\s]\s?\d{3,4}\s?\d{3,4}|\(\d{3}\)\s?\d{3}-\d{4}|(?<!\d)0\d(?:[\s.]\d{2}){4}(?!\d)|(?<![\d-])0\d{9}(?!\d)/;
/** OCR noise: fewer than three letters or digits. */
export const isJunk = (text: string): boolean => (text.match(/[\p{L}\p{N}]/gu) ?? []).length < 3;
/** A number alone on its line (a tax or registration number without its label). */
export const bareNumber = (text: string): boolean => !/\p{L}{2}/u.test(text) && (text.match(/\d/g) ?? []).length >= 5;

export function meanConf(line: Line): number {
  const cs = line.words.map((w) => w.conf).filter((c): c is number => c !== undefined);
  return cs.length ? cs.reduce((a, b) => a + b, 0) / cs.length : 100;
}

/**
 * Words OCR ran together in a mixed-case line, with a case change or digits inside ("JalanTa7Kaus",
 * "Tampoi20Jhau"): the recogniser lost the line's spacing and, with it, often some of its letters.
 */
export const garbledRead = (text: string): boolean => /\p{Ll}{3}\p{Lu}|\p{Ll}\d+\p{L}/u.test(text);
