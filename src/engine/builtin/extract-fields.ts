// Workflow fields -> values: label candidates ranked by role, typed output (numbers as numbers, dates
// in the Workflow's date_format), fallbacks for unlabelled vendor/address/date, tables by column
// alignment. Each value comes with its confidence (confidence.ts) from the evidence of its selection.
import type { FieldDefinition } from '../../api/types.js';
import type { Line } from '../layout/lines.js';
import type { ExtractInput, ExtractOutput } from '../types.js';
import { documentLines, readByOcr } from '../layout/lines.js';
import { fieldTerms, type FieldTerms } from './field-terms.js';
import { formatDate } from './format-date.js';
import { labelCandidates, type Candidate } from './label-candidates.js';
import { readsMonthFirst, type CalendarDate } from './parse-date.js';
import { findAmounts } from './parse-amount.js';
import { askedDateWords, dateFallback, paidAmount, rankCandidates } from './role-rules.js';
import { askedParty, findCues, labelNamesParty, type PartyAsk } from './issuer/party-cues.js';
import { pickParty, type PartyPick } from './issuer/pick-party.js';
import { readTable, type TableResult } from './extract-table.js';
import type { TypedValue, ValueContext } from './typed-value.js';
import { checkDate, ocrConfidenceOf, printedDates, type PrintedDate } from './date-checks.js';
import { fieldConfidence, NO_EVIDENCE, type FieldEvidence } from './confidence.js';

export interface ScalarResult {
  value: unknown;
  evidence: FieldEvidence;
}

interface DocumentFacts {
  lines: Line[];
  ctx: ValueContext;
  dateFormat: string | null;
  /** Some words came from OCR (their read confidence is evidence). */
  ocrRead: boolean;
  /** Dates printed anywhere in the document, for cross-checking the chosen one (computed once). */
  dates: () => PrintedDate[];
}

function output(v: TypedValue, dateFormat: string | null): unknown {
  if (v.kind === 'date') return formatDate(v.date, dateFormat);
  return v.value;
}

/** A chosen date checked against the document's other dates: a misread year repaired, plausibility as evidence. */
function checkedDate(date: CalendarDate, ocr: number | null, ambiguous: boolean, repaired: boolean, base: FieldEvidence, doc: DocumentFacts): ScalarResult {
  const c = checkDate(date, ocr, doc.dates());
  const validated = !c.plausible ? false : c.agrees && !ambiguous ? true : null;
  return { value: formatDate(c.date, doc.dateFormat), evidence: { ...base, ocr, validated, guessed: ambiguous || repaired || c.repaired } };
}

/**
 * A party's pick as evidence: no label score (the page's evidence chose it), the lead over the runner-up,
 * how surely OCR read it, and weak evidence (score under 1) or a doubtful read (words OCR ran together)
 * counts as a guess.
 */
function partyResult(pick: PartyPick | null, ocrRead: boolean): ScalarResult {
  if (!pick) return { value: null, evidence: NO_EVIDENCE };
  return { value: pick.value, evidence: { ...NO_EVIDENCE, via: 'layout', margin: pick.margin, ocr: ocrRead ? pick.readConf : null, guessed: pick.score < 1 || pick.doubtful } };
}

function fallback(terms: FieldTerms, doc: DocumentFacts, party: PartyAsk | null): ScalarResult | null {
  const { lines } = doc;
  if (party) return partyResult(pickParty(lines, party), doc.ocrRead);
  const layout = (value: unknown, line: Line | null): ScalarResult => ({
    value,
    evidence: { ...NO_EVIDENCE, via: 'layout', ocr: line ? ocrConfidenceOf(line) : null },
  });
  if (terms.role === 'date') {
    // The first date is the document's own; a field that asks for a due or delivery date has no such rule.
    if (askedDateWords(terms).size > 0) return null;
    const d = dateFallback(lines, doc.ctx.monthFirst, terms);
    if (!d) return null;
    const base = layout(null, null).evidence;
    return checkedDate(d.match.date, ocrConfidenceOf(d.line, d.match.start, d.match.end), d.match.ambiguous, d.repaired, base, doc);
  }
  if (terms.role === 'total') {
    const paid = paidAmount(lines) ?? onlySum(lines);
    return paid === null ? null : layout(paid, null);
  }
  return null;
}

