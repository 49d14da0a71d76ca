// Greek and Cyrillic letters that look like Latin ones, read back as Latin on a Latin-script page.
// Scanner software that writes a text layer over a scan sometimes picks the wrong script for a
// glyph (a German receipt's "ZU ZAHLEN" came as "ZU ΖΑΗΙ-ΕΝ", "XXXX2825" as "ΧΧΧΧ2825"), and then no
// label, name or number matches what the page shows. Likewise the full-width forms of ASCII that a
// recogniser trained on Chinese too reads for brackets and colons ("MR D.I.Y. （M) SDN BHD").
import type { Word } from '../types.js';

const LATIN_OF: Record<string, string> = {
  // Greek
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  Ά: 'A', Έ: 'E', Ή: 'H', Ί: 'I', Ό: 'O', Ύ: 'Y', ο: 'o', ν: 'v', ι: 'i', ί: 'i', κ: 'k', ρ: 'p', υ: 'u', ό: 'o',
  // Cyrillic
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', Ѕ: 'S', І: 'I', Ј: 'J',
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', ѕ: 's', і: 'i', ј: 'j',
};

/** Share of a page's letters that must be Latin before its lookalikes are read as Latin. */
const LATIN_PAGE_SHARE = 0.75;

const LATIN = /\p{Script=Latin}/u;
const GREEK_OR_CYRILLIC = /[\p{Script=Greek}\p{Script=Cyrillic}]/u;
const ALL_GREEK_OR_CYRILLIC = new RegExp(GREEK_OR_CYRILLIC.source, 'gu');
/** Full-width "！" to "～", the ASCII characters "!" to "~" 0xFEE0 code points up. */
const ALL_FULL_WIDTH = /[\uFF01-\uFF5E]/g;
const asciiOf = (ch: string): string => String.fromCharCode(ch.charCodeAt(0) - 0xfee0);

/**
 * The words of a page whose letters are at least three quarters Latin, with each word that mixes in Greek or
 * Cyrillic lookalikes spelt in Latin and full-width characters read as ASCII. A word with any Greek or
 * Cyrillic letter that has no Latin twin (Σ, Ω, Д, a real Greek or Russian word) is kept as printed,
 * and so is every word of a page in other scripts.
 */
export function readLookalikesAsLatin(words: Word[]): Word[] {
  let latin = 0;
  let other = 0;
  for (const w of words) {
    for (const ch of w.text) {
      if (LATIN.test(ch)) latin++;
      else if (GREEK_OR_CYRILLIC.test(ch)) other++;
    }
  }
  if (latin === 0 || latin < LATIN_PAGE_SHARE * (latin + other)) return words;
  return words.map((w) => {
    let text = w.text.replace(ALL_FULL_WIDTH, asciiOf);
    const foreign = text.match(ALL_GREEK_OR_CYRILLIC);
    if (foreign?.every((ch) => ch in LATIN_OF)) text = text.replace(ALL_GREEK_OR_CYRILLIC, (ch) => LATIN_OF[ch]);
    return text === w.text ? w : { ...w, text };
  });
}
