// The issuer at the top of the first page: its name (the most prominent name-like line of the
// letterhead) and its address (the address-like lines under the name), for documents that do not
// label them.
import type { Line } from '../layout/lines.js';
import { findDates } from './parse-date.js';
import { findAmounts } from './parse-amount.js';

const COMPANY_SUFFIX = /\b(gmbh|ag|kg|ug|ltd|limited|llc|inc|corp|corporation|co|company|sdn|bhd|berhad|plc|sa|sas|sarl|s\.a\.|bv|nv|oy|ab|as|pty|enterprise|enterprises|trading|store|stores|restaurant|cafe|café|hotel|shop|mart|market|supermarket)\b\.?/i;
/** OCR may drop the spaces between words ("LANHINGSTATIONERYSDNBHD"): a company form glued to the end of the name. */
const GLUED_SUFFIX = /(sdn\.?\s*bhd|bhd|berhad|gmbh|ltd|limited|llc|inc|corp|plc|sarl|enterprise|enterprises|trading|restaurant|hotel|supermarket|market|mart|store)\.?\)?$/i;
const hasCompanyForm = (text: string): boolean => COMPANY_SUFFIX.test(text) || GLUED_SUFFIX.test(text);
const NOT_A_NAME = /\b(tax|page|seite|date|datum|tel|phone|fax|email|e-mail|www|http|no\.?|nr\.?|gst|vat|reg|kassenbon|beleg|table|cashier|thank|thanks|merci|danke|vielen|welcome|visit|visite)\b|invoice|rechnung|facture|receipt|quittung/i;
/** Where the address ends: contact, tax and document lines (document words also glued by OCR: "TAXINVOICE"). */
const ADDRESS_STOP = /\b(tel|phone|fax|e-?mail|www|http|gst|gstid|vat|tax|reg|date|datum|cashier|table|document|no\s*:)\b|@|invoice|receipt|rechnung|facture/i;
/** General street and area words of addresses (English, German, French, Malay). */
const STREET_WORDS = /\b(street|road|avenue|ave|blvd|boulevard|lane|drive|suite|floor|flr|level|lot|unit|block|blk|building|bldg|plaza|jalan|jln|jl|lorong|lrg|taman|tmn|kawasan|bandar|persiaran|strasse|straße|str|weg|platz|allee|gasse|rue|chemin|route|autoroute|quai|via|calle|avenida)\b/i;

/** A line that reads as part of an address: a house number first, a postcode, or a street word. */
export const addressLike = (text: string): boolean =>
  /^\W*\d+\w?\b|^\W*(?:no|nr|lot|unit)\.?\s*\d|^\W*[A-Z]{0,3}\d[\w-]*,/i.test(text) || /\b\d{4,5}\b/.test(text) || STREET_WORDS.test(text) || GLUED_ADDRESS.test(text);
/** The same, with the spaces OCR may drop: "NO.53JALANPUTRA 1,", "81200JOHORBAHRU". */
const GLUED_ADDRESS = /jalan|taman|lorong|kawasan|persiaran|strasse|straße|street|avenue|boulevard|(?<!\d)\d{5}(?=\p{Lu}{3})/iu;

function letterRatio(text: string): number {
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  return text.length ? letters / text.replace(/\s/g, '').length : 0;
}

const DOC_TYPE_WORD = /^(tax\s+)?(invoice|rechnung|facture|receipt|quittung|bill|credit note|gutschrift)\b[\s:]*|[\s:]*\b(tax\s+)?(invoice|rechnung|facture|receipt|quittung)$/gi;

const SENDER_SEPARATOR = /\s+[-–·•●|]\s+|\s*[·•●|]\s*/;

/** Registration numbers printed after a company name: "AEON CO. (M) BHD (126925-H)". */
const TRAILING_REG_NO = /\s*[({[][^)}\]]*\d[^)}\]]*[)}\]]?\s*$/;
/** Lines under a name that carry its registration or tax number, not its address: "(123456-X)", "Company No: 12345-A", "GST ID: 0012". */
const REGISTRATION_LINE =
  /^[({[][^)}\]]*\d[^)}\]]*[)}\]]?$|\b(company|co|reg|roc|registration|business)\b\.?\s*(no|nr|number)\b|\b(gst|vat|tax|sst)\b.{0,12}\b(no|nr|id|reg)\b|\b(no|nr)\b\W{0,3}[A-Z]{0,4}\d{5,}-?[A-Z]?\W*$/i;
const PHONE = /\d{2,4}[-\s]\s?\d{3,4}\s?\d{3,4}/;
/** OCR noise: fewer than three letters or digits. */
const isJunk = (text: string): boolean => (text.match(/[\p{L}\p{N}]/gu) ?? []).length < 3;
/** A number alone on its line (a tax or registration number without its label). */
const bareNumber = (text: string): boolean => !/\p{L}{2}/u.test(text) && (text.match(/\d/g) ?? []).length >= 5;

function meanConf(line: Line): number {
  const cs = line.words.map((w) => w.conf).filter((c): c is number => c !== undefined);
  return cs.length ? cs.reduce((a, b) => a + b, 0) / cs.length : 100;
}

