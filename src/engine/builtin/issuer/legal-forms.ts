// Company legal forms of many countries and the common words of business names: they tell a company's
// name from other text, and let the spaces OCR dropped around them be put back (ocr-repair.ts).
import type { Line, Phrase } from '../../layout/lines.js';

/**
 * Forms that are not ordinary words, matched anywhere in a name as a word of their own (US/UK/IN/AU/SG,
 * DE/AT/CH, FR/BE/LU, ES/IT/PT/BR, NL, Nordic, CEE, Baltic, GR, TR, PE, VN, MY/ID, TH, JP, RU, BG, AL/MK, UAE).
 */
const STRONG_FORM =
  /(?:^|[\s,(&])(gmbh|mbh|m\.b\.h|ges\.?\s?m\.?b\.?h|kgaa|ltd|private\s+limited|proprietary\s+limited|limited|llc|l\.l\.c|inc|incorporated|corp|corporation|plc|llp|pllc|sarl|s\.à\s?r\.l|s\.a\.r\.l|sàrl|eurl|sasu|s\.a\.s|s\.a|s\.l|s\.p\.a|s\.r\.l|s\.r\.o|s\.n\.c|s\.l\.u|s\.coop|v\.o\.f|c\.v\.a|a\/s|aps|oyj|oy|bvba|b\.v|n\.v|sdn\.?\s*bhd|bhd|berhad|pte|pty|pvt|kft|zrt|ltda|lda|sp\.\s?z\s?[o0]\.\s?[o0]|sagl|d\.[o0]\.[o0]|k\.k|ooo|pjsc|jsc|tbk|e\.\s?k|ohg|gbr|dac|a\.s|spol\.\s?s\s?r\.o|a\.\s?e|o\.\s?e|e\.\s?e|a\.ş|tnhh|ltd\.?\s?şti|uab|oü|mtü|ehf|d\.d|eood|ood|ead|nyrt|i\.k\.e|e\.p\.e|fze|fzco|fz-llc|dmcc|sh\.p\.k|dooel|s\.r\.l\.s|eireli|sp\.\s?j|sp\.\s?k|v\.o\.s|s\.a\.c|e\.i\.r\.l|c\.\s?v|r\.\s?l|pcl|co\.|&\s?co)\.?(?=$|[\s,.)])/iu;

/**
 * Short forms that are also ordinary words or units ("AS", "SA", "KG"): only in capitals, ending the name; Estonia's
 * OÜ also as OCR reads it without its dots, in either case ("Raekoja Hotell ou").
 */
const WEAK_FORM = /\s(AG|KG|UG|SA|SL|SAS|SE|AS|ASA|AB|NV|BV|CV|CC|KK|SpA|SPA|Srl|SRL|SRO|PC|LP|Co|CO|OG|SARL|SNC|Snc|OÜ|OU|ou|AD|SIA|UAB|Ky|Tmi)\.?$/;

/** Words of business names that are not legal forms: a shop or trade, still a sign of a name. */
const TRADE_WORD =
  /\b(trading|traders|enterprise|enterprises|store|stores|restaurant|restoran|cafe|café|coffee|bakery|hotel|motel|shop|mart|market|supermarket|minimarket|pharmacy|apotheke|pharmacie|farmacia|farmacie|apteka|apotek|apotheek|apteekki|drogerie|taxi|taksi|bäckerei|konditorei|boulangerie|pâtisserie|panadería|panaderia|pastelaria|padaria|ferretería|ferreteria|supermercado|supermarché|kiosk|bistro|grill|kitchen|boutique|bookstore|hardware|stationery|electronics|services|solutions|consulting|industries|holdings|group|international|systems|technologies|partners|associates|agency|studio|clinic|motors|company)\b/i;

/** A form written with the words of the name run together by OCR: "LANHINGSTATIONERYSDNBHD". */
const GLUED_FORM = /(sdn\.?\s*bhd|bhd|berhad|gmbh|ltd|limited|llc|inc|corp|plc|sarl|enterprise|enterprises|trading|restaurant|hotel|supermarket|market|mart|store)\.?\)?$/i;

/** The name without its legal forms: "ACME Trading, Inc." -> "ACME Trading,". */
export const withoutLegalForm = (text: string): string =>
  text.replace(new RegExp(STRONG_FORM.source, 'gi'), ' ').replace(WEAK_FORM, '').trim();
