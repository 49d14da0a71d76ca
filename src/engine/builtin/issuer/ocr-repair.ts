// Repairs of a name or address read by OCR, where the evidence allows: the spaces it dropped
// ("ACMETRADINGSDNBHD" -> "ACME TRADING SDN BHD") and digits read for the letters they resemble
// ("Ja1an" -> "Jalan", "L0T" -> "LOT"), and in addresses letters read for digits inside numbers
// ("1B51-B" -> "1851-B"). Text from a PDF's text layer is printed as it stands and is not given to these.
import { GLUED_TAILS } from './legal-forms.js';
import { isStreetWord } from './line-signs.js';

/**
 * Spaces OCR put inside brackets and before closing punctuation ("( TESCO )", "Lumpur . MALAYSIA"):
 * print sets none there.
 */
function tidyPunctuation(text: string): string {
  return text
    .replace(/\(\s+/g, '(')
    .replace(/\s+\)/g, ')')
    .replace(/\s+([,.;:])(?=\s|$)/g, '$1');
}

/** Splits known name words off the end of one capitalised run-together word, keeping a stem of 3+ letters. */
function splitGluedWord(word: string): string {
  const tail: string[] = [];
  let rest = word;
  // A glued "CO." only after another name word ("…COFFEECO."): "COSTCO." and "MEXICO." are words.
  const co = rest.slice(0, -3);
  if (rest.endsWith('CO.') && GLUED_TAILS.some(({ glued }) => co.length - glued.length >= 3 && co.endsWith(glued))) {
    tail.push('CO.');
    rest = co;
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const { glued, spaced } of GLUED_TAILS) {
      if (rest.length - glued.length >= 3 && rest.endsWith(glued)) {
        tail.unshift(spaced);
        rest = rest.slice(0, -glued.length);
        changed = true;
        break;
      }
    }
  }
  return [rest, ...tail].join(' ');
}

/**
 * Puts back the spaces OCR dropped in a name, where the evidence allows: around brackets glued to
 * words, at lower-to-upper case boundaries between words of 3+ letters ("AcmeTrading"), and before the
 * known words that end business names ("ACMETRADINGSDNBHD"). Text read from a PDF's text layer is
 * printed as it stands and is not given to this.
 */
export function restoreSpacing(text: string): string {
  return tidyPunctuation(text)
    .replace(/(\p{L})\(/gu, '$1 (')
    .replace(/\)(\p{L})/gu, ') $1')
    .replace(/(\p{Ll}{3,})(?=\p{Lu}\p{Ll}{2,})/gu, '$1 ')
    // A legal form in capitals glued to the name before it ("Petit PontSAS", "NorthwindLTD").
    .replace(/(\p{Ll}{2,})(?=(?:SAS|SARL|SA|GMBH|GmbH|AG|LTD|Ltd|LLC|INC|Inc|BV|NV|AB|SRL|SPA|PLC)(?![\p{L}\p{N}]))/gu, '$1 ')
    .split(' ')
    .map((w) => (/^\p{Lu}{6,}\.?$/u.test(w) ? splitGluedWord(w) : w))
    .join(' ');
}

/**
 * A 0 or 1 inside a word of letters is the O or l/I OCR took for a digit ("Ja1an", "J1n", "L0T"), as
 * is a 1 ending a capitalised lower-case word ("Leve1") and an l before a consonant starting a word ("lpoh");
 * in a name also a 0 ending a capitalised abbreviation ("C0." for "CO.").
 */
const UNIT = /^(?:kg|mg|ml|cl|mm|cm|km|lb|lbs|oz|pcs|min|sec|hrs|kwh|gal)$/i;

