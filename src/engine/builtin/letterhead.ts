// The issuer's name from the evidence of the first page: a prominent name near the top (letterhead,
// logo line), a legal form, a tax or registration number and an address under it, a seller cue
// ("Sold by:", "Lieferant"), and not the buyer's block, a table heading, an address, a title or a date.
// Each candidate is scored; the caller takes the best and the margin over the runner-up.
import type { Line, Phrase } from '../layout/lines.js';
import { readByOcr } from '../layout/lines.js';
import type { Word } from '../types.js';
import { findDates } from './parse-date.js';
import { findAmounts } from './parse-amount.js';
import { synonymsOf, tokenize } from './vocabulary.js';
import { cutAtLegalForm, hasLegalForm, hasTradeWord, isLegalFormWord, looksLikeCompany, withoutLegalForm } from './issuer/legal-forms.js';
import { repairNameText } from './issuer/ocr-repair.js';
import { blockOf, cueOf, type BlockLine, type Cue } from './issuer/party-cues.js';
import { ADDRESS_STOP, addressLike, FOUNDED, hasLetteredPostcode, isStreetWord, meanConf, NOT_A_NAME, REGISTRATION_LINE, streetAddress } from './issuer/line-signs.js';
import { isRegisterEntry, OPERATOR_PREFIX, registeredName, withoutLegalMention } from './issuer/legal-register.js';

export interface NameCandidate {
  text: string;
  line: Line;
  score: number;
  /** Horizontal extent of the name, where its address block is looked for. */
  x0: number;
  x1: number;
  /** The name opens the issuer's legal mention (capital, register entry). */
  registered?: boolean;
  /** The name stands under or beside a cue naming its party ("Supplier:", "Dodávateľ:"). */
  cued?: boolean;
}

/**
 * Words of running text, not of names: "Paid through Cash At Hotel", "Please ask for your invoice", and
 * the possessives of other languages' notices ("UNSERE ÖFFNUNGSZEITEN", "Notre équipe vous remercie").
 */
const SENTENCE_WORD =
  /(?:^|\s)(through|please|will|shall|must|should|your|our|you|we|is|are|was|were|be|been|has|have|can|may|if|when|per|paid|received|unser|unsere|ihr|ihre|notre|nos|votre|vos|nuestro|nuestra|nuestros|nostro|nostra|vostro|onze|uw)(?=\s|$)/i;
/** Words of the document's labels (totals, numbers, dates, payment), also in other languages. */
const LABEL_WORDS = new Set([...['number', 'date', 'total', 'quantity', 'price', 'tax', 'phone', 'order', 'currency', 'customer'].flatMap((w) => [...synonymsOf(w)]), 'cash', 'card', 'change', 'payment', 'booking', 'subtotal', 'guest', 'room', 'account']);
/** Section headings and table column words: "Hotel Details", "Payment Information". */
const HEADING_WORD =
  /(?<![\p{L}])(details|summ?ary|information|description|overview|terms|conditions|remarks|notes|particulars|bank|payment|billing|shipping|contact|descripción|descripcion|descrizione|beschreibung|bezeichnung|omschrijving|désignation|designation|descrição|descricao|concepto)(?![\p{L}])/iu;
const DOC_TYPE_WORD =
  /^(tax\s+)?(invoice|rechnung|facture|factura|fattura|fatura|factuur|faktura|receipt|quittung|bill|credit note|gutschrift)\b[\s:]*|[\s:]*\b(tax\s+)?(invoice|rechnung|facture|factura|fattura|fatura|factuur|faktura|receipt|quittung)$/gi;
const SENDER_SEPARATOR = /\s+[-–·•●|]\s+|\s*[·•●|]\s*/;
const OCR_SENDER_SEPARATOR = /\s+[-–·•●|+]\s+|\s*[·•●|]\s*/;
/** A sender line over an address window: a name with a company form or trade word, then address parts. */
const isSenderLine = (l: Line, small = false): boolean => {
  // In small print commas separate the parts too ("Seeland Haustechnik AG, Industriestrasse 27, 6005 Luzern").
  const parts = l.text.split(small ? /\s+[-–·•●|]\s+|\s*[·•●|]\s*|,\s+/ : SENDER_SEPARATOR);
  return parts.length >= 3 && looksLikeCompany(parts[0]) && parts.slice(1).some((p) => addressLike(p));
};

/** The sender's address on a sender line ("ACME GmbH · Main St 1 · 12345 Town" -> "Main St 1, 12345 Town"), else null. */
export function senderLineAddress(l: Line): string | null {
  if (!isSenderLine(l)) return null;
  const parts = l.text.split(SENDER_SEPARATOR).slice(1);
  const end = parts.findIndex((p) => !addressLike(p));
  return (end < 0 ? parts : parts.slice(0, end)).join(', ') || null;
}

