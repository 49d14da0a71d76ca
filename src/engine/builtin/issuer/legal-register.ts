// The issuer's legal mentions: the statement, usually in the footer, that gives the company's capital,
// its commercial register entry or its registered office ("ACME SAS au capital de 10 000 €, RCS Paris",
// "ACME Ltd, registered in England No. 1234567", "ACME GmbH · Sitz Berlin · Amtsgericht HRB 123").
// The law asks them of the issuer, not of the buyer, so the name they open is the seller's legal name.
import type { Line } from '../../layout/lines.js';
import { cutAtLegalForm, hasLegalForm } from './legal-forms.js';

/** Words that only a company's own legal mention carries (English, French, German, Spanish, Italian, Dutch, Belgian RPR/KBO, Polish KRS, Estonian registrikood, Nordic, Indian CIN; Austria's Firmenbuch number `FN 287441 h`, Switzerland's `CHE-112.348.901`). */
const REGISTER_WORDS =
  /(?:^|[\s,;:(·•|–—−-])(?:au\s+capital|capital\s+social|share\s+capital|capital\s+of|r\.?c\.?s\.?|registre\s+du\s+commerce|siège\s+social|registered\s+(?:office|in|address)|company\s+registered|amtsgericht|registergericht|handelsregister|sitz(?:\s+der\s+gesellschaft)?|hrb|hra|registro\s+mercantil|registro\s+(?:delle\s+)?imprese|kvk|rpr|rpm|kbo|krs|registrikood|reg\.?\s*kood|cin|cap\.?\s*soc\.?|capitale\s+sociale|rea|org\.?\s*nr\.?|organisa(?:tion|sjon)snummer|foretaksregisteret|cvr(?:-?nr)?|y-tunnus|fn(?=\s*\d{4,6}\s?[a-z]\b)|che(?=-\d{3}\.\d{3}\.\d{3}))(?![\p{L}\p{N}])/iu;
/** A name run on into its legal mention ("SAS Trois Ormes au capital de 10 000 €"): the name with its legal form. */
export function withoutLegalMention(text: string): string {
  const at = REGISTER_WORDS.exec(text)?.index ?? 0;
  const head = text.slice(0, at).replace(/[\s,;:·•|–—−-]+$/u, '');
  return at > 0 && hasLegalForm(head) ? head : text;
}
/** A line that is a register entry itself ("RCS de Lyon n° 437 254 427", "HRB 6089"), not a name before one. */
export const isRegisterEntry = (text: string): boolean => REGISTER_WORDS.exec(text.trim())?.index === 0;

/**
 * The company that runs a shop or brand, named as such ("Operated by Kingsley Retail Services Ltd", "(A Unit
 * of Sri Annapoorna Foods)", "a division of …"): its legal name, legal form or not.
 */
const OPERATOR_WORDS = String.raw`(?:(?:owned\s+(?:&|and)\s+)?operated\s+by|a\s+(?:unit|division|subsidiary)\s+of|(?:is\s+)?a\s+trading\s+name\s+of)`;
export const OPERATOR_PREFIX = new RegExp(String.raw`^\W*${OPERATOR_WORDS}\b\s*:?\s*`, 'iu');
/** The operator's name, alone or ended by a register entry ("… is a trading name of ACME Care Limited, registered in Ireland"). */
const OPERATOR = new RegExp(String.raw`(?:^\W*|\s)${OPERATOR_WORDS}\s*:?\s+([^()]{4,60}?)\s*(?:\)|,|\s[·•|–—-]\s|$)`, 'iu');

/** Separators between the parts of a footer line ("ACME GmbH · Street 1 · Town", "ACME SAS − RCS Paris"). */
const PART_SEPARATOR = /\s+[-–—−·•●|]\s+|\s*[·•●|]\s*|,\s+/;

/**
 * The company name a legal mention opens: the first part of the line before the register words, when it
 * has a legal form ("Free SAS au capital de ..." -> "Free SAS"); or a line that is only such a name, when
 * the next line starts with the register words ("ACME Private Limited" over "Registered Office: ...").
 */
export function registeredName(line: Line, next: Line | undefined): string | null {
  const text = line.text.trim();
  const operator = OPERATOR.exec(text);
  if (operator && (operator.index === 0 || hasLegalForm(operator[1]))) return operator[1].trim();
  const at = REGISTER_WORDS.exec(text);
  if (at && at.index > 0) {
    // Running text after the form is not the name ("ACME Ltd is registered in England").
    // "Nordljus Konsult AB Tel. 08-411 87 20 Org.nr …": the name ends with its legal form.
    const name = cutAtLegalForm(text.slice(0, at.index).split(PART_SEPARATOR)[0].trim().replace(/(?:\s+\p{Ll}+)+$/u, ''));
    // A labelled part ("Bank: Northbank AG, Sitz Frankfurt") is another company's entry, not the opening name.
    return hasLegalForm(name) && !name.includes(':') ? name : null;
  }
  if (!at && next && next.page === line.page && REGISTER_WORDS.exec(next.text.trim())?.index === 0 && hasLegalForm(text) && text.split(/\s+/).length <= 6) return text;
  return null;
}
