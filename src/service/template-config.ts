// Workflow settings: the request schemas (built from the spec's rules, api/definition-rules.ts),
// parser_config defaults, the nested merge PUT uses, and the address each Workflow receives mail at.
import { z } from 'zod';
import type { ParserConfig, ParserConfigInput } from '../api/types.js';
import { parserConfigInput, SPEC_PARSER_CONFIG_DEFAULTS, templateFields, templateTitle, templateType, webhookUrl } from '../api/definition-rules.js';
import { rejectUnknownKeys } from './validate.js';

export const templateSchemaInput = z.object({ fields: templateFields });

export const createTemplateBody = z.object({
  template_title: templateTitle,
  template_type: templateType,
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

/** The spec's stated defaults, and docdrop serve's own choice for the keys the spec leaves open. */
export function defaultParserConfig(): ParserConfig {
  const spec = SPEC_PARSER_CONFIG_DEFAULTS;
  return {
    ...spec,
    date_format: null,
    outbound_integration: null,
    ocr_config: { engine: DEFAULT_OCR_ENGINE, ...spec.ocr_config },
    query_config: {
      query_model: 'model-4o-mini',
      start_regex: null,
      end_regex: null,
      split_regex: null,
      ...spec.query_config,
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