/**
 * The recipient's address window under a sender line (letters in the DIN 5008 / C5 window layout):
 * the next five lines in the sender line's column hold the buyer's name and address.
 */
export function recipientWindow(lines: Line[]): Phrase[] {
  const out: Phrase[] = [];
  const heights = lines.map((l) => l.height).sort((a, b) => a - b);
  const body = heights[Math.floor(heights.length / 2)] ?? 0;
  for (const s of lines.filter((l) => isSenderLine(l, l.height < 0.85 * body))) {
    const below = lines.filter((l) => l.page === s.page && l.index > s.index && l.index <= s.index + 5);
    for (const l of below) out.push(...l.phrases.filter((p) => p.x0 < s.x1 && p.x1 > s.x0 && !isSenderLine(l)));
  }
  return out;
}
/**
 * A department after the company's name in a sender block ("ACME Customer Service", "ACME Service
 * Clients"): the company is the issuer, the department only where to write.
 */
const DEPARTMENT =
  /(?:^|\s+[-–]?\s*)(?:customer\s+(?:service|care|support|relations)|billing\s+department|accounts?\s+(?:department|receivable)|service\s+(?:abonnés?|clients?|consommateurs?|facturation|après[\s-]vente)|kundenservice|kundendienst|kundenbetreuung|servicio\s+(?:al\s+)?cliente|servizio\s+clienti|klantenservice)$/iu;
/** Registration numbers printed after a company name: "AEON CO. (M) BHD (126925-H)". */
const TRAILING_REG_NO = /\s*[({[][^)}\]]*\d[^)}\]]*[)}\]]?\s*$/;
/** Tax and company registration numbers of many countries, printed next to or under the issuer's name. */
const TAX_ID =
  /\b(vat|ust-?id\w*|ust\.?\s*-?id\w*|uid|gst\w*|siret|siren|tva|abn|acn|hrb|hra|steuer-?n\w*|tax\s*(id|no|reg)|tin|ein|cif|nif|nip|kvk|btw|p\.?\s*iva|rcs|crn|roc|co\.?\s*reg\w*|company\s*(reg\w*|no)|reg(istration)?\.?\s*no)\b|^\W*\(?\d{5,}-?[A-Z]\)?\W*$/i;

/** The registry number a numbered company is named by, before its place and legal form. */
const NUMBERED_COMPANY = /^\d{3,}(?:-\d{3,})?\s+(?=\p{L})/u;

function letterRatio(text: string): number {
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  return text.length ? letters / text.replace(/\s/g, '').length : 0;
}

/** One capitalised word of five or more characters with a letter and a digit side by side, or a stray mark inside. */
const CODE_WORD = /^(?=\S*(?:\p{L}\d|\d\p{L}|\p{L}[!|?]\p{L}))[^\s\p{Ll}]{5,}$/u;
/**
 * A form of address before a person's name ("Dhr. J. de Vries", "Mrs Jane Roe", "Herrn Max Muster"): the
 * addressee, not the issuer, unless a company's name follows ("Mr D.I.Y. Trading Sdn Bhd").
 */