/**
 * The one sum of money a page prints with its currency (once or repeated), as a receipt for rent or a
 * donation does ("the sum of Rupees Eighteen Thousand" … "Rs. 18,000.00"): that sum is its total.
 */
function onlySum(lines: Line[]): number | null {
  const sums = new Set(lines.flatMap((l) => findAmounts(l.text).filter((a) => a.currency && a.decimals && a.value > 0).map((a) => a.value)));
  return sums.size === 1 ? [...sums][0] : null;
}

const sameOutput = (a: Candidate, b: Candidate, dateFormat: string | null): boolean => JSON.stringify(output(a.value, dateFormat)) === JSON.stringify(output(b.value, dateFormat));

function fromCandidate(best: Candidate, ranked: Candidate[], terms: FieldTerms, doc: DocumentFacts): ScalarResult {
  const rival = ranked.find((c) => c !== best && !sameOutput(c, best, doc.dateFormat));
  const ocr = ocrConfidenceOf(best.line);
  const base: FieldEvidence = { via: 'label', labelScore: best.score, margin: rival ? best.score - rival.score : null, ocr, validated: null, guessed: false };
  if (best.value.kind === 'date') return checkedDate(best.value.date, ocr, best.value.ambiguous, best.value.repaired, base, doc);
  if (terms.role === 'total' && best.value.kind === 'number') {
    const paid = paidAmount(doc.lines);
    if (paid !== null) base.validated = Math.abs(paid - best.value.value) < 0.005 ? true : null;
  }
  return { value: output(best.value, doc.dateFormat), evidence: base };
}

function extractScalarWithEvidence(terms: FieldTerms, doc: DocumentFacts, party: PartyAsk | null): ScalarResult {
  // The seller's fields take no value labelled for the buyer or the delivery ("Lieferadresse", "Shipping address").
  // Nor one of the buyer's form under its cue ("Sold to:" / "Address:" / "TIN:" at the foot of a receipt).
  const buyerCues = party?.party === 'seller' ? findCues(doc.lines).filter((c) => c.party !== 'seller') : [];
  const inBuyerForm = (c: Candidate) => buyerCues.some((b) => b.line.page === c.labelLine.page && c.labelLine.index > b.line.index && c.labelLine.index <= b.line.index + 3 && c.labelLine.x0 < b.phrase.x1 && c.labelLine.x1 > b.phrase.x0);
  const own = (c: Candidate) => party?.party !== 'seller' || !(labelNamesParty(c.labelTokens, 'buyer') || labelNamesParty(c.labelTokens, 'ship_to') || inBuyerForm(c));
  const ranked = rankCandidates(labelCandidates(doc.lines, terms, doc.ctx).filter(own), terms, doc.lines.length, doc.lines);
  const best = ranked[0];
  // A party's name is chosen among its labelled values and the page's own evidence (letterhead, cues).
  if (party?.part === 'name') return partyResult(pickParty(doc.lines, party, ranked), doc.ocrRead);
  // A weak labelled candidate (a due date for the date, "Company" for a vendor) loses to the role's
  // layout rule (the first date, the letterhead) when that finds something.
  const strongEnough = best && best.score >= (party || terms.role === 'vendor' || terms.role === 'address' ? 0.9 : 0.6);
  if (strongEnough) return fromCandidate(best, ranked, terms, doc);
  const fb = fallback(terms, doc, party);
  if (fb && fb.value !== null) return fb;
  // Last resort: the best labelled candidate, a guess; what the role rules ruled out (another date, the
  // label of another part of the total) is none.
  if (!best || ((terms.role === 'date' || terms.role === 'part' || terms.role === 'identifier') && best.score <= 0)) return { value: null, evidence: NO_EVIDENCE };
  const r = fromCandidate(best, ranked, terms, doc);
  return { ...r, evidence: { ...r.evidence, guessed: true } };
}