/**
 * French forms are often printed before the name, as are Indonesia's PT and CV, Latvia's SIA, Lithuania's UAB and
 * Russia's OOO: "SAS Halles Distribution", "SELARL Pharmacie Lefèvre", "PT Kopi Senja Nusantara", "SIA Rīgas Maize".
 */
const LEADING_FORM = /^(?:SAS|SASU|SARL|SELARL|EURL|SCI|SNC|SCP|PT\.?|CV\.?|SIA|UAB|OOO)\s+\p{Lu}/u;
/** A Spanish graduate's title before a person's name ("Lda. Carmen Ruiz", a pharmacist), not Portugal's "Lda". */
const GRADUATE_TITLE = /^\s*ld[ao]\.\s+(?=\p{Lu})/iu;
/** An Irish county (or County Durham) in an address ("Naas, Co. Kildare"), whose "Co." is no company. */
const IRISH_COUNTY =
  /\bCo\.?\s+(?:Carlow|Cavan|Clare|Cork|Donegal|Dublin|Galway|Kerry|Kildare|Kilkenny|Laois|Leitrim|Limerick|Longford|Louth|Mayo|Meath|Monaghan|Offaly|Roscommon|Sligo|Tipperary|Waterford|Westmeath|Wexford|Wicklow|Antrim|Armagh|Down|Fermanagh|Londonderry|Derry|Tyrone|Durham)\b/giu;
export const hasLegalForm = (text: string): boolean => {
  const t = text.replace(GRADUATE_TITLE, '').replace(IRISH_COUNTY, '');
  return STRONG_FORM.test(t) || WEAK_FORM.test(t.trim()) || LEADING_FORM.test(t.trim());
};
export const hasTradeWord = (text: string): boolean => TRADE_WORD.test(text);
/** A legal form or a trade word, also glued to the name by OCR. */
export const looksLikeCompany = (text: string): boolean => hasLegalForm(text) || hasTradeWord(text) || GLUED_FORM.test(text);

/**
 * Words that end business names, longest first, as OCR glues them (without their spaces). Splitting
 * them off the end of a run-together word restores "LANHING STATIONERY SDN BHD".
 */
export const GLUED_TAILS = [
  'SDN BHD', 'PTE LTD', 'PTY LTD', 'PVT LTD', 'CORPORATION', 'INTERNATIONAL', 'ENTERPRISES', 'SUPERMARKET', 'ENTERPRISE', 'RESTAURANT',
  'ENGINEERING', 'ELECTRONICS', 'INDUSTRIES', 'STATIONERY', 'MARKETING', 'MACHINERY', 'HOLDINGS', 'HARDWARE', 'SERVICES', 'PHARMACY',
  'TRADING', 'LIMITED', 'COMPANY', 'BERHAD', 'BAKERY', 'MARKET', 'KITCHEN', 'COFFEE', 'STORE', 'HOTEL', 'GMBH', 'CAFE', 'BHD', 'LTD', 'LLC',
  'INC', 'PLC',
].map((spaced) => ({ glued: spaced.replace(' ', ''), spaced }));

/** A name cut after its last legal-form word: "Keller GmbH & Co. KG Bahnhofstraße 80" -> "Keller GmbH & Co. KG". */
export function cutAtLegalForm(text: string): string {
  const words = text.split(/\s+/);
  // A form printed first ("SARL Le Fournil", "PT Kopi Senja") leads the name, which does not end there.
  for (let i = words.length; i > 1; i--) if (isLegalFormWord(words[i - 1])) return words.slice(0, i).join(' ');
  return text;
}

/** One word that is a legal form: "GmbH", "Ltd.", "SAS". */
export const isLegalFormWord = (word: string): boolean => STRONG_FORM.test(` ${word}`) || WEAK_FORM.test(` ${word}`);

/** A name and its legal form that a wide space set apart as the next phrase ("Wistomar Technika Sp." | "z o.o."). */
export function withSplitForm(line: Line, p: Phrase): string {
  const next = line.phrases[line.phrases.indexOf(p) + 1];
  const joined = next ? `${p.text} ${next.text}` : p.text;
  return next && next.x0 - p.x1 < 1.5 * line.height && next.text.split(/\s+/).length <= 3 && !hasLegalForm(p.text) && hasLegalForm(joined) ? joined : p.text;
}
