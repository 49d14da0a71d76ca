// The fields of one finished job as a person reads them (`docdrop try`): one row per field in the
// Workflow's order, a table field as an indented sub-table, a required field that came back empty
// flagged, and the engine's confidence in a column only when the job carries one for some field
// (a value given as { value, confidence }).
import type { FieldDefinition, Workflow } from '../api/types.js';

export interface FieldView {
  name: string;
  value: unknown;
  confidence: number | null;
  required: boolean;
  missing: boolean;
  /** Rows of a table field, cells unwrapped. */
  rows: Record<string, unknown>[] | null;
  columns: string[];
}

/** The fields of `data` in the Workflow's order (fields the Workflow does not name follow). */
export function fieldViews(data: Record<string, unknown> | null, workflow: Workflow | undefined): FieldView[] {
  const defs = workflow?.template_schema.fields ?? [];
  const names = [...defs.map((f) => f.name), ...Object.keys(data ?? {}).filter((k) => !defs.some((f) => f.name === k))];
  return names.map((name) => view(name, data?.[name], defs.find((f) => f.name === name)));
}

function view(name: string, raw: unknown, def: FieldDefinition | undefined): FieldView {
  const { value, confidence } = unwrap(raw);
  const rows = Array.isArray(value) ? value.map((r) => rowOf(r)) : null;
  const columns = rows ? [...new Set([...(def?.subFields ?? []).map((s) => s.name), ...rows.flatMap((r) => Object.keys(r))])] : [];
  const required = def?.required === true;
  return { name, value, confidence, required, missing: isEmpty(value), rows, columns };
}

function rowOf(r: unknown): Record<string, unknown> {
  if (r === null || typeof r !== 'object' || Array.isArray(r)) return { value: r };
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, unwrap(v).value]));
}

/** A value the engine gave with its confidence ({ value, confidence }), or a plain value. */
function unwrap(raw: unknown): { value: unknown; confidence: number | null } {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    const o = raw as { value?: unknown; confidence?: unknown };
    if ('value' in o && typeof o.confidence === 'number') return { value: o.value, confidence: o.confidence };
  }
  return { value: raw, confidence: null };
}

function isEmpty(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
}

export function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v).replace(/\s+/g, ' ');
}

/** Widths of each column over all rows (capped, so one long value does not push the rest off screen). */
function widthsOf(rows: string[][]): number[] {
  return rows[0]!.map((_, i) => Math.min(48, Math.max(...rows.map((r) => r[i]!.length))));
}

function line(r: string[], widths: number[], indent = ''): string {
  return indent + r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd() + '\n';
}

export function renderFields(views: FieldView[]): string {
  const withConfidence = views.some((v) => v.confidence !== null);
  const head = ['FIELD', 'VALUE', ...(withConfidence ? ['CONFIDENCE'] : [])];
  const main = views.map((v) => {
    const flag = v.missing ? (v.required ? 'MISSING (required)' : '-') : null;
    const value = flag ?? (v.rows ? `${v.rows.length} row${v.rows.length === 1 ? '' : 's'}:` : cell(v.value));
    return [v.name, value, ...(withConfidence ? [v.confidence === null ? '' : v.confidence.toFixed(2)] : [])];
  });
  const widths = widthsOf([head, ...main]);
  let out = line(head, widths);
  views.forEach((v, i) => {
    out += line(main[i]!, widths);
    if (v.rows && v.rows.length > 0) {
      // A table field: its rows as a sub-table under it, aligned on their own.
      const sub = [v.columns, ...v.rows.map((r) => v.columns.map((c) => cell(r[c])))];
      const w = widthsOf(sub);
      out += sub.map((r) => line(r, w, '    ')).join('');
    }
  });
  return out;
}