function documentFacts(lines: Line[], ctx: ValueContext, dateFormat: string | null): DocumentFacts {
  let dates: PrintedDate[] | null = null;
  const ocrRead = lines.some(readByOcr);
  return { lines, ctx, dateFormat, ocrRead, dates: () => (dates ??= printedDates(lines, ctx.monthFirst)) };
}

function isMissing(v: unknown): boolean {
  return v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
}

/** The sum of a table's line amounts (its last number column), or null when a row has none. */
function lineSum(rows: Record<string, unknown>[], field: FieldDefinition): number | null {
  const amount = [...(field.subFields ?? [])].reverse().find((s) => s.type === 'number')?.name;
  if (!amount || rows.length === 0) return null;
  const values = rows.map((r) => r[amount]);
  if (!values.every((v): v is number => typeof v === 'number')) return null;
  return Math.round(values.reduce((a, b) => a + b, 0) * 100) / 100;
}

/**
 * A table's evidence: a header line naming its columns counts as a matched label; the rows adding up to a
 * total of the document, or quantity × unit price = amount on every row, confirm it; rows that mostly do
 * not add up contradict it. OCR'd tables carry the mean read confidence of the page's words.
 */
function tableEvidence(table: TableResult, sumConfirmed: boolean, doc: DocumentFacts): FieldEvidence {
  const arithmetic = table.arithmetic;
  const validated = sumConfirmed || (arithmetic !== null && arithmetic >= 0.99) ? true : arithmetic !== null && arithmetic < 0.5 ? false : null;
  const words = doc.ocrRead ? doc.lines.flatMap((l) => l.words).filter((w) => typeof w.conf === 'number') : [];
  const ocr = words.length ? words.reduce((a, w) => a + (w.conf as number), 0) / words.length / 100 : null;
  return { via: table.header ? 'label' : 'layout', labelScore: table.header ? 1 : null, margin: null, ocr, validated, guessed: false };
}

export function extractFields(input: ExtractInput): ExtractOutput {
  const lines = documentLines(input.pages, { detectLayout: input.detectLayout });
  const allText = lines.map((l) => l.text).join('\n');
  const ctx: ValueContext = { monthFirst: readsMonthFirst(allText) };
  const doc = documentFacts(lines, ctx, input.dateFormat);
  const data: Record<string, unknown> = {};
  const evidence: Record<string, FieldEvidence> = {};
  const missingRequired: string[] = [];
  const tables: { name: string; table: TableResult }[] = [];
  for (const field of input.fields) {
    if (field.type === 'table') {
      const table = readTable(lines, field as FieldDefinition & { subFields: NonNullable<FieldDefinition['subFields']> }, { ctx, dateFormat: input.dateFormat, strict: input.detectTables });
      data[field.name] = table.rows;
      tables.push({ name: field.name, table });
    } else {
      const r = extractScalarWithEvidence(fieldTerms(field), doc, askedParty(field));
      data[field.name] = r.value;
      evidence[field.name] = r.evidence;
    }
    if (field.required && isMissing(data[field.name])) missingRequired.push(field.name);
  }
  // Line items and a total confirm each other when the items add up to it.
  for (const { name, table } of tables) {
    const field = input.fields.find((f) => f.name === name)!;
    const sum = lineSum(table.rows, field);
    const confirmed = input.fields.filter((f) => f.type === 'number' && sum !== null && typeof data[f.name] === 'number' && Math.abs((data[f.name] as number) - sum) < 0.005);
    for (const f of confirmed) evidence[f.name] = { ...evidence[f.name], validated: true };
    evidence[name] = table.rows.length === 0 ? NO_EVIDENCE : tableEvidence(table, confirmed.length > 0, doc);
  }
  const confidence = Object.fromEntries(input.fields.map((f) => [f.name, isMissing(data[f.name]) ? 0 : fieldConfidence(evidence[f.name] ?? NO_EVIDENCE)]));
  return { data, missingRequired, confidence };
}
