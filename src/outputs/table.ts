// Turns extraction results into a typed table, the one model every output format (CSV, XLSX) and the
// service's export endpoint render from. Columns follow the Workflow's field order.
//
// Column keys and headers:
//   file_name, request_id          first, when includeFilename / includeRequestId
//   classification, confidence     next, when includeClassification
//   mail_from, mail_subject,       next, when includeMail: the e-mail a file came from (empty for other
//   mail_date, mail_message_id       files); mail_date as ISO 8601 text, to keep its time
//   <field>                        one per document field (text/number/date; table fields as JSON text)
//   <field>_confidence             after each field, when includeConfidence: 0..1, empty when unknown
//   <table_field>.<sub_field>      line_items layout only: the merge field's subFields, in its place
// Field names are [a-z0-9_] (spec), so a dotted key can never collide with a document field. The extra
// columns have keys with a '$' prefix for the same reason; their headers are the plain words.
import type { FieldDefinition, SubFieldDefinition } from '../api/types.js';
import { parseDate } from './date-format.js';

export type Cell = string | number | Date | null;
export type ColumnType = 'text' | 'number' | 'date';
export interface Column {
  key: string;
  header: string;
  type: ColumnType;
}
export interface Table {
  columns: Column[];
  rows: Cell[][];
}

export interface OutputRecord {
  fileName: string;
  requestId: string;
  data: Record<string, unknown>;
  classification?: string | null;
  confidence?: number | null;
  /** The Workflow's parser_config.date_format, used to read date fields that are not ISO. */
  dateFormat?: string | null;
  /** The e-mail the file came from (includeMail); null for a file that did not come by mail. */
  mail?: MailOriginCells | null;
  /** Per field 0..1 (includeConfidence); null when the service gave none. */
  fieldConfidence?: Record<string, number> | null;
}

/** The e-mail a document came from, as output cells. */
export interface MailOriginCells {
  from: string | null;
  subject: string | null;
  /** ISO 8601. */
  date: string | null;
  messageId: string | null;
}

export type Layout = 'flat' | 'line_items';

export interface TableOptions {
  layout: Layout;
  /** Required for line_items: a table-type field whose rows become the table's rows. */
  mergeField?: string;
  includeFilename?: boolean;
  includeRequestId?: boolean;
  includeClassification?: boolean;
  includeMail?: boolean;
  /** A `<field>_confidence` column after each field, so doubtful rows can be reviewed first. */
  includeConfidence?: boolean;
}

export class OutputOptionsError extends Error {
  override name = 'OutputOptionsError';
}

type Getter = (record: OutputRecord, item: Record<string, unknown> | null) => Cell;

interface Plan {
  columns: Column[];
  getters: Getter[];
  merge: FieldDefinition | null;
}

export function buildTable(fields: FieldDefinition[], records: OutputRecord[], opts: TableOptions): Table {
  const plan = planColumns(fields, opts);
  const rows: Cell[][] = [];
  for (const record of records) {
    const items = plan.merge ? lineItems(record.data[plan.merge.name]) : [null];
    // A document without line items still gets one row, so it never vanishes from the output.
    for (const item of items.length ? items : [null]) {
      rows.push(plan.getters.map((get) => get(record, item)));
    }
  }
  return { columns: plan.columns, rows };
}

function planColumns(fields: FieldDefinition[], opts: TableOptions): Plan {
  const merge = opts.layout === 'line_items' ? findMergeField(fields, opts.mergeField) : null;
  const columns: Column[] = [];
  const getters: Getter[] = [];
  const add = (column: Column, get: Getter) => {
    columns.push(column);
    getters.push(get);
  };

  if (opts.includeFilename) add({ key: '$file_name', header: 'file_name', type: 'text' }, (r) => r.fileName);
  if (opts.includeRequestId) add({ key: '$request_id', header: 'request_id', type: 'text' }, (r) => r.requestId);
  if (opts.includeClassification) {
    add({ key: '$classification', header: 'classification', type: 'text' }, (r) => r.classification ?? null);
    add({ key: '$confidence', header: 'confidence', type: 'number' }, (r) =>
      typeof r.confidence === 'number' && Number.isFinite(r.confidence) ? r.confidence : null,
    );
  }
  if (opts.includeMail) {
    for (const [header, key] of [['mail_from', 'from'], ['mail_subject', 'subject'], ['mail_date', 'date'], ['mail_message_id', 'messageId']] as const) {
      add({ key: `$${header}`, header, type: 'text' }, (r) => r.mail?.[key] ?? null);
    }
  }
  for (const field of fields) {
    if (merge && field.name === merge.name) {
      for (const sub of field.subFields ?? []) {
        const key = `${field.name}.${sub.name}`;
        add({ key, header: key, type: sub.type }, (r, item) => typedCell(sub, item?.[sub.name], r.dateFormat));
      }
    } else if (field.type === 'table') {
      add({ key: field.name, header: field.name, type: 'text' }, (r) => jsonCell(r.data[field.name]));
    } else {
      add({ key: field.name, header: field.name, type: field.type }, (r) =>
        typedCell(field as SubFieldDefinition, r.data[field.name], r.dateFormat),
      );
    }
    // '$' keeps the key apart from a document field that happens to be named "<field>_confidence".
    if (opts.includeConfidence) {
      add({ key: `$confidence.${field.name}`, header: `${field.name}_confidence`, type: 'number' }, (r) => {
        const c = r.fieldConfidence?.[field.name];
        return typeof c === 'number' && Number.isFinite(c) ? c : null;
      });
    }
  }
  return { columns, getters, merge };
}

function findMergeField(fields: FieldDefinition[], name: string | undefined): FieldDefinition {
  const tables = fields.filter((f) => f.type === 'table').map((f) => f.name);
  const hint = tables.length ? `one of: ${tables.join(', ')}` : 'the Workflow has no table field';
  if (!name) throw new OutputOptionsError(`merge_field is required for the line_items layout (${hint})`);
  const field = fields.find((f) => f.name === name);
  if (!field) throw new OutputOptionsError(`merge_field "${name}" is not a field of the Workflow (${hint})`);
  if (field.type !== 'table') {
    throw new OutputOptionsError(`merge_field "${name}" is a ${field.type} field, not a table field (${hint})`);
  }
  return field;
}

/** The rows of a table field; a JSON string of an array is accepted too (some extractors stringify). */
function lineItems(value: unknown): Record<string, unknown>[] {
  let v = value;
  if (typeof v === 'string' && v.trim().startsWith('[')) {
    try {
      v = JSON.parse(v);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(v)) return [];
  return v.map((item) => (item && typeof item === 'object' && !Array.isArray(item) ? item : { value: item }));
}

function typedCell(def: SubFieldDefinition, value: unknown, dateFormat?: string | null): Cell {
  if (value === undefined || value === null || value === '') return null;
  if (def.type === 'number') {
    const n = toNumber(value);
    if (n !== null) return n;
  } else if (def.type === 'date') {
    if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
    if (typeof value === 'string') {
      const d = parseDate(value, dateFormat);
      if (d) return d;
    }
  }
  return textCell(value);
}

// Plain decimals, optionally grouped by commas in threes ('1,234.50'). Anything else ('12 EUR',
// '1.234,50', '$5') is not a clean number and stays text rather than being guessed at.
const CLEAN_NUMBER = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?$/;

export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const t = value.trim();
  if (!/\d/.test(t) || !CLEAN_NUMBER.test(t)) return null;
  const n = Number(t.replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
}

function textCell(value: unknown): Cell {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return jsonCell(value);
}

function jsonCell(value: unknown): Cell {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
