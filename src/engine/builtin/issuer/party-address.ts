// A party's address: the address-like lines printed right under its name, joined as printed.
import type { Line } from '../../layout/lines.js';
import { readByOcr } from '../../layout/lines.js';
import { findDates } from '../parse-date.js';
import { repairAddressText } from './ocr-repair.js';
import { isLegalFormWord, withoutLegalForm } from './legal-forms.js';
import { isRegisterEntry, OPERATOR_PREFIX } from './legal-register.js';
import { ADDRESS_STOP, addressLike, bareNumber, FOUNDED, garbledRead, isJunk, meanConf, PHONE, REGISTRATION_LINE } from './line-signs.js';

export interface AddressRow {
  line: Line;
  /** The row's text inside the party's column. */
  text: string;
}

/**
 * Rows under a name at x0..x1: the whole line on OCR pages (receipts print one column, and OCR may
 * cut a line into pieces; digits and letters it confused put back), the phrases over the name's column on text-layer pages (a buyer's block
 * may stand beside the seller's).
 */
export function rowsUnder(lines: Line[], name: { line: Line; x0: number; x1: number }, count = 9): AddressRow[] {
  const at = lines.findIndex((l) => l.index === name.line.index);
  const h = name.line.height;
  return lines
    .slice(at + 1, at + 1 + count)
    .filter((l) => l.page === name.line.page)
    .map((line) => {
      if (readByOcr(line)) return { line, text: repairAddressText(line.text.trim()) };
      const inColumn = line.phrases.filter((p) => p.x1 > name.x0 - h && p.x0 < name.x1 + h);
      return { line, text: inColumn.map((p) => p.text).join(' ').trim() };
    });
}

export interface PartyAddress {
  text: string;
  rows: AddressRow[];
  /**
   * The read is in doubt: OCR ran its words together with case changes or digits inside
   * ("JalanTa7Kaus"), or a row before it that reads as nothing known was read unsurely (its first
   * row, misread, may be missing).
   */
  doubtful: boolean;
}

/** An EU VAT id: country code, then 8-12 characters, mostly digits (Austria's with a U, "ATU57991999"). */
const EU_VAT_ID = String.raw`(?:ATU\d{8}|(?:DE|FR|IT|NL|BE|ES|PT|LU|IE|DK|FI|SE|PL|CZ|SK|SI|HU|RO|BG|HR|GR|EL|EE|LV|LT|CY|MT)[A-Z0-9]{2}\d{6,10})`;
const EU_VAT_ID_AT_END = new RegExp(String.raw`[\s,;]+${EU_VAT_ID}\s*$`);
const EU_VAT_ID_ROW = new RegExp(String.raw`^\W*${EU_VAT_ID}\W*$`);
/** A count of an item or a fare: "2 X ADULT ANYTIME SINGLE", "Tageskarte Preisstufe 1". */
const ITEM_COUNT = /^\W*\d+\s*[xX×]\s+\p{L}|\b(?:preisstufe|tageskarte|einzelfahrt|fahrkarte|fahrschein|zones?\s+\d)/iu;

