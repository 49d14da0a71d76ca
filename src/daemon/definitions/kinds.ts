// Workflows and Classifiers seen the same way by the commands that list, show, export and delete them:
// how each is listed, named, summarised and turned back into a definition.
import type { Classifier, Workflow } from '../../api/types.js';
import type { ClassifierDefinition, WorkflowDefinition } from '../config/definitions-schema.js';
import { collect, type DefinitionsApi } from './apply.js';
import { classifierDefinition, workflowDefinition } from './export.js';

export interface DefinitionKind<Item> {
  /** The config section: `workflows` or `classifiers`. */
  section: 'workflows' | 'classifiers';
  /** How the spec names one: `Workflow` or `Classifier`. */
  noun: string;
  list(api: DefinitionsApi): Promise<Item[]>;
  name(item: Item): string;
  id(item: Item): string;
  /** One row of `list`, columns in order (also its --json). */
  summary(item: Item): Record<string, string | number>;
  /** As config definitions; Classifiers name their Workflows by title, so those are listed too. */
  definitions(api: DefinitionsApi, items: Item[]): Promise<(WorkflowDefinition | ClassifierDefinition)[]>;
  remove(api: DefinitionsApi, id: string): Promise<unknown>;
}

export const workflowKind: DefinitionKind<Workflow> = {
  section: 'workflows',
  noun: 'Workflow',
  list: (api) => collect(api.iterateTemplates()),
  name: (w) => w.template_title,
  id: (w) => w.template_id,
  summary: (w) => ({ title: w.template_title, type: w.template_type, template_id: w.template_id, fields: w.template_schema?.fields?.length ?? 0 }),
  definitions: async (_api, items) => items.map(workflowDefinition),
  remove: (api, id) => api.deleteTemplate(id),
};

export const classifierKind: DefinitionKind<Classifier> = {
  section: 'classifiers',
  noun: 'Classifier',
  list: (api) => collect(api.iterateClassifiers()),
  name: (c) => c.name,
  id: (c) => c.classifier_id,
  summary: (c) => ({ name: c.name, classes: c.configs.classes.map((k) => k.label).join(', '), classifier_id: c.classifier_id }),
  definitions: async (api, items) => {
    if (items.length === 0) return [];
    const titles = new Map((await collect(api.iterateTemplates())).map((w) => [w.template_id, w.template_title]));
    return items.map((c) => classifierDefinition(c, (id) => titles.get(id) ?? id));
  },
  remove: (api, id) => api.deleteClassifier(id),
};

/** The item a person named by name (title) or id; an unknown one is an error listing what exists. */
export function findDefinition<Item>(kind: DefinitionKind<Item>, items: Item[], ref: string): Item {
  const found = items.find((i) => kind.id(i) === ref.toLowerCase()) ?? items.find((i) => kind.name(i) === ref);
  if (found) return found;
  const names = items.map((i) => `"${kind.name(i)}"`);
  throw new Error(`no ${kind.noun} is named "${ref}" (or has that id); existing: ${names.length > 0 ? names.join(', ') : 'none'}`);
}
