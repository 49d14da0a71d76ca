// The config's `workflows:` and `classifiers:` sections: Workflows and Classifiers as code. Their shape
// follows the service's resources with friendlier keys (title, type, fields; a class names its Workflow
// by title); the rules are the spec's own (api/definition-rules.ts), shared with `docdrop serve`.
import { z } from 'zod';
import {
  classDescription,
  classifierName,
  classifierQueryModel,
  classifierType,
  classLabel,
  classList,
  minConfidence,
  pageRanges,
  parserConfigInput,
  strictTemplateFields,
  templateTitle,
  templateType,
  webhookUrl,
} from '../../api/definition-rules.js';

/** A Workflow title or template_id, resolved against the config and the account when applied. */
const workflowRef = templateTitle;

export const workflowDefinitionSchema = z.strictObject({
  /** The key: matched by title in the account. */
  title: templateTitle,
  type: templateType,
  fields: strictTemplateFields,
  /** Only the keys written here are managed; the others keep the service's values (its defaults on create). */
  parser_config: parserConfigInput.optional(),
  webhook_url: webhookUrl.optional(),
});

export const classifierDefinitionSchema = z.strictObject({
  /** The key: matched by name in the account. */
  name: classifierName,
  classes: classList(
    z.strictObject({
      label: classLabel,
      description: classDescription,
      /** Omitted: the label has no Workflow of its own (default_workflow applies). */
      workflow: workflowRef.optional(),
    }),
  ),
  default_workflow: workflowRef.nullable().optional(),
  min_confidence: minConfidence.nullable().optional(),
  classifier_type: classifierType.optional(),
  query_model: classifierQueryModel.optional(),
  use_ocr: z.boolean().optional(),
  page_range: pageRanges().nullable().optional(),
});

/** The two sections, as the config and a definitions file (`docdrop workflows apply --file`) hold them. */
export const definitionSections = {
  workflows: z.array(workflowDefinitionSchema).default([]),
  classifiers: z.array(classifierDefinitionSchema).default([]),
};

export type WorkflowDefinition = z.output<typeof workflowDefinitionSchema>;
export type ClassifierDefinition = z.output<typeof classifierDefinitionSchema>;

/** Titles and names are the keys that match definitions to the account: each must be unique. */
export function checkUniqueDefinitions(
  sections: { workflows: readonly WorkflowDefinition[]; classifiers: readonly ClassifierDefinition[] },
  problems: string[],
): void {
  const unique = (keys: string[], at: (i: number) => string, what: string) => {
    const seen = new Map<string, number>();
    keys.forEach((k, i) => {
      const first = seen.get(k);
      if (first !== undefined) problems.push(`${at(i)}: "${k}" is already the ${what} of ${at(first).replace(/\.\w+$/, '')}; ${what}s must be unique`);
      else seen.set(k, i);
    });
  };
  unique(sections.workflows.map((w) => w.title), (i) => `workflows[${i}].title`, 'title');
  unique(sections.classifiers.map((c) => c.name), (i) => `classifiers[${i}].name`, 'name');
}
