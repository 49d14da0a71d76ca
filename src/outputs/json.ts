// JSON output of extraction records: an array, pretty-printed, keys in a stable order (record keys
// fixed; data keys in the Workflow's field order, then any others alphabetically) so that the same
// results always produce byte-identical files and diffs stay readable.
import type { FieldDefinition } from '../api/types.js';
import type { OutputRecord } from './table.js';

export function toJson(records: OutputRecord[], fields: FieldDefinition[] = []): string {
  const out = records.map((r) => ({
    file_name: r.fileName,
    request_id: r.requestId,
    ...(r.classification !== undefined ? { classification: r.classification } : {}),
    ...(r.confidence !== undefined ? { confidence: r.confidence } : {}),
    ...(r.mail !== undefined ? { mail: r.mail && { from: r.mail.from, subject: r.mail.subject, date: r.mail.date, message_id: r.mail.messageId } } : {}),
    data: ordered(r.data, fields),
    ...(r.fieldConfidence !== undefined ? { field_confidence: r.fieldConfidence && ordered(r.fieldConfidence, fields) } : {}),
  }));
  return `${JSON.stringify(out, null, 2)}\n`;
}

function ordered(data: Record<string, unknown>, fields: FieldDefinition[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keyOrder(data, fields.map((f) => f.name))) {
    const field = fields.find((f) => f.name === key);
    const value = data[key];
    out[key] =
      field?.type === 'table' && Array.isArray(value)
        ? value.map((row) => (isPlainObject(row) ? sortKeys(row, (field.subFields ?? []).map((s) => s.name)) : row))
        : sortDeep(value);
  }
  return out;
}

function keyOrder(obj: Record<string, unknown>, first: string[]): string[] {
  const known = first.filter((k) => Object.hasOwn(obj, k));
  const rest = Object.keys(obj).filter((k) => !first.includes(k)).sort();
  return [...known, ...rest];
}

function sortKeys(obj: Record<string, unknown>, first: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keyOrder(obj, first)) out[k] = sortDeep(obj[k]);
  return out;
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  return isPlainObject(value) ? sortKeys(value, []) : value;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);
}
