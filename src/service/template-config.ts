// Workflow settings: the request schemas, parser_config defaults (the spec's table), the nested merge
// PUT uses, and the address each Workflow receives mail at.
import { z } from 'zod';
import type { ParserConfig, ParserConfigInput } from '../api/types.js';
import { pageRanges, regexString, rejectUnknownKeys } from './validate.js';

const FIELD_NAME_RE = /^[a-z0-9_]+$/;

const fieldName = z
  .string({ message: 'expected a string' })
  .min(1, { message: 'expected a non-empty name' })
  .max(50, { message: 'expected at most 50 characters' })
  .regex(FIELD_NAME_RE, { message: 'expected only lower-case letters, digits and underscore' });
const fieldDescription = z.string().max(150, { message: 'expected at most 150 characters' });

const subField = z.object({
  name: fieldName,
  description: fieldDescription.optional(),
  type: z.enum(['text', 'number', 'date'], { message: "expected 'text', 'number' or 'date' (tables cannot nest)" }),
  required: z.boolean().optional(),
});

const field = z
  .object({
    name: fieldName,
    description: fieldDescription.optional(),
    type: z.enum(['text', 'number', 'date', 'table'], { message: "expected 'text', 'number', 'date' or 'table'" }),
    required: z.boolean().optional(),
    subFields: z.array(subField).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.type === 'table' && (!f.subFields || f.subFields.length === 0)) {
      ctx.addIssue({ code: 'custom', path: ['subFields'], message: 'expected at least one sub-field for a table field' });
    }
    const dup = f.subFields?.map((s) => s.name).find((n, i, all) => all.indexOf(n) !== i);
    if (dup) ctx.addIssue({ code: 'custom', path: ['subFields'], message: `expected unique sub-field names, received "${dup}" twice` });
  });

export const templateSchemaInput = z
  .object({ fields: z.array(field, { message: 'expected an array of field definitions' }) })
  .superRefine((s, ctx) => {
    const dup = s.fields.map((f) => f.name).find((n, i, all) => all.indexOf(n) !== i);
    if (dup) ctx.addIssue({ code: 'custom', path: ['fields'], message: `expected unique field names, received "${dup}" twice` });
  });

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

export const parserConfigInput = z
  .object({
    parse_email_attachments: z.boolean(),
    parse_email_body: z.boolean(),
    date_format: z.string().nullable(),
    outbound_integration: z.record(z.string(), z.unknown()).nullable(),
    ocr_config: ocrConfigInput,
    query_config: queryConfigInput,
  })
  .partial()
  .strict();

const webhookUrl = z
  .url({ protocol: /^https?$/, message: 'expected an http(s) URL' })
  .nullable();

export const createTemplateBody = z.object({
  template_title: z.string({ message: 'expected a string' }).trim().min(1, { message: 'expected a non-empty title' }).max(200),
  template_type: z.string({ message: 'expected a string' }).min(1, { message: 'expected a non-empty type, e.g. "invoice"' }),
  template_schema: templateSchemaInput,
  webhook_url: webhookUrl.optional(),
  parser_config: parserConfigInput.optional(),
});

export const updateTemplateBody = z.strictObject(
  {
    template_type: createTemplateBody.shape.template_type.optional(),
    template_schema: templateSchemaInput.optional(),
    webhook_url: webhookUrl.optional(),
    parser_config: parserConfigInput.optional(),
  },
  rejectUnknownKeys('expected only template_type, template_schema, webhook_url, parser_config (template_title cannot be changed)'),
);

/** The engine name reported in ocr_config.engine. */
export const DEFAULT_OCR_ENGINE = 'docdrop';

export function defaultParserConfig(): ParserConfig {
  return {
    parse_email_attachments: true,
    parse_email_body: false,
    date_format: null,
    outbound_integration: null,
    ocr_config: {
      engine: DEFAULT_OCR_ENGINE,
      use_ocr: false,
      detect_layout: true,
      detect_tables: false,
      remove_headers: false,
      remove_footers: false,
      remove_tables: false,
    },
    query_config: {
      query_model: 'model-4o-mini',
      start_regex: null,
      end_regex: null,
      split_regex: null,
      use_all_matches: false,
      set_max_output_tokens: false,
      include_example: false,
      minimize_tokens: false,
      selected_language: null,
    },
  };
}

/** Present keys win; ocr_config and query_config merge key by key. */
export function mergeParserConfig(base: ParserConfig, patch: ParserConfigInput | undefined): ParserConfig {
  if (!patch) return base;
  return {
    ...base,
    ...patch,
    ocr_config: { ...base.ocr_config, ...patch.ocr_config },
    query_config: { ...base.query_config, ...patch.query_config },
  };
}

/** "<slug of title>-<first 8 of id>@<domain>": readable, unique through the id part. */
export function workflowEmail(title: string, templateId: string, domain: string): string {
  const slug =
    title
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'workflow';
  return `${slug}-${templateId.slice(0, 8)}@${domain}`;
}
