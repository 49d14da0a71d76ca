// Workflow fields -> values: label candidates ranked by role, typed output (numbers as numbers, dates
// in the Workflow's date_format), fallbacks for unlabelled vendor/address/date, tables by column
// alignment.
import type { FieldDefinition } from '../../api/types.js';
import type { Line } from '../layout/lines.js';
import type { ExtractInput, ExtractOutput } from '../types.js';
import { documentLines } from '../layout/lines.js';
import { fieldTerms, type FieldTerms } from './field-terms.js';
import { formatDate } from './format-date.js';
import { labelCandidates } from './label-candidates.js';
import { showsMonthFirst } from './parse-date.js';
import { dateFallback, paidAmount, rankCandidates } from './role-rules.js';
import { askedParty, type PartyAsk } from './issuer/party-cues.js';
import { pickParty } from './issuer/pick-party.js';
import { extractTable } from './extract-table.js';
import type { TypedValue, ValueContext } from './typed-value.js';

function output(v: TypedValue, dateFormat: string | null): unknown {
  if (v.kind === 'date') return formatDate(v.date, dateFormat);
  return v.value;
}

function fallback(lines: Line[], terms: FieldTerms, ctx: ValueContext, dateFormat: string | null, party: PartyAsk | null): unknown {
  if (party) return pickParty(lines, party)?.value ?? null;
  if (terms.role === 'date') {
    const d = dateFallback(lines, ctx.monthFirst);
    return d ? formatDate(d.date, dateFormat) : null;
  }
  if (terms.role === 'total') return paidAmount(lines);
  return null;
}

export function extractScalar(lines: Line[], terms: FieldTerms, ctx: ValueContext, dateFormat: string | null, party: PartyAsk | null = null): unknown {
  const ranked = rankCandidates(labelCandidates(lines, terms, ctx), terms, lines.length, lines);
  const best = ranked[0];
  // A party's name is chosen among its labelled values and the page's own evidence (letterhead, cues).
  if (party?.part === 'name') return pickParty(lines, party, ranked)?.value ?? null;
  // A weak labelled candidate (a due date for the date, "Company" for a vendor) loses to the role's
  // layout rule (the first date, the letterhead) when that finds something.
  const strongEnough = best && best.score >= (party || terms.role === 'vendor' || terms.role === 'address' ? 0.9 : 0.6);
  if (strongEnough) return output(best.value, dateFormat);
  return fallback(lines, terms, ctx, dateFormat, party) ?? (best ? output(best.value, dateFormat) : null);
}

function isMissing(v: unknown): boolean {
  return v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
}

export function extractFields(input: ExtractInput): ExtractOutput {
  const lines = documentLines(input.pages, { detectLayout: input.detectLayout });
  const allText = lines.map((l) => l.text).join('\n');
  // Ambiguous d/m vs m/d dates follow the document's own unambiguous dates, else dollar documents
  // ($12.50, not an OCR'd "$000022185") read m/d.
  const ctx: ValueContext = { monthFirst: showsMonthFirst(allText) || (!/\d{1,2}\.\d{1,2}\.\d{2,4}/.test(allText) && /\$\s?\d+\.\d{2}\b/.test(allText) && !/\b(RM|SGD|AUD|NZD|CAD)\b/.test(allText)) };
  const data: Record<string, unknown> = {};
  const missingRequired: string[] = [];
  for (const field of input.fields) {
    const value = field.type === 'table' ? extractTable(lines, field as FieldDefinition & { subFields: NonNullable<FieldDefinition['subFields']> }, { ctx, dateFormat: input.dateFormat, strict: input.detectTables }) : extractScalar(lines, fieldTerms(field), ctx, input.dateFormat, askedParty(field));
    data[field.name] = value;
    if (field.required && isMissing(value)) missingRequired.push(field.name);
  }
  return { data, missingRequired };
}
