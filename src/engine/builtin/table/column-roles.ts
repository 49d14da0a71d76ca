// What a table subField holds (item text, quantity, unit price, line amount), from its name and
// description, and the header words that name such a column in several languages. A subField of no
// known role keeps its own terms (name, description and their synonyms).
import type { SubFieldDefinition } from '../../../api/types.js';
import { fieldTerms, type FieldTerms } from '../field-terms.js';
import { STOPWORDS, synonymsOf, tokenize } from '../vocabulary.js';

export type ColumnRole = 'description' | 'quantity' | 'unit_price' | 'amount' | 'other';

/** Header words beyond the shared synonym groups: abbreviations and other languages of column headers. */
const EXTRA_HEADER_WORDS: Record<Exclude<ColumnRole, 'other'>, string[]> = {
  // Turkish "Mal Hizmet" (goods, service), "Açıklama"; Hungarian "Megnevezés"; Czech "Název", "Položka".
  description: ['descr', 'desc', 'artikelbezeichnung', 'leistungsbeschreibung', 'produkt', 'produit', 'text', 'mal', 'hizmet', 'açıklama', 'aciklama', 'ürün', 'urun', 'megnevezés', 'megnevezes', 'název', 'nazev', 'položka', 'polozka', 'prestation', 'prestations', 'prestazione', 'prestación', 'prestacion'],
  quantity: ['anz', 'stck', 'nb', 'nbre', 'pieces', 'miktar', 'mennyiség', 'mennyiseg', 'množství', 'mnozstvi'],
  unit_price: ['unitaire', 'einzelpr', 'vk', 'ek', 'fiyat', 'fiyatı', 'fiyati', 'egységár', 'egysegar'],
  amount: ['gesamtpreis', 'positionsbetrag', 'extension', 'ext', 'subtotal', 'net', 'netto', 'value', 'wert', 'wartość', 'wartosc', 'tutar', 'tutarı', 'tutari', 'összeg', 'osszeg', 'érték', 'ertek'],
};

/**
 * Words that stand beside a column's header word without naming the column on their own: the "unit" of
 * "Prix unit." or "Precio unitario" belongs to the price, not to a quantity column.
 */
const HEADER_MODIFIERS: Partial<Record<ColumnRole, Set<string>>> = {
  // "Preis/Einh.", "Preis je Einheit", "Preis/Stk.": the unit a price is for.
  unit_price: new Set(['unit', 'unitario', 'unitaria', 'unitário', 'unitária', 'unitaire', 'per', 'each', 'je', 'pro', 'einh', 'einheit', 'stk', 'stück']),
};

const GROUPS: [Exclude<ColumnRole, 'other'>, Set<string>][] = [
  ['amount', synonymsOf('total')],
  ['unit_price', synonymsOf('price')],
  ['quantity', synonymsOf('quantity')],
  ['description', synonymsOf('description')],
];

const HEADER_WORDS = new Map(GROUPS.map(([role, group]) => [role, new Set([...group, ...EXTRA_HEADER_WORDS[role]])]));
const KNOWN = new Set([...HEADER_WORDS.values()].flatMap((set) => [...set]));
const ALL_HEADER_WORDS = [...KNOWN].filter((w) => w.length >= 4 && /^\p{L}+$/u.test(w));
const LOOK_ALIKE = new Set(['li', 'il', '1i', '1l', 'l1', 'i1', '0o', 'o0']);

/**
 * A header word OCR misread by one letter ("AMOUNI", "ltem") as the word it stands for; other tokens
 * as they are. Only for OCR'd words: a text layer spells its headers right.
 */
export function ocrHeaderToken(token: string): string {
  if (token.length < 4 || KNOWN.has(token)) return token;
  for (const w of ALL_HEADER_WORDS) {
    if (w.length !== token.length) continue;
    const diffs: number[] = [];
    for (let i = 0; i < w.length && diffs.length < 2; i++) if (w[i] !== token[i]) diffs.push(i);
    // Four letters leave little to go by ("date" is not "rate"): there only the look-alikes OCR confuses.
    if (diffs.length === 1 && (w.length >= 5 || LOOK_ALIKE.has(token[diffs[0]] + w[diffs[0]]))) return w;
  }
  return token;
}

function roleOfWords(words: string[]): ColumnRole {
  const has = (group: Set<string>) => words.some((w) => group.has(w));
  // A "total price" is the line amount; a "unit price" is a price even though "unit" counts units.
  for (const [role, group] of GROUPS) if (has(group) || words.some((w) => EXTRA_HEADER_WORDS[role].includes(w))) return role;
  return 'other';
}

export function columnRole(def: SubFieldDefinition): ColumnRole {
  const name = def.name.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w && !STOPWORDS.has(w));
  const byName = roleOfWords(name);
  if (byName !== 'other') return def.type === 'number' || byName === 'description' ? byName : 'other';
  const byDesc = roleOfWords(tokenize(def.description ?? ''));
  return def.type === 'number' || byDesc === 'description' ? byDesc : 'other';
}

export interface TableSub {
  def: SubFieldDefinition;
  role: ColumnRole;
  /** Terms header words are matched against. */
  terms: FieldTerms;
  /** Words that may stand inside this column's header without matching its terms. */
  modifiers: ReadonlySet<string>;
}

/** A subField with header terms: its role's header words first, its description words still counting. */
export function tableSub(def: SubFieldDefinition): TableSub {
  const terms = fieldTerms(def);
  const role = columnRole(def);
  const modifiers = HEADER_MODIFIERS[role] ?? new Set<string>();
  if (role === 'other') return { def, role, terms, modifiers };
  return { def, role, terms: { ...terms, nameTerms: [HEADER_WORDS.get(role)!], role: role === 'amount' ? 'total' : terms.role }, modifiers };
}
