// Picks the party a field asks for: the seller's name from the evidence of the whole first page
// (letterhead.ts), the buyer's or ship-to name from its printed block, and either's address from the
// rows under the name. Returns the winner's score and its margin over the runner-up, from which a
// confidence can be made.
import type { Line, Phrase } from '../../layout/lines.js';
import { isMark, readByOcr } from '../../layout/lines.js';
import type { Candidate } from '../label-candidates.js';
import { tokenize } from '../vocabulary.js';
import { addressedPerson, ATTENTION, cleanName, cuedCandidates, givenNameAlone, issuerCandidates, joinNameAbove, joinNameBelow, nameEvidence, recipientWindow, senderLineAddress, type NameCandidate } from '../letterhead.js';
import { cutAtLegalForm, hasLegalForm, withoutLegalForm } from './legal-forms.js';
import { restoreSpacing } from './ocr-repair.js';
import { blockOf, findCues, labelNamesParty, rideLeg, type Cue, type PartyAsk } from './party-cues.js';
import { readAddress, rowsUnder, type PartyAddress } from './party-address.js';

/** An amount with cents: a row of items or totals. */
const PRICE = /\d[.,]\d{2}(?!\d)/;
const PRICES = new RegExp(PRICE.source, 'g');
/** Lines at the top of a page that may head its letterhead. */
const LETTERHEAD_LINES = 6;

export interface PartyPick {
  value: string;
  /** The winning candidate's evidence score (about -1..2.5; over 1 is a name with strong evidence). */
  score: number;
  /** Winner's score minus the best candidate with another text; the score itself when there is none. */
  margin: number;
  /**
   * OCR confidence of the value's words, 0..1 (1 for a text layer): for a name its least sure word (a
   * misread letter is in one of its few words), for an address the mean (its least sure word is
   * often a comma or an ampersand).
   */
  readConf: number;
  /** OCR ran the name's words together (spacing restored) or an address read is in doubt (party-address.ts). */
  doubtful: boolean;
}

const fold = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * The best candidate and its margin over the best rival (a candidate that is not a piece of the same
 * name, nor the same company with another legal form). The same company printed twice, with and without its legal form ("ACME Trading" in the
 * letterhead, "ACME Trading, Inc." in the small print), is given as printed highest on the page where
 * it still reads as a name (a positive score), however much stronger the evidence of the other print.
 */
function best(cands: NameCandidate[]): { top: NameCandidate; margin: number } | null {
  const sorted = [...cands].sort((a, b) => b.score - a.score);
  const first = sorted[0];
  if (!first) return null;
  const f = fold(first.text);
  const entity = fold(withoutLegalForm(first.text));
  const rival = sorted.find((c) => !f.includes(fold(c.text)) && !fold(c.text).includes(f) && fold(withoutLegalForm(c.text)) !== entity);
  // With no candidate of a positive score, the best one as it is.
  const top = sorted.filter((c) => c.score > 0 && fold(withoutLegalForm(c.text)) === entity).sort((a, b) => a.line.index - b.line.index)[0] ?? first;
  return { top: { ...top, score: first.score }, margin: rival ? first.score - rival.score : Math.max(0, first.score) };
}

/** The label's own phrase holds a number of four digits or more: an id beside the label, its value. */
const idBeside = (c: Candidate): boolean =>
  c.labelLine.phrases.some((p) => /\d{4}/.test(p.text) && tokenize(p.text).includes(c.labelTokens[0] ?? ''));

/**
 * Values printed after the field's own label words ("Vendor: ACME Ltd"), as names: a value that does not
 * read as a name (a document title under a word that merely starts with "shop") drops out.
 */
