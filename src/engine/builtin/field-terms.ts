// What a Workflow field is about: its label terms (from the name, expanded with synonyms), its
// description words, and the role it plays (total, document date, vendor, ...), which decides the
// candidate scoring and the fallbacks when no label is printed.
import type { FieldDefinition, SubFieldDefinition } from '../../api/types.js';
import { GRAND_TOTAL_WORDS, hasWord, INCLUSIVE_WORDS, NET_PART_WORDS, STOPWORDS, synonymsOf, TAX_WORDS, tokenize } from './vocabulary.js';

/** 'part': a named part of the total (its tax, or the net amount before tax); see `part`. */
export type FieldRole = 'total' | 'part' | 'date' | 'vendor' | 'address' | 'identifier' | 'amount' | 'plain';

export interface FieldTerms {
  name: string;
  description: string;
  type: FieldDefinition['type'];
  /** One entry per meaningful word of the name: the word and its synonyms. */
  nameTerms: Set<string>[];
  /** Description words (with synonyms), a weaker signal. */
  descTerms: Set<string>[];
  role: FieldRole;
  /** Which part of the total a 'part' field asks for. */
  part?: 'tax' | 'net';
}

const VENDOR_WORDS = new Set(['vendor', 'seller', 'supplier', 'company', 'merchant', 'issuer', 'store', 'shop', 'business', 'lieferant', 'fournisseur', 'restaurant']);
const TOTAL_WORDS = new Set(['total', 'amount', 'sum', 'balance', 'gesamt', 'betrag', 'summe', 'montant', 'due', 'payable']);
const ID_WORDS = new Set(['number', 'no', 'nr', 'id', 'ref', 'reference', 'code', 'nummer']);

function meaningful(words: string[]): string[] {
  return words.filter((w) => !STOPWORDS.has(w) && w.length > 0);
}

/**
 * The part of the total a number field's name asks for: "net_amount", "subtotal", "amount_excl_vat" the
 * net; "tax", "vat_amount" the tax. Not "total_incl_tax", which is the total.
 */
function partOf(type: FieldDefinition['type'], nameWords: string[]): 'tax' | 'net' | undefined {
  if (type !== 'number' || nameWords.some((w) => INCLUSIVE_WORDS.has(w) || GRAND_TOTAL_WORDS.has(w))) return undefined;
  if (hasWord(nameWords, NET_PART_WORDS)) return 'net';
  if (nameWords.some((w) => TAX_WORDS.has(w))) return 'tax';
  return undefined;
}

function roleOf(type: FieldDefinition['type'], nameWords: string[], descWords: string[]): FieldRole {
  const all = new Set([...nameWords, ...descWords]);
  if (type === 'date') return 'date';
  if (partOf(type, nameWords)) return 'part';
  if (type === 'number') return nameWords.some((w) => TOTAL_WORDS.has(w)) || (nameWords.length === 0 && descWords.some((w) => TOTAL_WORDS.has(w))) ? 'total' : 'amount';
  if (nameWords.includes('address') || nameWords.includes('addr')) return 'address';
  if (nameWords.some((w) => ID_WORDS.has(w))) return 'identifier';
  if (nameWords.some((w) => VENDOR_WORDS.has(w)) || (nameWords.includes('name') && [...all].some((w) => VENDOR_WORDS.has(w)))) return 'vendor';
  return 'plain';
}

export function fieldTerms(field: FieldDefinition | SubFieldDefinition): FieldTerms {
  const nameWords = meaningful(field.name.toLowerCase().split(/_+/));
  const descWords = meaningful(tokenize(field.description ?? '')).filter((w) => !nameWords.includes(w));
  return {
    name: field.name,
    description: field.description ?? '',
    type: field.type,
    nameTerms: nameWords.map((w) => synonymsOf(w)),
    descTerms: descWords.map((w) => synonymsOf(w)),
    role: roleOf(field.type, nameWords, descWords),
    part: partOf(field.type, nameWords),
  };
}

const GLUED_NUMBER_WORDS = new Set(['no', 'nr', 'id', '#']);

const matchCache = new WeakMap<Set<string>, Map<string, boolean>>();

/** true when a printed token stands for the term (memoised: the same words are tried for every field). */
export function tokenMatches(token: string, term: Set<string>): boolean {
  let cache = matchCache.get(term);
  if (!cache) matchCache.set(term, (cache = new Map()));
  let hit = cache.get(token);
  if (hit === undefined) cache.set(token, (hit = computeMatch(token, term)));
  return hit;
}

function computeMatch(token: string, term: Set<string>): boolean {
  if (term.has(token)) return true;
  const t = token.replace(/[.:#]+$/, '');
  if (term.has(t)) return true;
  for (const s of term) {
    if (s.length >= 4 && t.length > s.length + 2 && (t.startsWith(s) || t.endsWith(s))) return true;
    // A label run together with its number word ("InvoiceNo", "RechnungNr"), as OCR prints it.
    if (s.length >= 4 && t.startsWith(s) && GLUED_NUMBER_WORDS.has(t.slice(s.length))) return true;
    // Abbreviated compounds: "Rechnungsnr", "Kundennr". Not "no": Spanish and Italian words end so ("Teléfono").
    if (s === 'nr' && t.length >= s.length + 5 && t.endsWith(s)) return true;
  }
  return false;
}

const phrasesCache = new WeakMap<Set<string>, string[][]>();
/** The entries of a term that are several words ("i alt", "bill to"), as word lists. */
function phrasesOf(term: Set<string>): string[][] {
  let phrases = phrasesCache.get(term);
  if (!phrases) phrasesCache.set(term, (phrases = [...term].filter((s) => s.includes(' ')).map((s) => s.split(' '))));
  return phrases;
}

/** Indexes of the tokens that stand for the term: one token, or a run of them printing a phrase entry. */
function termAt(tokens: string[], term: Set<string>): number[] {
  const i = tokens.findIndex((t) => tokenMatches(t, term));
  if (i >= 0) return [i];
  for (const words of phrasesOf(term))
    for (let s = 0; s + words.length <= tokens.length; s++) if (words.every((w, k) => tokens[s + k] === w)) return words.map((_, k) => s + k);
  return [];
}

/**
 * Share of the name terms (1 each) and description terms (0.25 each) found among the tokens; `matched`
 * holds the indexes of the tokens that matched (every word of a phrase entry).
 */
export function labelScore(tokens: string[], terms: FieldTerms): { score: number; matched: number[] } {
  const matched: number[] = [];
  const hitsOf = (list: Set<string>[]): number =>
    list.filter((term) => {
      const at = termAt(tokens, term);
      matched.push(...at);
      return at.length > 0;
    }).length;
  const hits = hitsOf(terms.nameTerms);
  const descHits = hitsOf(terms.descTerms);
  const nameShare = terms.nameTerms.length ? hits / terms.nameTerms.length : 0;
  const descShare = terms.descTerms.length ? descHits / terms.descTerms.length : 0;
  return { score: nameShare + 0.25 * descShare, matched };
}