export function fixDigitsInWords(text: string, opts: { name: boolean }): string {
  // Two zeros between letters are two O's ("F00D" in a monospaced font).
  let out = text.replace(/(?<=\p{L})00(?=\p{L})/gu, (z, at: number, s: string) => (/\p{Ll}/u.test(s[at - 1]) ? 'oo' : 'OO'));
  out = out.replace(/(?<=\p{L})[01](?=\p{L})/gu, (d, at: number, s: string) => {
    if (d === '0') return /\p{Ll}/u.test(s[at - 1]) && /\p{Ll}/u.test(s[at + 1]) ? 'o' : 'O';
    return /\p{Ll}/u.test(s[at + 1]) ? 'l' : 'I';
  });
  // A 5 between lower-case letters is an s ("Cre5cent"); a 0 before lower-case letters starts a capitalised
  // word ("0ak Grove", "0slo"), unless they are a unit ("0kg"); P.0. Box is a post office box.
  out = out.replace(/(?<=\p{Ll})5(?=\p{Ll})/gu, 's');
  out = out.replace(/(?<![\p{L}\p{N}.,])0(?=(\p{Ll}{2,}))/gu, (z, rest: string) => (UNIT.test(rest) ? z : 'O'));
  out = out.replace(/(?<![\p{L}\p{N}])P\.\s?0\.(?=\s?B[O0o]x)/gu, 'P.O.');
  // A word in lower case does not end in a digit 1: it is an l ("Leve1 6").
  out = out.replace(/(?<=\p{Lu}\p{Ll}+)1(?![\p{L}\p{N}])/gu, 'l');
  // No word starts with a lower-case l and a consonant: it is a capital I ("Jalan lpoh").
  out = out.replace(/(?<![\p{L}\p{N}])l(?=[bcdfgkmnpqrstvwxz]\p{Ll})/gu, 'I');
  if (opts.name) out = out.replace(/(?<=(?:^|\s)\p{Lu}{1,3})0(?=\.)/gu, 'O');
  return out;
}

/**
 * Malaysian companies write "(M)" before "Sdn Bhd" / "Berhad"; OCR reads that M as H, N, W or IVI
 * ("MR D.I.Y. (H) SDN BHD"). No other letter stands there.
 */
function fixCountryMark(text: string): string {
  // Poland's "Sp. z o.o." with zeros read for its o's.
  text = text.replace(/(?<=\bsp\.\s?z\s?)[o0]\.\s?[o0]\./giu, (form) => form.replaceAll('0', 'o'));
  // The Balkans' "d.o.o." likewise.
  text = text.replace(/(?<=\bd\.)[o0]\.[o0]\.?(?!\p{L})/giu, (form) => form.replaceAll('0', 'o'));
  // Malaysia's "SDN BHD" with its D read as an O ("SON BHD"), or its S as a 5; not "& SON BHD", a family firm.
  text = text.replace(/(?<!&\s*|\bAND\s*)\b(?:S[O0]N|5DN|5[O0]N)(?=\.?\s*BHD\b)/gu, 'SDN').replace(/(?<!&\s*|\band\s*)\bSon(?=\.?\s*Bhd\b)/gu, 'Sdn');
  return text.replace(/\((?:H|N|W|HM|NM|IVI|IYI)\)(?=\s*(?:SDN\.?\s*BHD|BHD|BERHAD)\b)/giu, '(M)');
}

/** A business name read by OCR with the spaces, letters and marks it lost put back where the evidence allows. */
export function repairNameText(text: string): string {
  // A mark before the name is a speck or a logo's edge read as text ("~ KEDAI …").
  text = text.replace(/^[~_=*|•·\-–—.,:;]+\s*/u, '');
  return restoreSpacing(fixCountryMark(fixDigitsInWords(fixLowerLL(text), { name: true })));
}

/**
 * "ll" alone is no word: OCR read a capital I as l, the Italian article before a name ("Hotel ll
 * Girasole" -> "Hotel Il Girasole") or a roman two after one ("Louis ll" -> "Louis II").
 */
