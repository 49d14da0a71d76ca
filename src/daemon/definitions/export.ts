// An account's Workflows and Classifiers as definitions, in the shape of the config's `workflows:` and
// `classifiers:` sections: classes name their Workflow by title again, and parser_config keeps only what
// says something (values equal to the spec's stated defaults, nulls and the service-assigned engine are
// left out; apply leaves keys that are left out as they are, so the round trip changes nothing).
import { Document, isMap, isSeq, visit } from 'yaml';
import { SPEC_PARSER_CONFIG_DEFAULTS } from '../../api/definition-rules.js';
import type { Classifier, ParserConfig, Workflow } from '../../api/types.js';
import type { ClassifierDefinition, WorkflowDefinition } from '../config/definitions-schema.js';
import { canonicalField, sameValue } from './compare.js';

/** Keys the spec lists without a default that a service fills with false; false says nothing there. */
const QUIET_FALSE = new Set(['set_max_output_tokens', 'include_example', 'minimize_tokens']);
/** Assigned by the service, not chosen by the user. */
const SERVICE_ASSIGNED = new Set(['engine']);

export function workflowDefinition(w: Workflow): WorkflowDefinition {
  const parserConfig = telling(w.parser_config, SPEC_PARSER_CONFIG_DEFAULTS);
  return {
    title: w.template_title,
    type: w.template_type,
    fields: (w.template_schema?.fields ?? []).map(canonicalField) as WorkflowDefinition['fields'],
    ...(parserConfig ? { parser_config: parserConfig as WorkflowDefinition['parser_config'] } : {}),
    ...(w.webhook_url ? { webhook_url: w.webhook_url } : {}),
  };
}

/** `titleOfId` names a class's Workflow by title (or keeps an id the account does not list). */
export function classifierDefinition(c: Classifier, titleOfId: (id: string) => string): ClassifierDefinition {
  const k = c.configs;
  return {
    name: c.name,
    classes: k.classes.map((x) => ({ label: x.label, description: x.description, ...(x.template_id ? { workflow: titleOfId(x.template_id) } : {}) })),
    ...(k.default_template_id ? { default_workflow: titleOfId(k.default_template_id) } : {}),
    ...(k.min_confidence != null ? { min_confidence: k.min_confidence } : {}),
    ...(k.classifier_type ? { classifier_type: k.classifier_type } : {}),
    ...(k.query_model ? { query_model: k.query_model } : {}),
    ...(typeof k.use_ocr === 'boolean' ? { use_ocr: k.use_ocr } : {}),
    ...(k.page_range ? { page_range: k.page_range } : {}),
  };
}

/** The parser_config keys that differ from the defaults, nested; undefined when none do. */
function telling(config: ParserConfig | Record<string, unknown> | undefined, defaults: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!config) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (value === null || value === undefined || SERVICE_ASSIGNED.has(key) || (QUIET_FALSE.has(key) && value === false)) continue;
    if (typeof value === 'object' && !Array.isArray(value)) {
      const inner = telling(value as Record<string, unknown>, (defaults[key] ?? {}) as Record<string, unknown>);
      if (inner) out[key] = inner;
    } else if (!sameValue(value, defaults[key])) {
      out[key] = value;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** YAML of the sections, one line per field and class where it fits (as a person writes them). */
export function definitionsYaml(sections: { workflows?: WorkflowDefinition[]; classifiers?: ClassifierDefinition[] }): string {
  const doc = new Document(sections);
  visit(doc, {
    Pair(_, pair) {
      const key = String((pair.key as { value?: unknown } | null)?.value ?? '');
      if (['fields', 'subFields', 'classes'].includes(key) && isSeq(pair.value)) {
        for (const item of pair.value.items) if (isMap(item) && !item.items.some((p) => String((p.key as { value?: unknown }).value) === 'subFields')) item.flow = true;
      }
    },
  });
  return doc.toString({ lineWidth: 0 });
}