function labelledNames(lines: Line[], labelled: Candidate[]): NameCandidate[] {
  const out: NameCandidate[] = [];
  for (const c of labelled) {
    if (c.value.kind !== 'text') continue;
    // A label with its value beside it ("Vendeur: Paul", a terminal's "Merchant : 000144782") does not label the line under it too.
    if (c.source === 'below' && (labelled.some((o) => o.labelLine === c.labelLine && (o.source === 'inline' || o.source === 'right')) || idBeside(c))) continue;
    // "FROM Sunshine Coast Apt" on a taxi's or a ticket's receipt names where the trip began: "from" names a
    // party only with its colon, as a cue.
    // Nor is "From: Sydney Airport T1" over "To: …" on a ride's receipt.
    if (c.labelTokens[0] === 'from' && ((c.labelTokens.length === 1 && !/^\W*from\s*:/i.test(c.labelLine.text)) || rideLeg(lines, c.labelLine.index))) continue;
    // A word in a priced item row ("Frontend-Entwicklung, Onlineshop-Modul 31,75 Std. 85,00 €") labels nothing.
    if ((c.labelLine.text.match(PRICES) ?? []).length >= 2) continue;
    const text = cleanName(c.value.value, readByOcr(c.line));
    if (text) out.push({ text, line: c.line, score: c.score + (givenNameAlone(text) ? -0.3 : 0.4) + nameEvidence(text, c.line), x0: c.line.x0, x1: c.line.x1 });
  }
  return out;
}

const confs = (lines: Line[]): number[] => lines.flatMap((l) => l.words.map((w) => w.conf ?? 100));
/**
 * The least sure word of a name as printed on its line (the whole line when cleaning changed it): not a
 * logo read as letters beside it, nor marks (`&`, `**`), read with little confidence whatever the letters.
 */
function leastConf(name: NameCandidate): number {
  const start = name.line.text.indexOf(name.text);
  let at = 0;
  const confs: number[] = [];
  for (const w of name.line.words) {
    const inName = start < 0 || (at < start + name.text.length && at + w.text.length > start);
    if (inName && !isMark(w)) confs.push(w.conf ?? 100);
    at += w.text.length + 1;
  }
  return Math.min(100, ...confs) / 100;
}
const meanOf = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length / 100 : 1);
/**
 * OCR ran the name's words into one (a word of 12+ letters that splits into known name words,
 * "ACMETRADINGSDNBHD"): the recogniser lost the spacing of a tightly printed line, where it also
 * drops letters more often.
 */
const gluedName = (name: NameCandidate): boolean =>
  name.line.words.some((w) => w.conf !== undefined && /\p{L}{12}/u.test(w.text) && restoreSpacing(w.text) !== w.text && name.text.includes(restoreSpacing(w.text).split(' ')[0]));