function fixLowerLL(text: string): string {
  return text.replace(/(?<=\s)ll(?=\s|$)/g, (_, at: number) => (/^\s+\p{Lu}/u.test(text.slice(at + 2)) ? 'Il' : 'II'));
}

/** Digits OCR reads for the letters they resemble, and the letters they may stand for. */
const LETTERS_OF_DIGIT: Record<string, string[]> = { '0': ['O'], '1': ['L', 'I'], '5': ['S'], '8': ['B'] };
/** Letters OCR reads for the digits they resemble. */
const DIGIT_OF_LETTER: Record<string, string> = { B: '8', O: '0', D: '0', Q: '0', C: '0', I: '1', l: '1', S: '5', Z: '2' };

/** All readings of a word with each digit that resembles a letter read as one. */
function letterReadings(word: string): string[] {
  let out = [''];
  for (const ch of word) out = out.flatMap((o) => (LETTERS_OF_DIGIT[ch] ?? [ch]).map((l) => o + l));
  return out;
}

/**
 * A capitalised word of letters and digits that reads as a street word once its digits are read as
 * the letters they resemble ("10T" -> "LOT", "8LK" -> "BLK"); numbers and codes that read as no
 * street word keep their digits.
 */
function fixStreetWords(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}])[\p{Lu}0158]{2,8}(?![\p{L}\p{N}])/gu, (w) => {
    if (!/\d/.test(w) || !/\p{L}/u.test(w)) return w;
    return letterReadings(w).find(isStreetWord) ?? w;
  });
}

/**
 * A letter between two digits of a number ("1B51-B", "433C0") is the digit OCR took for it: only in
 * a run of at least three digits and no other letter, so codes that mix letters and digits ("U5",
 * "SS21", "K1A0B1") keep their letters.
 */
export function fixLettersInNumbers(text: string): string {
  return text.replace(/[\p{L}\p{N}]+/gu, (run) => {
    if ((run.match(/\p{L}/gu) ?? []).length !== 1 || (run.match(/\d/g) ?? []).length < 3) return run;
    return run.replace(/(?<=\d)[BODQCIlSZ](?=\d)/u, (c) => DIGIT_OF_LETTER[c]);
  });
}

/**
 * A postcode run together with the town before or after it ("55100KUALA LUMPUR", "TAMPOI81200"): a
 * number of 4-6 digits and a word of 3+ letters are two words. Shorter numbers and letter runs are
 * codes and units ("SS22", "2PCS", "40ML"), longer numbers ids ("ATU57991999"), and stay whole.
 */
function splitGluedPostcodes(text: string): string {
  return text
    .replace(/(?<![\p{L}\p{N}])(\d{4,6})(?=\p{L}{3,})/gu, '$1 ')
    .replace(/(?<![\p{L}\p{N}])(\p{L}{3,})(?=\d{4,6}(?![\p{L}\p{N}]))/gu, '$1 ');
}

/**
 * Postcodes and state codes with a letter and a digit confused: an l or O ending a number ("7501l", "8110O"), the l
 * of a UK postcode's district ("HGl 1HS"), the O of a US state read as 0 before its ZIP ("0R 97214", "C0 80302").
 */
