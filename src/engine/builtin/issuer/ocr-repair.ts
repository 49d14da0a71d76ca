// Repairs of a name or address read by OCR, where the evidence allows: the spaces it dropped
// ("ACMETRADINGSDNBHD" -> "ACME TRADING SDN BHD") and digits read for the letters they resemble
// ("Ja1an" -> "Jalan", "L0T" -> "LOT"). Text from a PDF's text layer is printed as it stands and is
// not given to these.
import { GLUED_TAILS } from './legal-forms.js';

/** Splits known name words off the end of one capitalised run-together word, keeping a stem of 3+ letters. */
function splitGluedWord(word: string): string {
  const tail: string[] = [];
  let rest = word;
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
  return text
    .replace(/(\p{L})\(/gu, '$1 (')
    .replace(/\)(\p{L})/gu, ') $1')
    .replace(/(\p{Ll}{3,})(?=\p{Lu}\p{Ll}{2,})/gu, '$1 ')
    .split(' ')
    .map((w) => (/^\p{Lu}{6,}$/u.test(w) ? splitGluedWord(w) : w))
    .join(' ');
}

/**
 * A 0 or 1 inside a word of letters is the O or l/I OCR took for a digit ("Ja1an", "J1n", "L0T"), as
 * is a 1 ending a capitalised lower-case word ("Leve1") and an l before a consonant starting a word ("lpoh");
 * in a name also a 0 ending a capitalised abbreviation ("C0." for "CO.").
 */
export function fixDigitsInWords(text: string, opts: { name: boolean }): string {
  let out = text.replace(/(?<=\p{L})[01](?=\p{L})/gu, (d, at: number, s: string) => {
    if (d === '0') return /\p{Ll}/u.test(s[at - 1]) && /\p{Ll}/u.test(s[at + 1]) ? 'o' : 'O';
    return /\p{Ll}/u.test(s[at + 1]) ? 'l' : 'I';
  });
  // A word in lower case does not end in a digit 1: it is an l ("Leve1 6").
  out = out.replace(/(?<=\p{Lu}\p{Ll}+)1(?![\p{L}\p{N}])/gu, 'l');
  // No word starts with a lower-case l and a consonant: it is a capital I ("Jalan lpoh").
  out = out.replace(/(?<![\p{L}\p{N}])l(?=[bcdfgkmnpqrstvwxz]\p{Ll})/gu, 'I');
  if (opts.name) out = out.replace(/(?<=(?:^|\s)\p{Lu}{1,3})0(?=\.)/gu, 'O');
  return out;
}