function partyName(lines: Line[], ask: PartyAsk, labelled: Candidate[]): { name: NameCandidate; margin: number } | null {
  const first = lines.filter((l) => l.page === lines[0]?.page);
  const cues = findCues(first);
  if (ask.party !== 'seller') {
    // Only labels that name the party: "Description" over an item is no customer's name.
    const own = [...cuedCandidates(lines, cues.filter((c) => c.party === ask.party)), ...labelledNames(lines, labelled.filter((c) => labelNamesParty(c.labelTokens, ask.party)))];
    const b = best(own.length || ask.party !== 'buyer' ? own : unlabelledBuyers(lines, first, cues));
    return b && { name: b.top, margin: b.margin };
  }
  // The buyer's and ship-to blocks, with their cue lines, and an address window are not the seller's name.
  const buyerZone = new Set<Phrase>(recipientWindow(first));
  // A person addressed by a form of address ("Sr. Rui Gonçalves", "Herrn Max Muster") heads the buyer's block as a cue would.
  const addressees: Cue[] = first.flatMap((line) => line.phrases.filter((phrase) => addressedPerson(phrase.text)).map((phrase) => ({ party: 'buyer' as const, inline: null, line, phrase })));
  for (const c of [...cues.filter((c) => c.party !== 'seller'), ...addressees]) {
    buyerZone.add(c.phrase);
    // The name beside a cue without a colon ("Bill to   Nordlicht Reisen GmbH") is the party's too.
    const beside = c.line.phrases[c.line.phrases.indexOf(c.phrase) + 1];
    if (!c.inline && beside && beside.x0 - c.phrase.x1 < 8 * c.line.height) buyerZone.add(beside);
    for (const b of blockOf(lines, c)) {
      // A person's block is a name and an address: the first row with a price is an item, and what follows is no longer theirs.
      if (addressees.includes(c) && PRICE.test(b.line.text)) break;
      b.phrases.forEach((p) => buyerZone.add(p));
    }
    // An attention line stands under the name of the company it is addressed to ("ACME GmbH" / "z. Hd. Frau Roe").
    if (ATTENTION.test(c.phrase.text)) {
      const above = first.find((l) => l.index === c.line.index - 1)?.phrases.find((p) => Math.abs(p.x0 - c.phrase.x0) < 2 * c.line.height);
      if (above) buyerZone.add(above);
    }
  }
  // The buyer's name printed again elsewhere (over its address at the top, as "Subscriber: ...") is still the buyer's.
  const buyerNames = new Set(cuedCandidates(lines, cues.filter((c) => c.party !== 'seller')).map((c) => fold(c.text)));
  const cands = [...issuerCandidates(lines, cues.filter((c) => c.party === 'seller'), buyerZone), ...labelledNames(lines, labelled)];
  // A name a seller cue gives that is printed on another line too (the letterhead's "Clachan" and the
  // footer's "Thank you for visiting Clachan") is the issuer's more surely than either alone.
  const cueLines = new Set(cues.filter((c) => c.party === 'seller').map((c) => c.line.index));
  const linesOf = new Map<string, Set<number>>();
  for (const c of cands) linesOf.set(fold(c.text), (linesOf.get(fold(c.text)) ?? new Set()).add(c.line.index));
  const repeated = (c: NameCandidate) => {
    const at = linesOf.get(fold(c.text)) ?? new Set<number>();
    return at.size >= 2 && [...at].some((i) => cueLines.has(i));
  };
  // A short name whose legal name is printed elsewhere starting with it ("Contas Certas" in the
  // letterhead, "Contas Certas - Contabilidade e Gestão, Lda." over the footer's NIF) is the issuer's.
  const legalElsewhere = (c: NameCandidate) =>
    !hasLegalForm(c.text) &&
    fold(c.text).length >= 5 &&
    // Printed apart from it: a legal line right under a brand is legalLineUnder's.
    // Not one under the seller's cue ("Dodávateľ:" / "TECHNOSERVIS Žilina, s.r.o."): that one answers for the seller itself.
    cands.some((d) => Math.abs(d.line.index - c.line.index) > 2 && hasLegalForm(d.text) && !cands.some((e) => e.cued && fold(e.text) === fold(d.text)) && fold(d.text).startsWith(fold(c.text)));
  // A name in the address window under a sender line is the addressee's, whatever stands beside it.
  const window = recipientWindow(first);
  const addressee = (c: NameCandidate) => c.line.phrases.some((p) => window.includes(p) && p.x0 < c.x1 && p.x1 > c.x0);
  const scored = cands.map((c) =>
    buyerNames.has(fold(c.text)) || addressee(c) ? { ...c, score: c.score - 0.9 } : repeated(c) || legalElsewhere(c) ? { ...c, score: c.score + 0.3 } : c,
  );
  const b = best(scored);
  // The legal name under a brand is not one that takes in the buyer's block beside it.
  const clear = scored.filter((c) => !c.line.phrases.some((p) => buyerZone.has(p) && p.x0 < c.x1 && p.x1 > c.x0));
  return b && { name: tradingAs(lines, wholeNameElsewhere(lines, joinNameBelow(lines, joinNameAbove(lines, legalLineUnder(lines, b.top, clear))), scored)), margin: b.margin };
}