/** The issuer's name: the most prominent name-like text near the top of the first page. */
export function vendorFallback(lines: Line[]): { line: Line; text: string } | null {
  const top = lines.filter((l) => l.page === lines[0]?.page).slice(0, 12);
  if (top.length === 0) return null;
  // OCR makes tall boxes of logos and smudges; only confidently read lines set the scale.
  const clear = top.filter((l) => meanConf(l) >= 60);
  const maxH = Math.max(...(clear.length ? clear : top).map((l) => l.height));
  let best: { line: Line; text: string; score: number } | null = null;
  top.forEach((l, i) => {
    // A sender line above an address window ("ACME GmbH · Main St 1 · 12345 Town") starts with the name.
    const parts = l.text.split(SENDER_SEPARATOR);
    // OCR splits names at wide letter gaps, so on OCR pages the whole line is a candidate too.
    const ocr = l.words.some((w) => w.conf !== undefined);
    const conf = meanConf(l);
    const options = [
      ...(ocr ? [{ text: l.text, bonus: 0, height: l.height }] : []),
      // A phrase's own size: a small name next to a big "INVOICE" title is still small print.
      ...l.phrases.map((ph) => ({ text: ph.text, bonus: 0, height: Math.max(...ph.words.map((w) => w.y1 - w.y0)) })),
      ...(parts.length >= 3 ? [{ text: parts[0], bonus: 0.5, height: l.height }] : []),
    ];
    for (const o of options) {
      const text = o.text.replace(DOC_TYPE_WORD, '').replace(TRAILING_REG_NO, '').replace(/^[^:]{1,25}:\s*/, '').replace(/[,;]+$/, '').trim();
      const letters = (text.match(/\p{L}/gu) ?? []).length;
      if (letters < 4 || letterRatio(text) < 0.6 || text.split(/\s+/).length > 8) continue;
      let score = Math.min(1, o.height / maxH) - 0.04 * i + 0.01 * text.split(/\s+/).length + o.bonus;
      if (hasCompanyForm(text)) score += 0.5;
      // A party's name is followed by its address (a street number or a postcode on the next line).
      const next = top.slice(i + 1).find((n) => !REGISTRATION_LINE.test(n.text.trim()));
      if (next && next.x0 <= l.x1 && next.x1 >= l.x0 && /^\d+\w?\b|\b\w+\s+\d+\w?,?$|\b\d{4,5}\b/.test(next.text.trim())) score += 0.15;
      if (NOT_A_NAME.test(text) || /@|\.(com|net|org|de|fr)\b/i.test(text)) score -= 0.6;
      // The address under the name is not the name.
      if (addressLike(text) && !hasCompanyForm(text)) score -= 0.4;
      // Names are printed in capitals or title case; an all-lower-case line is a slogan or noise.
      if (!/\p{Lu}/u.test(text)) score -= 0.4;
      // A logo or smudge read by OCR comes with a low confidence.
      if (conf < 35) score -= 0.8;
      else if (conf < 60) score -= 0.25;
      // A line with a price is an item ("CAFE CREME 12.00 2 24.00"), one with a date a header.
      if (findDates(text).length || findAmounts(l.text).some((a) => a.decimals)) score -= 0.5;
      if (!best || score > best.score) best = { line: l, text, score };
    }
  });
  return best && joinNameAbove(top, best);
}

/**
 * A name printed over two lines ("LIAN CHI VEGETARIAN" / "RESTAURANT SDN BHD"): the line right
 * above a name with a company form is its first half when it is in capitals like it, about as tall,
 * and holds no digits, company form or document word of its own.
 */
function joinNameAbove(top: Line[], best: { line: Line; text: string }): { line: Line; text: string } {
  const i = top.indexOf(best.line);
  const above = top[i - 1];
  if (!above || best.text !== best.line.text.trim() || !hasCompanyForm(best.text)) return best;
  const t = above.text.trim();
  const caps = (s: string) => s === s.toUpperCase() && /\p{Lu}{2}/u.test(s);
  const similar = above.height <= best.line.height * 1.3 && above.height >= best.line.height * 0.75;
  const close = best.line.y0 - above.y1 < 1.2 * best.line.height;
  if (caps(t) && caps(best.text) && similar && close && meanConf(above) >= 60 && !/\d/.test(t) && !hasCompanyForm(t) && !NOT_A_NAME.test(t) && letterRatio(t) >= 0.8) {
    return { line: best.line, text: `${t} ${best.text}` };
  }
  return best;
}

/**
 * The issuer's address: under its name, from the first address-like line (past registration and tax
 * numbers and OCR noise) up to a phone/tax/date line, at most five lines.
 */
export function addressFallback(lines: Line[], vendorAt: { line: Line } | null): string | null {
  if (!vendorAt) return null;
  const vendor = vendorAt.line;
  const out: string[] = [];
  let skipped = 0;
  for (const l of lines.slice(vendor.index + 1, vendor.index + 10)) {
    if (l.page !== vendor.page) break;
    const text = l.text.trim();
    if (isJunk(text)) continue;
    if (out.length === 0) {
      // Before the address: the registration and tax numbers, a branch or licence line.
      if (REGISTRATION_LINE.test(text) || bareNumber(text) || /^[\p{L} .]{2,15}:\s*[\w-]*\d[\w-]*$/u.test(text)) continue;
      if (findDates(text).length || PHONE.test(text)) {
        if (++skipped > 2) break;
        continue;
      }
      if (!addressLike(text) || ADDRESS_STOP.test(text.replace(/^[A-Z]*\d{5,}-?[A-Z]?\W?\s+/i, ''))) {
        if (++skipped > 2) break;
        continue;
      }
    }
    // A price at the end of a line means the items have started.
    if (ADDRESS_STOP.test(text) || findDates(text).length || PHONE.test(text) || bareNumber(text) || /\d[.,]\d{2}$/.test(text)) break;
    // A registration number run into the first address line ("789117-W NO.53 ...") is not address.
    out.push(out.length === 0 ? text.replace(/^(?:[A-Z]*\d{5,}-?[A-Z]?\W?|\W*\d*-[A-Z]\b\W?|(?:company|co)\.?\s*(?:reg\.?\s*)?no\W*\s*[\w-]*\d[\w-]*)\s+/i, '') : text);
    if (out.length >= 5) break;
  }
  return out.length ? out.join(' ') : null;
}
