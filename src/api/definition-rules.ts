// The spec's rules for Workflow and Classifier definitions (interface.md: Field definition, parser_config,
// Classifier, Limits) as zod schemas, written once: the service checks request bodies with them and the
// daemon its config's `workflows:` and `classifiers:` sections, so the two cannot disagree.
import { z } from 'zod';

/** Page selections as the spec writes them: '1-3,5,7-9' (1-based, ranges ascending). */
export const pageRanges = () =>
  z.string().refine(
    (s) =>
      /^\s*\d+\s*(-\s*\d+\s*)?(,\s*\d+\s*(-\s*\d+\s*)?)*$/.test(s) &&
      s.split(',').every((part) => {
        const [a, b] = part.split('-').map((n) => Number(n.trim()));
        return a >= 1 && (b === undefined || b >= a);
      }),
    { message: "expected page ranges like '1-3,5,7-9' (pages from 1, each range ascending)" },
  );

/** A regular expression the service will compile. */
export const regexString = () =>
  z.string().refine(
    (s) => {
      try {
        new RegExp(s);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'expected a valid regular expression' },
  );

/** The first index whose value appeared before, or -1. */
function firstRepeat(values: readonly string[]): number {
  return values.findIndex((v, i) => values.indexOf(v) !== i);
}

// Workflow

export const templateTitle = z
  .string({ message: 'expected a string' })
  .trim()
  .min(1, { message: 'expected a non-empty title' })
  .max(200, { message: 'expected at most 200 characters' });
export const templateType = z.string({ message: 'expected a string' }).min(1, { message: 'expected a non-empty type, e.g. "invoice"' });

const fieldName = z
  .string({ message: 'expected a string' })
  .min(1, { message: 'expected a non-empty name' })
  .max(50, { message: 'expected at most 50 characters' })
  .regex(/^[a-z0-9_]+$/, { message: 'expected only lower-case letters, digits and underscore' });
const fieldDescription = z.string({ message: 'expected a string' }).max(150, { message: 'expected at most 150 characters' });

/**
 * The `fields` list of a template_schema. `strict` rejects unknown attributes (a config, where a misspelt
 * key must be reported); the service drops them, as a lenient server does.
 */
function fieldList(strict: boolean) {
  const object = strict ? z.strictObject : z.object;
  const subField = object({
    name: fieldName,
    description: fieldDescription.optional(),
    type: z.enum(['text', 'number', 'date'], { message: "expected 'text', 'number' or 'date' (tables cannot nest)" }),
    required: z.boolean({ message: 'expected a boolean' }).optional(),
  });
  const field = object({
    name: fieldName,
    description: fieldDescription.optional(),
    type: z.enum(['text', 'number', 'date', 'table'], { message: "expected 'text', 'number', 'date' or 'table'" }),
    required: z.boolean({ message: 'expected a boolean' }).optional(),
    subFields: z.array(subField, { message: 'expected a list of sub-fields' }).optional(),
  }).superRefine((f, ctx) => {
    if (f.type === 'table' && (!f.subFields || f.subFields.length === 0)) {
      ctx.addIssue({ code: 'custom', path: ['subFields'], message: 'expected at least one sub-field for a table field' });
    }
    const dup = firstRepeat(f.subFields?.map((s) => s.name) ?? []);
    if (dup >= 0) ctx.addIssue({ code: 'custom', path: ['subFields'], message: `expected unique sub-field names, received "${f.subFields![dup]!.name}" twice` });
  });
  return z.array(field, { message: 'expected an array of field definitions' }).superRefine((fields, ctx) => {
    const dup = firstRepeat(fields.map((f) => f.name));
    if (dup >= 0) ctx.addIssue({ code: 'custom', path: [dup, 'name'], message: `expected unique field names, received "${fields[dup]!.name}" twice` });
  });
}

export const templateFields = fieldList(false);
export const strictTemplateFields = fieldList(true);

const ocrConfigInput = z
  .object({
    engine: z.string(),
    use_ocr: z.boolean(),
    detect_layout: z.boolean(),
    detect_tables: z.boolean(),
    remove_headers: z.boolean(),
    remove_footers: z.boolean(),
    remove_tables: z.boolean(),
  })
  .partial()
  .strict();

const queryConfigInput = z
  .object({
    query_model: z.string().min(1),
    page_ranges: pageRanges(),
    start_regex: regexString().nullable(),
    end_regex: regexString().nullable(),
    split_regex: regexString().nullable(),
    use_all_matches: z.boolean(),
    set_max_output_tokens: z.boolean(),
    include_example: z.boolean(),
    minimize_tokens: z.boolean(),
    selected_language: z.string().nullable(),
  })
  .partial()
  .strict();

/** parser_config as create and update take it: any subset, nested keys too. */
export const parserConfigInput = z
  .object({
    parse_email_attachments: z.boolean(),
    parse_email_body: z.boolean(),
    date_format: z.string().nullable(),
    outbound_integration: z.record(z.string(), z.unknown()).nullable(),
    ocr_config: ocrConfigInput,
    query_config: queryConfigInput,
    /** docdrop extension: see ParserConfig.confidence_threshold. */
    confidence_threshold: z.number({ message: 'expected a number from 0.0 to 1.0' }).min(0, { message: 'expected a number from 0.0 to 1.0 inclusive' }).max(1, { message: 'expected a number from 0.0 to 1.0 inclusive' }),
  })
  .partial()
  .strict();

/** The defaults the spec's parser_config tables state (keys without a stated default are absent). */
export const SPEC_PARSER_CONFIG_DEFAULTS = {
  parse_email_attachments: true,
  parse_email_body: false,
  ocr_config: { use_ocr: false, detect_layout: true, detect_tables: false, remove_headers: false, remove_footers: false, remove_tables: false },
  query_config: { use_all_matches: false },
} as const;

export const webhookUrl = z.url({ protocol: /^https?$/, message: 'expected an http(s) URL' }).nullable();

// Classifier

export const classLabel = z.string({ message: 'expected a string' }).min(1, { message: 'expected a non-empty label' });
export const classDescription = z.string({ message: 'expected a string' });

/** A Classifier's classes: at least 2, labels unique. */
export function classList<T extends z.ZodType<{ label: string }>>(classDef: T) {
  return z
    .array(classDef, { message: 'expected an array of {label, description}' })
    .min(2, { message: 'expected at least 2 classes' })
    .superRefine((cs, ctx) => {
      const dup = firstRepeat(cs.map((c) => c.label));
      if (dup >= 0) ctx.addIssue({ code: 'custom', path: [dup, 'label'], message: `expected unique labels, received "${cs[dup]!.label}" twice` });
    });
}

export const classifierName = z.string({ message: 'expected a string' }).trim().min(1, { message: 'expected a non-empty name' });
export const minConfidence = z
  .number({ message: 'expected a number from 0.0 to 1.0' })
  .min(0, { message: 'expected a number from 0.0 to 1.0 inclusive' })
  .max(1, { message: 'expected a number from 0.0 to 1.0 inclusive' });
export const classifierType = z.literal('document', { message: "expected 'document'" });
export const classifierQueryModel = z.enum(['model-4o-mini', 'model-4o'], { message: "expected 'model-4o-mini' or 'model-4o'" });