/** A label and its value ("Référence dossier : GXRNCQ", "Order ID: 88", "Ihre Bestellung Nr. 29693330"): after the address has begun, the address has ended. */
const LABELLED = /\p{L}{2,}\.?\s?:\s*\S|\b(?:nr|no|#)\.?\s*\d{5,}/iu;
/** An address's own label before it: "Address:", "Adresse :", "Alamat:", Vietnamese "Đ/c:". */
const ADDRESS_LABEL = /^\W*(?:address|addr|adresse?|adresa|alamat|anschrift|dirección|direccion|endereço|endereco|indirizzo|địa\s+chỉ|dia\s+chi|[đd]\/c)\.?\s?:\s*/iu;
/** Parts of a footer or sender line ("Northstar Tickets · 200 Bay St, Toronto · HST 81122"). */
const PART_SEPARATOR = /\s+[·•●|]\s+|\s*[·•●|]\s*/;
/** A street and house number on a line of its own ("Weteringschans 85", "Av. de la Constitución 12", "C/ Mayor, 23", "Am Markt 7"). */
const STREET_AND_NUMBER = /^\p{L}[\p{L}.'’/ -]{1,40},?\s\d{1,4}\s?[a-zA-Z]?$/u;
/**
 * A row that starts with a postcode and goes on with its town ("41004 Sevilla", "1017 RZ Amsterdam", "75015 Paris",
 * "4050-513 Porto", "31-147 Kraków", OCR's "31-147Krakow").
 */
const POSTCODE_ROW = /^\W*(?:\d{4}-\d{3}|\d{2}-\d{3}|\d{4,5}|\d{4}\s?[A-Z]{2}|\d{3}\s\d{2})\s*\p{L}/u;

/** The address parts of a row made of parts: from the first that reads as an address to the last before a stop. */
function addressParts(text: string): string {
  const parts = text.split(PART_SEPARATOR).map((p) => p.trim());
  if (parts.length < 2) return text;
  const start = parts.findIndex((p) => addressLike(p) && !ADDRESS_STOP.test(p));
  if (start < 0) return text;
  const end = parts.findIndex((p, i) => i > start && (ADDRESS_STOP.test(p) || !addressLike(p)));
  return parts.slice(start, end < 0 ? parts.length : end).join(', ');
}

/** A row that runs on past its address into a register or contact entry ("… Haryana 122003 CIN U52100HR…"): the address before it. */
function beforeStop(text: string): string {
  const at = ADDRESS_STOP.exec(text)?.index ?? 0;
  const head = text.slice(0, at).replace(/[\s,;·|-]+$/, '');
  return at > 0 && /\d/.test(head) && addressLike(head) && head.split(/\s+/).length >= 2 ? head : text;
}

/** A Singapore unit number on its own row, floor and unit: "#01-150", "#B1-23A". */
const UNIT_NUMBER = /^#[A-Z]?\d{1,3}-\d{1,4}[A-Z]?,?$/;
/** The shop's number in its chain, under its address: "STORE 2281", "Filiale 0412". */
const STORE_NUMBER = /^(?:store|filiale|branch|outlet|magasin|tienda|negozio|winkel)\s*(?:#|no\.?|nr\.?)?\s*\d+$/i;


/** A row that names a company: its operator, or a name ending in its legal form, without figures. */
const companyRow = (text: string): boolean => OPERATOR_PREFIX.test(text) || (!/\d/.test(withoutLegalForm(text)) && isLegalFormWord(text.trim().split(/\s+/).at(-1) ?? '') && !addressLike(text));

/** The document's title under the address ("KVITTERING", "TAX INVOICE", "Factura simplificada"). */
const TITLE_ROW = /^\W*(?:tax\s+)?(?:invoice|receipt|kvittering|kvitto|kuitti|quittung|rechnung|kassenbon|facture|factura|fattura|fatura|faktura|recibo|ricevuta|účtenka|paragon|struk|bon)(?:\s+(?:simplificada|semplificata|simplifiée|fiskalny))?\W*$/iu;

/** Words of a till's rows, a currency column's heading alone, a percentage. */
const TILL_ROW = /(?<![\p{L}])(?:kasir|kasjer|cashier|kassierer|caissier|cajero|shift|schicht)(?![\p{L}])|^\W*(?:EUR|USD|GBP|CHF|SEK|NOK|DKK|PLN|CZK|HUF|MYR|SGD|AUD|NZD|CAD|INR|IDR|PHP|THB|VND|ZAR|KES|AED|MXN|BRL|JPY)\W*$|\d%/iu;
/** A time of day ("Time: 15:32", "19:41:22"): a till's data, not an address. */
const CLOCK_TIME = /(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?![\d:])/;

/** A street and its labelled house number, as Turkey prints it ("Moda Cad. No: 45"): no "label: value" row. */
const STREET_NUMBER_LABEL = /\b(?:cad|caddesi|sok|sokak|sk|bulvarı|bulvari)\.?\s+no\s*:/i;

/**
 * A word and a number of six digits or more in three groups or more, nothing else: a phone line under a label
 * ("Bookings 13 22 77", "Hotline 1800 123 456"), not a town and its postcode ("Singapore 520088", "Lisboa 1100-053").
 */
const CONTACT_NUMBER = /^\W*\p{L}{3,}:?\s+(?=(?:[\s()+-]*\d){6})\(?\+?\d+\)?(?:[\s-]+\(?\d+\)?){2,}$/u;

/** OCR read a row this unsurely (mean word confidence): it may be a misread address row. */
const UNSURE_ROW = 70;

/**
 * The address in rows under a name: from the first address-like row (past registration and tax
 * numbers and OCR noise) up to a phone/tax/date row, at most five rows.
 */
export function readAddress(rows: AddressRow[]): PartyAddress | null {
  const out: string[] = [];
  const used: AddressRow[] = [];
  let skipped = 0;
  let unsureSkipped = false;
  let streetBefore: AddressRow | null = null;
  // Rows that run on with a comma into the next ("Lot 2.101, Lower Ground Two," / "Pavilion Mall,"): the
  // unit and building over the street, when an address follows them.
  let runOn: AddressRow[] = [];
  for (const row of rows) {
    // A till's row ("2231-SM CIRACAS RAYA/1/2231/KASIR-04", "EUR", "Bio Vollmilch 3,8%") holds no part of the address.
    if (TILL_ROW.test(row.text)) {
      if (out.length > 0) break;
      continue;
    }
    const parts = addressParts(row.text.replace(ADDRESS_LABEL, ''));
    const text = beforeStop(parts);
    // A row cut at a register or contact entry is the address's last.
    const last = text !== parts;
    if (isJunk(text)) continue;
    if (out.length === 0) {
      // Before the address: the registration and tax numbers, a branch or licence line.
      if (REGISTRATION_LINE.test(text) || isRegisterEntry(text) || FOUNDED.test(text) || bareNumber(text) || (/^[\p{L} .]{2,15}:\s*[\w-]*\d[\w-]*$/u.test(text) && !STREET_NUMBER_LABEL.test(text))) continue;
      // A till's labelled data ("Session: 4-118722 Clerk: SK", "Date: 11/09/2024 Time: 15:32") is not an address.
      if (findDates(text).length || PHONE.test(text) || CLOCK_TIME.test(text) || (text.match(/\p{L}{2,}\.?\s?:/gu) ?? []).length >= 2) {
        if (++skipped > 2) break;
        continue;
      }
      if (!addressLike(text) || ADDRESS_STOP.test(text.replace(/^[A-Z]*\d{5,}-?[A-Z]?\W?\s+/i, ''))) {
        if (++skipped > 2) break;
        if (meanConf(row.line) < UNSURE_ROW) unsureSkipped = true;
        streetBefore = STREET_AND_NUMBER.test(text) && !ADDRESS_STOP.test(text) ? { ...row, text } : null;
        runOn = /,$/.test(text) && !ADDRESS_STOP.test(text) ? [...runOn, { ...row, text }] : [];
        continue;
      }
      // The street over the postcode and town, with no street word of its own: the address starts there.
      if (streetBefore && POSTCODE_ROW.test(text)) used.push(streetBefore), out.push(streetBefore.text);
      else for (const r of runOn) used.push(r), out.push(r.text);
    } else if (LABELLED.test(text)) break;
    // A price at the end of a line means the items have started.
    // So does a count of an item ("2 X ADULT SINGLE") or a ticket's fare zone.
    // So does a company's name ("Operated by Kingsley Retail Services Ltd" under the shop's address), and
    // its registration number on a row of its own ("(JM0812345-T)" under the town).
    if (ADDRESS_STOP.test(text) || CONTACT_NUMBER.test(text) || REGISTRATION_LINE.test(text) || STORE_NUMBER.test(text) || companyRow(text) || TITLE_ROW.test(text) || findDates(text).length || PHONE.test(text) || (bareNumber(text) && !UNIT_NUMBER.test(text)) || EU_VAT_ID_ROW.test(text) || /\d[.,]\d{2}(?:\s[A-Z*]{1,2})?$/.test(text) || ITEM_COUNT.test(text)) break;
    // A registration number run into the first address line ("789117-W NO.53 ...") is not address;
    // five digits alone are a postcode ("40150 SHAH ALAM").
    used.push(row);
    const printed = out.length === 0 ? text.replace(/^(?:[A-Z]*\d{6,}-?[A-Z]?\W?|[A-Z]*\d{5}-[A-Z]\W?|\W*\d*-[A-Z]\b\W?|(?:company|co)\.?\s*(?:reg\.?\s*)?no\W*\s*[\w-]*\d[\w-]*)\s+/i, '') : text;
    // A VAT id printed after the town on the same row ("1200 Wien ATU57991999") is not address.
    out.push(printed.replace(EU_VAT_ID_AT_END, '').replace(/\bP\.\s?0\.(?=\s*box\b)/i, 'P.O.'));
    if (out.length >= 5 || last) break;
  }
  if (out.length === 0) return null;
  const text = out.join(' ');
  return { text, rows: used, doubtful: unsureSkipped || garbledRead(text) };
}