function fixPostcodes(text: string): string {
  return text
    .replace(/(?<=\d{3})l(?![\p{L}\p{N}])/gu, '1')
    .replace(/(?<![\p{L}\p{N}])([A-Z]{1,2})l(?=[A-Z\d]?\s\d[A-Z]{2}(?![\p{L}\p{N}]))/gu, '$11')
    .replace(/(?<![\p{L}\p{N}])0(?=[HKR]\s+\d{5}(?:-\d{4})?(?!\d))/gu, 'O')
    .replace(/(?<![\p{L}\p{N}])C0(?=\s+\d{5}(?:-\d{4})?(?!\d))/gu, 'CO')
    // A Canadian province and postal code (letter, digit, letter, digit, letter, digit) with O and 0, I and 1
    // confused: "Toronto 0N M6J 1J2", "Calgary AB T2A OR1".
    .replace(/(?<![\p{L}\p{N}])0N(?=\s+[A-Z][0-9OIl][A-Z0]\s?[0-9OIl][A-Z0][0-9OIl](?![\p{L}\p{N}]))/gu, 'ON')
    .replace(
      /(?<=(?:^|\s)(?:AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT)\s+)([A-Z])([0-9OIl])([A-Z0])(\s?)([0-9OIl])([A-Z0])([0-9OIl])(?![\p{L}\p{N}])/gu,
      (_all, a: string, b: string, c: string, sp: string, d: string, e: string, f: string) => {
        const digit = (x: string) => x.replace(/O/g, '0').replace(/[Il]/g, '1');
        const letter = (x: string) => x.replace(/0/g, 'O');
        return `${a}${digit(b)}${letter(c)}${sp}${digit(d)}${letter(e)}${digit(f)}`;
      },
    )
    // A house number ending in an l before its street ("21l Brunswick St"): a lower-case l is no house letter.
    .replace(/(?<![\p{L}\p{N}])(\d{1,4})l(?=\s+\p{Lu}\p{Ll})/gu, '$11')
    // An Australian state before its postcode in a case no one prints ("VIc 3065", "NsW 2000"): in capitals.
    .replace(/(?<![\p{L}\p{N}])(nsw|vic|qld|tas)(?=\s+\d{4}(?!\d))/giu, (state: string) =>
      /^(?:\p{Lu}+|\p{Lu}\p{Ll}+|\p{Ll}+)$/u.test(state) ? state : state.toUpperCase(),
    )
    // A UK postcode whose space OCR lost ("LE167NJ" is LE16 7NJ).
    .replace(/(?<![\p{L}\p{N}])([A-Z]{1,2}\d[A-Z\d]?)(\d[A-Z]{2})(?![\p{L}\p{N}])/gu, '$1 $2')
    // A capital O read as 0 before the small letters of a word ("0rlando"), or starting a word in
    // capitals ("W 0AK BLVD"; not a unit, "0KG").
    .replace(/(?<![\p{L}\p{N}])0(?=\p{Ll}{3,})/gu, 'O')
    .replace(/(?<![\p{L}\p{N}.,])0(?=(\p{Lu}{2,})(?![\p{L}\p{N}]))/gu, (z, rest: string) => (UNIT.test(rest) ? z : 'O'))
    // A unit's number read with an O for its first 0 ("#O1-05").
    .replace(/(?<=#)O(?=\d)/gu, '0')
    // ... and a postcode's last zeros read as O before its town ("8110O JOHOR BAHRU", "812OO JOHOR").
    .replace(/(?<![\p{L}\p{N}])(\d{2,4})([Oo]{1,2})(?=,?\s+\p{L}{3,})/gu, (all, digits: string, os: string) =>
      digits.length + os.length >= 4 && digits.length + os.length <= 6 ? digits + '0'.repeat(os.length) : all,
    );
}

/** The recogniser knows no ß: "BahnhofstraBe 12", "HAUPTSTRA8E" are Bahnhofstraße, HAUPTSTRASSE. */
function fixEszett(text: string): string {
  return text
    .replace(/(?<=\p{Ll})stra[B8]e(?!\p{L})/gu, 'straße')
    .replace(/(?<![\p{L}\p{N}])Stra[B8]e(?!\p{L})/gu, 'Straße')
    .replace(/(?<=\p{Lu})STRA[B8]E(?!\p{L})/gu, 'STRASSE');
}

/** An address row read by OCR with its letters and digits put back where each belongs. */
export function repairAddressText(text: string): string {
  return tidyPunctuation(splitGluedPostcodes(fixPostcodes(fixLettersInNumbers(fixStreetWords(fixDigitsInWords(fixEszett(text), { name: false }))))));
}