const HONORIFIC = /^(?:mr|mrs|ms|miss|dhr|mevr|mw|herrn?|frau|mme|mlle|m|sr|sra|srta|sig|sig\.ra|pan|pani)$/;
/** "For the attention of" and its kin in other languages (the Nordic "Att.:"): who the document goes to. */
export const ATTENTION = /^\W*(?:attn\b|att[.:]|attention\b|for\s+the\s+attention|à\s+l['’]attention|a\s+l['’]attention|z\.\s?hd\.?|zu\s+händen|t\.a\.v\.|all['’]attenzione|a\s+la\s+atención|c\/o\b)/iu;
export function addressedPerson(text: string): boolean {
  if (ATTENTION.test(text.replace(/[’‘`´]/g, "'"))) return true;
  const [first, next] = text.split(/\s+/);
  if (!next || !/^\p{Lu}/u.test(next) || looksLikeCompany(text)) return false;
  const word = first.replace(/\.$/, '').toLowerCase();
  // Without its full stop only where the bare form is usual ("Mr John Roe", "Frau Muster"): "M" or "Pan"
  // alone may be a word of a name ("Pan Asia Foods").
  return HONORIFIC.test(word) && (first.endsWith('.') || /^(?:mr|mrs|ms|herrn?|frau|dhr|mevr)$/.test(word));
}

/** A label and its value ("Guest Name: Jane Roe", ": B123" after a spaced colon). */
const LABELLED = /^[^:]{0,25}:\s*\S/;

/** The phrase after a label: its value after a spaced colon, or a date alone. */
function valueFollows(next: string | undefined): boolean {
  if (!next) return false;
  if (next.startsWith(':')) return true;
  const d = findDates(next)[0];
  return !!d && d.start <= 4 && d.end >= next.trimEnd().length - 1;
}

/** A block's row that is a label and its value, the value maybe beyond the block's column ("Nummer" / ": 549910"). */
const labelledRow = (b: BlockLine): boolean => LABELLED.test(b.text) || !!b.line.phrases[b.line.phrases.indexOf(b.phrases[b.phrases.length - 1]) + 1]?.text.startsWith(':');

/** A row of several short phrases without figures: the heading of a table ("Hotel Details  Check In  Rooms"). */
const isTableHeading = (l: Line): boolean => l.phrases.length >= 3 && !/\d/.test(l.text) && l.phrases.every((p) => p.words.length <= 3);

/** How the text of one candidate reads as a party's name, whatever its place on the page. */
export function nameEvidence(text: string, line: Line): number {
  let score = 0.01 * text.split(/\s+/).length;
  if (hasLegalForm(text)) score += 0.5;
  else if (looksLikeCompany(text)) score += 0.4;
  // A web address is contact data, unless a legal form makes it the company's name ("Shopify.com B.V.").
  // A title OCR read letter-spaced ("F ATTUR A") is one too.
  const spaced = text.split(/\s+/).filter((w) => /^\p{L}$/u.test(w)).length >= 2;
  if (NOT_A_NAME.test(text) || (spaced && NOT_A_NAME.test(text.replace(/\s+/g, ''))) || /@/.test(text) || (/\.(com|net|org|de|fr)\b/i.test(text) && !hasLegalForm(text))) score -= 0.6;
  // A code (a BIC "DEUTDEFF500", an article "CF-P1EU"): one word with letters and digits side by side.
  if (CODE_WORD.test(text.trim())) score -= 0.6;
  // A register entry ("RCS de Lyon n° 437 254 427") names the register, not the company.
  if (isRegisterEntry(text)) score -= 0.8;
  if (HEADING_WORD.test(text) && !hasLegalForm(text)) score -= 0.4;
  // A trade alone ("Hotel", "RESTAURANT", "Coffee Shop") names no one: a place on a taxi receipt, a heading.
  else if (!hasLegalForm(text) && !withoutLegalForm(text).split(/[\s&,.'-]+/).some((w) => /\p{L}{2}/u.test(w) && !hasTradeWord(w) && !/^(?:the|and|of)$/i.test(w))) score -= 0.6;
  if (SENTENCE_WORD.test(text)) score -= 0.4;
  // Labels start or end with their concept word ("Grand Total", "Booking ID"); a name may hold one inside.
  const tokens = tokenize(text);
  if (!hasLegalForm(text) && [tokens[0], tokens[tokens.length - 1]].some((t) => LABEL_WORDS.has(t))) score -= 0.4;
  // The address under the name is not the name, also where a county reads as a legal form ("Kinsale Co. Cork P17 XK23").
  if ((addressLike(text) && !looksLikeCompany(text)) || hasLetteredPostcode(text)) score -= 0.4;
  // A street address whose street is named for a trade ("4381 MARKET ST") is still an address.
  else if (streetAddress(text)) score -= 0.8;
  // Names are printed in capitals or title case; an all-lower-case line is a slogan or noise.
  if (!/\p{Lu}/u.test(text)) score -= 0.4;
  // ... and in title case a longer word starts with a capital ("Paid through Cash" is running text); an
  // abbreviated title is no such word ("Farmacia San Rocco dott.ssa Lucia Bianchi").
  else if (/(?:^|\s)(?!(?:and|for|the|und|von|van|der|des|les|del|zum|zur)\b)\p{Ll}{4,}(?![.\p{L}])/u.test(text)) score -= 0.3;
  // A line with a price is an item ("CAFE CREME 12.00 2 24.00"), one with a date a header.
  if (findDates(text).length || findAmounts(line.text).some((a) => a.decimals)) score -= 0.5;
  return score;
}

/**
 * A legal form without a name ("Pty Ltd" wrapped under its name, "SARL" opening "SARL au capital de ...",
 * "S.A. de C.V.": its joining words are the form's).
 */
const formAlone = (text: string): boolean =>
  hasLegalForm(text) && !/\p{L}{2}/u.test(withoutLegalForm(text).replace(/(?<!\p{L})(?:de|y|&)(?!\p{L})|[&,.]/giu, ''));

/** A name and the tax or register number printed after its legal form ("… Pty Ltd ABN 12 345 678 901"): the name. */
function withoutTaxNumber(text: string): string {
  const cut = hasLegalForm(text) ? cutAtLegalForm(text) : text;
  return TAX_ID.exec(text.slice(cut.length).replace(/^[\s·•|,;-]+/, ''))?.index === 0 ? cut : text;
}

/** A party's cue word printed before its name without a colon ("Dodavatel Stavebniny Horák s.r.o."). */
function withoutCueWord(text: string): string {
  const [first, ...rest] = text.split(/\s+/);
  return rest.length && cueOf(first) !== null && hasLegalForm(rest.join(' ')) ? rest.join(' ') : text;
}

/** Name text cut from a phrase or line: without a document title, a leading label or a trailing registration number. */
export function cleanName(raw: string, ocr: boolean, minLetters = 4): string | null {
  const text = withoutTaxNumber(withoutLegalMention(withoutCueWord(raw.trim())))
    .replace(DOC_TYPE_WORD, '')
    .replace(TRAILING_REG_NO, '')
    .replace(/^[^:]{0,25}:\s*/, '')
    .replace(OPERATOR_PREFIX, '')
    .replace(DEPARTMENT, '')
    .replace(/[,;]+$/, '')
    // A name run into its legal mention beside it ("ACME SAS" + "SAS au capital de …"): the form once.
    .replace(/(?<=\s)(\S+)\s+\1$/u, (twice, form: string) => (isLegalFormWord(form) ? form : twice))
    // A sentence's full stop ("payable to Cascade Valley Electric."), not an abbreviation's ("Co.", "Inc.").
    .replace(/(?<=\p{Ll}{4})\.$/u, '')
    .trim();
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  // A digital seal or hash (a Mexican CFDI's sello, base64): one long run of letters of both cases and digits.
  if (/(?=[A-Za-z0-9+/=]*\d)(?=[A-Za-z0-9+/=]*[a-z])(?=[A-Za-z0-9+/=]*[A-Z])[A-Za-z0-9+/=]{20,}/.test(text)) return null;
  // Up to ten words: "Servicios Logísticos del Bajío S. de R.L. de C.V." has nine.
  // A numbered company ("9123-4567 Québec inc.", "2468135 Ontario Limited"): its number is its name's first word.
  const wordsPart = hasLegalForm(text) ? text.replace(NUMBERED_COMPANY, '') : text;
  if (letters < minLetters || letterRatio(wordsPart) < 0.6 || text.split(/\s+/).length > 10 || formAlone(text)) return null;
  return ocr ? repairNameText(text) : text;
}

interface Option {
  text: string;
  /** The line the name starts on, when not the option's own. */
  line?: Line;
  height: number;
  x0: number;
  x1: number;
  bonus: number;
  phrases: Phrase[];
}

/** A line cut after its legal form when only words without figures follow it. */
function wordsAfterForm(text: string): string {
  const cut = hasLegalForm(text) ? cutAtLegalForm(text) : text;
  const rest = text.slice(cut.length).replace(/^[\s,·•|-]+/u, '');
  // The street after the form ("… S.r.l. Via Chiantigiana 88, 50012 Bagno a Ripoli") is the address run on; other figures keep it whole.
  return /\d/.test(rest) && !isStreetLine(rest) ? text : cut;
}

function optionsOf(l: Line, ocr: boolean, above: Line | undefined): Option[] {
  // OCR may read a sender line's `·` as `+` ("ACME EURL + 14 rue des Tanneurs, 69002 Lyon").
  const parts = l.text.split(ocr ? OCR_SENDER_SEPARATOR : SENDER_SEPARATOR);
  const all = { x0: l.x0, x1: l.x1, phrases: l.phrases };
  // A legal form alone under its name's line, in a narrow column ("Bayside Electrical Services" / "Pty Ltd").
  // Left-aligned, or centred on a receipt ("Comercializadora Santa Lucía," / "S.A. de C.V.").
  const centre = (b: { x0: number; x1: number }) => (b.x0 + b.x1) / 2;
  const wrapped =
    above && formAlone(l.text) && l.y0 - above.y1 < l.height
      ? above.phrases.find((p) => Math.abs(p.x0 - l.x0) < l.height || Math.abs(centre(p) - centre(l)) < l.height)
      : undefined;
  return [
    ...(above && wrapped ? [{ text: `${wrapped.text} ${l.text}`, line: above, bonus: 0, height: l.height, x0: Math.min(l.x0, wrapped.x0), x1: Math.max(l.x1, wrapped.x1), phrases: [wrapped, ...l.phrases] }] : []),
    // OCR splits names at wide letter gaps, so on OCR pages the whole line is a candidate too, up to its
    // legal form: a title beside the name ("GRANITE PEAK PLUMBING LLC   SERVICE INVOICE") is not the name's
    // (an address after a county read as a form, "Kinsale Co. Cork P17 XK23", stays whole).
    ...(ocr ? [{ text: wordsAfterForm(l.text), bonus: 0, height: l.height, ...all }] : []),
    // A phrase's own size: a small name next to a big "INVOICE" title is still small print.
    ...l.phrases.map((ph) => ({ text: ph.text, bonus: 0, height: Math.max(...ph.words.map((w) => w.y1 - w.y0)), x0: ph.x0, x1: ph.x1, phrases: [ph] })),
    // A sender line above an address window ("ACME GmbH · Main St 1 · 12345 Town") starts with the name;
    // a tagline ("Heating · Cooling · Ventilation") has no address part and is no sender line. Of two
    // parts, the first is a name with a company form ("ACME SARL · 3 avenue Foch, 33000 Bordeaux").
    ...((parts.length >= 3 || (parts.length === 2 && looksLikeCompany(parts[0]))) && parts.slice(1).some((p) => addressLike(p))
      ? [{ text: parts[0], bonus: 0.5, height: l.height, ...all }]
      : []),
  ];
}

/**
 * Candidates for the issuer's name on the first page, scored. `buyerZone` holds the phrases of the
 * buyer's and ship-to blocks; `sellerCues` the seller cues found on the page.
 */
/** A street's line: address-like, with a street word ("12-14 High Street", "JALAN SAGU 18"), and no company's name. */
const isStreetLine = (text: string): boolean => !looksLikeCompany(text) && addressLike(text) && text.split(/\s+/).some((w) => isStreetWord(w.replace(/[,.:;]+$/, '')));

export function issuerCandidates(lines: Line[], sellerCues: Cue[], buyerZone: Set<Phrase>): NameCandidate[] {
  const page = lines.filter((l) => l.page === lines[0]?.page);
  const top = page.slice(0, 12);
  if (top.length === 0) return [];
  // OCR makes tall boxes of logos and smudges; only confidently read lines set the scale.
  const clear = top.filter((l) => meanConf(l) >= 60);
  const maxH = Math.max(...(clear.length ? clear : top).map((l) => l.height));
  const out: NameCandidate[] = [];
  page.forEach((l, i) => {
    const ocr = readByOcr(l);
    const conf = meanConf(l);
    // Past the letterhead a name needs more evidence than its size (a legal form and a tax number, a cue).
    const place = -0.04 * Math.min(i, 12) - (i >= 12 ? 0.3 + 0.3 * (l.y0 / l.pageHeight) : 0);
    // A tax number after the name on its line, or in its block under it; not one in the other party's
    // block beside it (a seller's NIF printed level with the buyer's name in the address window).
    const taxNear = (o: { x0: number; x1: number }) =>
      TAX_ID.test(l.phrases.filter((p) => p.x1 > o.x0).map((p) => p.text).join(' ')) ||
      page.slice(i + 1, i + 6).some((n) => n.phrases.some((p) => TAX_ID.test(p.text) && p.x0 < o.x1 + l.height && p.x1 > o.x0 - l.height));
    // A street's line cut into phrases: its district after a dash ("RUA AUGUSTA, 1500 - CONSOLACAO") is address too.
    const streetLine = isStreetLine(l.text);
    // The line under a street line in its column is the address's town ("12-14 High Street" / "Market
    // Harborough" / "LE16 7NJ"), not a name, unless it carries a legal form.
    const above = page[i - 1];
    const underStreet = above !== undefined && isStreetLine(above.text) && above.x0 < l.x1 && above.x1 > l.x0 && l.y0 - above.y1 < l.height;
    for (const o of optionsOf(l, ocr, page[i - 1])) {
      const text = cleanName(o.text, ocr);
      if (!text) continue;
      let score = Math.min(1, o.height / maxH) + place + o.bonus + nameEvidence(text, l);
      // The value of some other label ("Guest Name: Jane Roe") is not the issuer's name.
      // ... nor the phrase after a label ("Origen: | Pl. Catalunya" on a taxi receipt).
      if (LABELLED.test(o.text) || (o.phrases.length === 1 && /:$/.test(l.phrases[l.phrases.indexOf(o.phrases[0]) - 1]?.text ?? ''))) score -= 0.3;
      // ... nor is a label whose value follows after a spaced colon ("Geschäftsprozess : Beispiel") or is a date ("Entrega   16 de outubro de 2024").
      else if (o.phrases.length === 1 && valueFollows(l.phrases[l.phrases.indexOf(o.phrases[0]) + 1]?.text)) score -= 0.4;
      // A party's name is followed by its address (a street number or a postcode on the next line).
      // A phone or tax line ("Telp.0274-881234") is no address, whatever its figures.
      const next = page.slice(i + 1, i + 6).find((n) => !REGISTRATION_LINE.test(n.text.trim()) && !FOUNDED.test(n.text.trim()));
      const addressNext = next && ADDRESS_STOP.exec(next.text.trim())?.index !== 0 && (/^\d+\w?\b|\b\w+\s+\d+\w?,?$|\b\d{4,5}\b/.test(next.text.trim()) || addressLike(next.text));
      if (next && addressNext && next.x0 <= l.x1 && next.x1 >= l.x0) {
        // ... unless the line runs on into it with a comma: a mall's or building's name inside the address
        // ("S117, Second Floor," / "Aeon Tebrau City," / "1, Jalan Desa Tebrau,").
        score += /,$/.test(l.text.trim()) && !hasLegalForm(text) ? -0.3 : 0.15;
      }
      if (looksLikeCompany(text) && taxNear(o)) score += 0.2;
      if (isTableHeading(l)) score -= 0.6;
      if (streetLine && o.text !== l.text) score -= 0.5;
      if (underStreet && !hasLegalForm(text)) score -= 0.5;
      // A slogan with the founding year ("Family Italian Kitchen since 1987") is the name's, not a name.
      if (FOUNDED.test(o.text)) score -= 0.5;
      // "Messrs." (and Japanese 御中, 様) marks the addressee: "Hoshino Office Supply Inc. Messrs.".
      if (o.phrases.some((p) => buyerZone.has(p)) || /\bmessrs\b|御中|様\s*$/iu.test(o.text) || o.phrases.some((p) => addressedPerson(p.text))) score -= 0.9;
      // A logo or smudge read by OCR comes with a low confidence.
      if (conf < 35) score -= 0.8;
      else if (conf < 60) score -= 0.25;
      out.push({ text, line: o.line ?? l, score, x0: o.x0, x1: o.x1 });
    }
  });
  return [...out, ...registeredCandidates(page), ...cuedCandidates(lines, sellerCues)];
}

/**
 * The names that open the issuer's legal mention (capital, register entry, registered office; see
 * legal-register.ts), wherever it is printed: as good evidence as a seller cue over the name.
 */
function registeredCandidates(page: Line[]): NameCandidate[] {
  const out: NameCandidate[] = [];
  page.forEach((l, i) => {
    const raw = registeredName(l, page[i + 1]);
    const text = raw && cleanName(raw, readByOcr(l));
    if (text) out.push({ text, line: l, score: 1 + nameEvidence(text, l), x0: l.x0, x1: l.x1, registered: true });
  });
  return out;
}

/** Names printed after or under a seller cue ("Sold by: ACME Ltd", "Supplier" over "ACME Ltd"). */
/** A name with its address after it on one line ("Client: Hostal Sol, Calle Mayor 4, Zaragoza"): the name. */
function nameBeforeAddress(text: string): string {
  const at = text.search(/\s*,\s+/);
  return at > 0 && addressLike(text.slice(at).replace(/^\s*,\s+/, '')) ? text.slice(0, at) : text;
}

/** A lone given name after a seller's label ("Ticket 99958 Vendeur: Paul") is as likely a till's salesperson. */
export const givenNameAlone = (text: string): boolean => /^\p{Lu}\p{Ll}{2,9}$/u.test(text);

export function cuedCandidates(lines: Line[], cues: Cue[]): NameCandidate[] {
  const out: NameCandidate[] = [];
  for (const cue of cues) {
    const ocr = readByOcr(cue.line);
    // After a cue a short name is still a name ("Payment received by ACM").
    // "Make checks payable to ACME Plumbing Inc. We accept Visa/MC.": the name ends with its legal form.
    const raw = cue.inline && nameBeforeAddress(cue.inline.split(/\s*,\s+(?=\p{L}[\p{L}\s-]*:)/u)[0]);
    const inline = raw && cleanName(hasLegalForm(raw) ? cutAtLegalForm(raw) : raw, ocr, 3);
    if (inline) out.push({ text: inline, line: cue.line, score: (cue.thanks || givenNameAlone(inline) ? 0.9 : 1.2) + nameEvidence(inline, cue.line), x0: cue.phrase.x0, x1: cue.phrase.x1, cued: true });
    if (cue.inline) continue;
    // The party's numbers may come first under the cue ("Verkäufer:" / "Nummer : 549910" / "ACME GmbH").
    blockOf(lines, cue, 5).filter((b) => !labelledRow(b)).slice(0, 2).forEach((b, k) => {
      const text = cleanName(b.text, ocr);
      if (text) out.push({ text, line: b.line, score: (k === 0 ? 1 : 0.7) + nameEvidence(text, b.line), x0: b.phrases[0].x0, x1: b.phrases[b.phrases.length - 1].x1, cued: true });
    });
  }
  return out;
}

/** In capitals: "LIAN CHI", not "Lian Chi". */
const caps = (s: string): boolean => s === s.toUpperCase() && /\p{Lu}{2}/u.test(s);

/**
 * A name printed over two lines ("LIAN CHI VEGETARIAN" / "RESTAURANT SDN BHD"): the line right
 * above a name with a company form is its first half when it is in capitals like it, about as tall,
 * full enough that the name had to wrap, and holds no digits, company form or document word of its own.
 */
export function joinNameAbove(lines: Line[], best: NameCandidate): NameCandidate {
  const stacked = stackedName(lines, best);
  if (stacked) return { ...best, text: stacked };
  const above = lines.find((l) => l.index === best.line.index - 1);
  const wholeLine = best.x0 <= best.line.x0 + 1 && best.x1 >= best.line.x1 - 1;
  if (!above || above.page !== best.line.page || !wholeLine || !looksLikeCompany(best.text)) return best;
  const t = above.text.trim();
  const similar = above.height <= best.line.height * 1.3 && above.height >= best.line.height * 0.75;
  const close = best.line.y0 - above.y1 < 1.2 * best.line.height;
  // A wrapped name fills its first line: the next word would not have fitted beside it in the widest
  // line of the page's top. A short line over the name is a brand or a branch ("FUEL STOP LAKESIDE").
  const top = lines.filter((l) => l.page === best.line.page && l.index <= best.line.index + 10);
  const widest = Math.max(...top.map((l) => l.x1 - l.x0));
  const firstWord = best.line.words[0];
  const wrapped = above.x1 - above.x0 + (firstWord.x1 - firstWord.x0) + 0.5 * best.line.height > 0.9 * widest;
  // A legal name that is a name of its own (two words besides its trade words and form: "SERENA
  // HOSPITALITY PTE LTD") or repeats the line over it ("GOLDEN BOWL" / "GOLDEN BOWL F&B PTE LTD") is
  // the company behind that brand, not the second half of one name.
  const ownWords = withoutLegalForm(best.text).split(/\s+/).filter((w) => /\p{L}/u.test(w) && !hasTradeWord(w));
  const aboveWords = new Set(t.toLowerCase().split(/\s+/));
  const ownName = ownWords.length >= 2 || ownWords.some((w) => w.length >= 3 && aboveWords.has(w.toLowerCase()));
  // A trade word alone ("APTEEKKI", "BAKERY") names no one: the line over it in the same type does ("KALEVAN").
  const bare = ownWords.length === 0 && withoutLegalForm(best.text).split(/\s+/).length <= 2;
  if (!ownName && (wrapped || bare) && caps(t) && caps(best.text) && similar && close && meanConf(above) >= 60 && !/\d/.test(t) && !looksLikeCompany(t) && !NOT_A_NAME.test(t) && letterRatio(t) >= 0.8) {
    return { ...best, text: `${repairNameText(t)} ${best.text}` };
  }
  return best;
}

/**
 * A name set as a narrow stack in a text layer's letterhead ("Douro Vivo" / "Distribuição" / "Unipessoal,
 * Lda.", "Mombasa" / "Coastline Freight" / "Limited"): up to two lines next to the name, each phrase in the
 * same type, left edge and tight leading, without figures or words of the name's own, are more of it: over
 * a name with its legal form, its first words (with no form of their own); under a name without one, its
 * last words, the last holding the form. A brand over its legal name differs in type or repeats its words;
 * OCR'd lines vary in height too much to tell.
 */
function stackedName(lines: Line[], best: NameCandidate): string | null {
  if (readByOcr(best.line) || best.x0 > best.line.x0 + 1) return null;
  const up = hasLegalForm(best.text);
  // Phrases, not lines: a title or a label block to the right shares their lines ("Douro Vivo   Fatura").
  const typeOf = (ws: Word[]) => ({ height: Math.max(...ws.map((w) => w.y1 - w.y0)), y0: Math.min(...ws.map((w) => w.y0)), y1: Math.max(...ws.map((w) => w.y1)) });
  let cur = typeOf(best.line.words.filter((w) => w.x0 >= best.x0 - 1 && w.x1 <= best.x1 + 1));
  const own = new Set(best.text.toLowerCase().split(/\s+/));
  const parts: string[] = [];
  let index = best.line.index;
  for (let n = 0; n < 2 && cur.height > 0; n++) {
    index += up ? -1 : 1;
    const l = lines.find((x) => x.index === index);
    const p = l?.phrases.find((ph) => Math.abs(ph.x0 - best.x0) < 0.5 * cur.height);
    if (!l || !p || l.page !== best.line.page) break;
    const t = p.text.trim();
    const type = typeOf(p.words);
    const gap = up ? cur.y0 - type.y1 : type.y0 - cur.y1;
    // Set solid: a name's lines stand closer than running lines (a fifth of their height apart, at most).
    if (Math.abs(type.height - cur.height) > 0.05 * cur.height || gap > 0.2 * cur.height || t.split(/\s+/).length > 3) break;
    // A tagline or label ("Vertalers · Traducteurs", "Sprzedawca:") is no part of a name.
    // ... nor a party's heading without its colon ("Dodavatel" over "Stavebniny Horák s.r.o.").
    if (/[\d:·•|]/.test(t) || NOT_A_NAME.test(t) || cueOf(t) !== null || letterRatio(t) < 0.8 || t.toLowerCase().split(/\s+/).some((w) => own.has(w))) break;
    if (up && looksLikeCompany(t)) break;
    parts.push(t);
    cur = type;
    if (!up && hasLegalForm(t)) return `${best.text} ${parts.join(' ')}`;
  }
  return up && parts.length ? `${parts.reverse().join(' ')} ${best.text}` : null;
}

/** Words a name does not end with: it goes on on the next line ("LE FOURNIL DE" / "CLÉMENCE", "… GmbH &" / "Co. KG"). */
const DANGLING = /(?:^|\s)(?:&|and|und|et|e|y|de|di|da|do|du|des|del|della|la|le|von|van|der|the|of)$/i;

/**
 * A name wrapped onto the next line on narrow paper: the line right under it, about as tall and short,
 * completes it when the name ends in a joining word or the two make a legal form ("HENG HUAT HARDWARE
 * SDN" / "BHD").
 */
export function joinNameBelow(lines: Line[], best: NameCandidate): NameCandidate {
  const below = lines.find((l) => l.index === best.line.index + 1);
  const above = lines.find((l) => l.index === best.line.index - 1);
  const wholeLine = best.x0 <= best.line.x0 + 1 && best.x1 >= best.line.x1 - 1;
  // The name's first half on the line above, ending in a joining word ("LE FOURNIL DE" over "CLEMENCE").
  if (above && above.page === best.line.page && wholeLine && DANGLING.test(above.text.trim()) && above.text.trim().split(/\s+/).length <= 5 && !/\d/.test(above.text)) {
    const close = best.line.y0 - above.y1 < 1.2 * best.line.height && above.height <= best.line.height * 1.3 && above.height >= best.line.height * 0.7;
    if (close) return { ...best, text: `${repairNameText(above.text.trim())} ${best.text}` };
  }
  // A name at the line's left with a title to its right ("… S.A. de   FACTURA" / "C.V."): its column's phrase below.
  const belowPhrase = wholeLine || best.x0 > best.line.x0 + 1 ? undefined : below?.phrases.find((p) => Math.abs(p.x0 - best.x0) < best.line.height && p.x1 <= best.x1 + best.line.height);
  if (!below || below.page !== best.line.page || !(wholeLine || belowPhrase)) return best;
  const t = (belowPhrase ?? below).text.trim();
  const close = below.y0 - best.line.y1 < 1.2 * best.line.height;
  const similar = below.height <= best.line.height * 1.3 && below.height >= best.line.height * 0.7;
  const short = t.split(/\s+/).length <= 4 && !/\d/.test(t) && !NOT_A_NAME.test(t) && !addressLike(t);
  // A company number right under the second line ("RESTORAN NASI KANDAR" / "AL-HIKMAH" / "(002345678-X)") ends the name there.
  const after = lines.find((l) => l.index === best.line.index + 2);
  const numberedAfter = !!after && after.page === best.line.page && REGISTRATION_LINE.test(after.text.trim()) && caps(best.text) && caps(t);
  // A trade word alone under a name in capitals ("KALEVAN" / "APTEEKKI") is its second half: "Kaleva's pharmacy".
  const trade = caps(best.text) && caps(t) && !hasLegalForm(best.text) && t.split(/\s+/).length <= 2 && t.split(/\s+/).every((w) => hasTradeWord(w));
  const completes = trade || DANGLING.test(best.text.trim()) || (!hasLegalForm(best.text) && hasLegalForm(t) && hasLegalForm(`${best.text} ${t}`)) || /^(?:&\s*)?co\.?\b/i.test(t) || numberedAfter;
  // A candidate joined over two lines already (a form wrapped under its name) holds the line below.
  const holds = best.text.toLowerCase().endsWith(t.toLowerCase());
  return close && similar && short && completes && !holds ? { ...best, text: `${best.text} ${repairNameText(t)}` } : best;
}