/** "Thomas Briggs t/a Briggs Joinery" (also as OCR reads it, "ta"): who trades under the name. */
const TRADING_AS = /^(\p{Lu}[\p{L}.'’ -]{2,60}?)\s+(?:t\/?a|trading\s+as)\.?\s+(.+)$/iu;

/** The person or company trading under the chosen name, where a line says so: the seller in law. */
function tradingAs(lines: Line[], chosen: NameCandidate): NameCandidate {
  const name = nameTokens(chosen.text).join(' ');
  for (const l of lines) {
    if (l.page !== chosen.line.page || l.index > chosen.line.index + 3) continue;
    const m = TRADING_AS.exec(l.text.trim());
    if (m && nameTokens(m[2]).join(' ') === name) return { ...chosen, text: m[1].trim() };
  }
  return chosen;
}

const nameTokens = (s: string): string[] => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/**
 * A legal name broken over a logo's lines ("B Bergmann" / "Haustechnik AG") and printed whole elsewhere
 * (the payment slip's "Bergmann Haustechnik AG"): the whole name, when the words it adds stand on the line over the part.
 */
function wholeNameElsewhere(lines: Line[], chosen: NameCandidate, cands: NameCandidate[]): NameCandidate {
  const above = lines.find((l) => l.page === chosen.line.page && l.index === chosen.line.index - 1);
  if (!above || !hasLegalForm(chosen.text)) return chosen;
  const part = nameTokens(chosen.text);
  const aboveWords = new Set(nameTokens(above.text));
  const whole = cands.find((d) => {
    const w = nameTokens(d.text);
    const extra = w.slice(0, w.length - part.length);
    // The words added are a name's, capitalised ("Bergmann"), not a signature's "for" ("for Anand Textiles Private Limited").
    const capitalised = d.text.split(/\s+/).slice(0, extra.length).every((x) => /^\p{Lu}/u.test(x));
    return d.line !== chosen.line && hasLegalForm(d.text) && extra.length >= 1 && extra.length <= 3 && capitalised && w.slice(extra.length).join(' ') === part.join(' ') && extra.every((x) => aboveWords.has(x));
  });
  return whole ? { ...chosen, text: whole.text } : chosen;
}

/** A form of address alone on its line over the name ("Herrn", "Frau", "Firma", "Madame", "Spett.le"). */
const SALUTATION = /^\W*(?:herrn?|frau|firma|familie|mr|mrs|ms|messrs|monsieur|madame|mme|sr|sra|spett\.?le|spettabile|exmos?|exma)\W*$/i;

/**
 * The buyer's name where no cue or label names it: the first line of the recipient's address window
 * (under a sender line), else a name over an address block in the page's upper half that is not the
 * seller's nor another cued party's. Weak evidence: these score below a cued name.
 */
function unlabelledBuyers(lines: Line[], first: Line[], cues: Cue[]): NameCandidate[] {
  const out: NameCandidate[] = [];
  const window = recipientWindow(first);
  for (const l of first) {
    const p = l.phrases.find((ph) => window.includes(ph));
    const text = p && !SALUTATION.test(p.text) && cleanName(p.text, readByOcr(l));
    if (p && text) {
      out.push({ text, line: l, score: 0.9 + nameEvidence(text, l), x0: p.x0, x1: p.x1 });
      break;
    }
  }
  if (out.length) return out;
  const seller = partyName(lines, { party: 'seller', part: 'name' }, []);
  const taken = new Set<Phrase>(cues.flatMap((c) => [c.phrase, ...blockOf(lines, c).flatMap((b) => b.phrases)]));
  const sellerLines = new Set<Line>();
  if (seller) {
    sellerLines.add(seller.name.line);
    readAddress(rowsUnder(lines, seller.name))?.rows.forEach((r) => sellerLines.add(r.line));
  }
  for (const l of first) {
    if (l.y0 > l.pageHeight / 2 || sellerLines.has(l)) continue;
    for (const p of l.phrases) {
      const text = !taken.has(p) && !SALUTATION.test(p.text) && cleanName(p.text, readByOcr(l));
      if (!text || (seller && fold(text) === fold(seller.name.text))) continue;
      if (!readAddress(rowsUnder(lines, { line: l, x0: p.x0, x1: p.x1 }, 4))) continue;
      out.push({ text, line: l, score: 0.5 + nameEvidence(text, l), x0: p.x0, x1: p.x1 });
    }
  }
  return out;
}

/**
 * A name found at the foot of its page ("Thanks for shopping at ACME Market") has no address under it:
 * the address is the letterhead's, the first one under any of the page's top lines (a logo's words,
 * misread, may stand over it on lines of their own). So is the address over a legal line under the
 * brand ("ASHBY ROAD POST OFFICE" / "212 Ashby Road" / … / "Operated by Kingsley Retail Services Ltd").
 */
function letterheadAddress(lines: Line[], name: NameCandidate): PartyAddress | null {
  const page = lines.filter((l) => l.page === name.line.page);
  const foot = page.indexOf(name.line) >= page.length / 2;
  for (const top of page.slice(0, LETTERHEAD_LINES)) {
    const address = readAddress(rowsUnder(lines, { line: top, x0: top.x0, x1: top.x1 }));
    if (address && (foot || address.rows.every((r) => r.line.index < name.line.index))) return address;
  }
  return null;
}

/**
 * A brand over the legal name ("THE LUMEN" over "Lumen Hospitality Pte Ltd", "MARCHE DES HALLES" over
 * "SAS Halles Distribution"): a name without a legal form whose next line in its column, or the one after, is a name
 * with one gives that legal name.
 */
function legalLineUnder(lines: Line[], top: NameCandidate, cands: NameCandidate[]): NameCandidate {
  // "& Co." ends trading names too ("PAGES & CO." over "Pages and Company Pty Ltd").
  if (hasLegalForm(top.text) && !/&\s?co\.?$/i.test(top.text.trim())) return top;
  // The legal line shares a word with the brand, or stands right under it, aligned: the buyer's name
  // two lines down in another column is no legal name of the brand.
  const under = cands.filter(
    (c) =>
      c.line.page === top.line.page &&
      c.line.index > top.line.index &&
      // Right under it in its column: at most one line between (a logo's second line), whatever stands in the column beside.
      lines.filter((l) => l.page === c.line.page && l.index > top.line.index && l.index < c.line.index && l.phrases.some((p) => p.x0 < c.x1 && p.x1 > c.x0)).length <= 1 &&
      c.line.y0 - top.line.y1 < 4 * top.line.height &&
      c.score > 0 &&
      hasLegalForm(c.text) &&
      // In the brand's column: a logo's second line beside a sender block shares its words but is no legal line of it.
      c.x0 < top.x1 &&
      c.x1 > top.x0 &&
      (sharesWord(c.text, top.text) ||
        (c.line.index === top.line.index + 1 && Math.abs(c.x0 - top.x0) < 2 * top.line.height) ||
        // Or with the logo's second line between them ("TAXI" / "LJUBLJANICA" / "Ljubljanica prevozi d.o.o.").
        cands.some((m) => m.line.index > top.line.index && m.line.index < c.line.index && !hasLegalForm(m.text) && sharesWord(c.text, m.text))),
  );
  const legal = under.length ? under.reduce((a, b) => (b.score > a.score ? b : a)) : null;
  // A brand in the letterhead ("HOTEL BELLAVISTA FIRENZE") whose legal mention in the footer names the
  // company ("Bellavista Ospitalità S.r.l. · REA … · Cap. soc. …"): the legal name.
  // The same name with its form added ("Nimbus" / "Nimbus SAS") stays as the letterhead prints it (see best()).
  const entity = fold(withoutLegalForm(top.text));
  // The mention may name the brand beside the company ("Asteria Suites is operated by Kalliste Touristiki A.E.").
  return legal ?? cands.find((c) => c.registered && c.score > 0 && sharesWord(c.line.text, top.text) && fold(withoutLegalForm(c.text)) !== entity) ?? top;
}

/** Words of a name that tell it apart: three letters or more, not a legal form. */
const nameWords = (text: string): string[] =>
  withoutLegalForm(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w));
const STOP_WORDS = new Set(['the', 'and', 'der', 'die', 'das', 'und', 'les', 'des', 'del', 'della', 'von', 'van', 'hotel', 'restaurant', 'cafe', 'shop', 'store']);
const sharesWord = (a: string, b: string): boolean => {
  const words = new Set(nameWords(a));
  return nameWords(b).some((w) => words.has(w));
};

/**
 * A name without a legal form ("Greystone" in the letterhead) whose full legal name is printed elsewhere
 * ("Greystone Print Works Co. · 5678 Industrial Pkwy" in the footer, "Keller Elektrotechnik GmbH & Co.
 * KG" on the bank line): the legal name, cut at its form.
 */
function legalNameOf(name: string, lines: Line[]): string {
  if (hasLegalForm(name) || name.length < 3) return name;
  // The brand's article is not the company's ("The Daily Grind" / "Daily Grind Coffee Ltd").
  const bare = name.replace(/^(?:the|le|la|les|der|die|das|el|il|lo|het)\s+(?=\p{L}{3})/iu, '');
  const names = bare === name ? escapeRegExp(name) : `${escapeRegExp(name)}|${escapeRegExp(bare)}`;
  // A comma before a legal form is part of the name ("Contas Certas - Contabilidade e Gestão, Lda.").
  const start = new RegExp(`(?:^|[|·•,–—:-]\\s*)((?:${names})\\s(?:[^|·•,]|,(?=\\s*${FORM_AFTER_COMMA})){1,60}?)(?:\\s*(?:[|·•–—]|,(?!\\s*${FORM_AFTER_COMMA}))|$)`, 'iu');
  for (const l of lines) {
    for (const p of l.phrases) {
      const m = start.exec(p.text);
      const full = m?.[1].trim();
      if (!full || !hasLegalForm(full)) continue;
      // Up to the legal form's end: "Keller Elektrotechnik GmbH & Co. KG", not what follows it ("… Pty Ltd ABN 12 345 678 901").
      const legal = cutAtLegalForm(full);
      if (legal.split(/\s+/).length <= 8) return legal;
    }
  }
  return name;
}

/** Legal forms printed after a comma: ", Inc.", ", Lda.", ", S.L.", ", S.A.", ", LLC", ", Ltd". */
const FORM_AFTER_COMMA = String.raw`(?:inc|ltd|llc|lda|ltda|s\.?\s?[al]\.?|s\.?r\.?l|s\.?p\.?a|corp|plc|gmbh|b\.?v|n\.?v)\b`;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `labelled`: the field's labelled candidates (label-candidates.ts), ranked by role-rules.ts. */
export function pickParty(lines: Line[], ask: PartyAsk, labelled: Candidate[] = []): PartyPick | null {
  const found = partyName(lines, ask, labelled);
  if (!found) return null;
  const { name, margin } = found;
  if (ask.part === 'name') return { value: legalNameOf(name.text, lines), score: name.score, margin, readConf: leastConf(name), doubtful: gluedName(name) };
  // A name on a sender line has its address beside it; the lines under it are the recipient's.
  const beside = senderLineAddress(name.line);
  if (beside) return { value: beside, score: name.score, margin, readConf: meanOf(confs([name.line])), doubtful: false };
  const address = readAddress(rowsUnder(lines, name)) ?? letterheadAddress(lines, name);
  if (!address) return null;
  return { value: address.text, score: name.score, margin, readConf: meanOf(confs(address.rows.map((r) => r.line))), doubtful: address.doubtful };
}
