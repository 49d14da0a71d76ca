// The plan: what applying Workflow and Classifier definitions would do to an account. Definitions match
// the account by Workflow title and Classifier name (never by hard-coded id). A class names its Workflow by
// title (or template_id): one defined alongside or one the account has; any other is refused here, before
// a single request is sent. Planning reads only what it is given; applying is apply.ts.
import type { Classifier, ClassifierInput, CreateTemplateRequest, UpdateTemplateRequest, Workflow } from '../../api/types.js';
import type { ClassifierDefinition, WorkflowDefinition } from '../config/definitions-schema.js';
import { attributeChanges, canonicalField, fieldChanges, namedListChanges, sameValue, subsetChanges, type KeyChange } from './compare.js';

export type { KeyChange };

/** In the account but not among the definitions: `delete` with prune, else `untracked` (left alone). */
export type PlanItem<Create, Update> =
  | { action: 'create'; name: string; body: Create }
  | { action: 'update'; name: string; id: string; changes: KeyChange[]; body: Update }
  | { action: 'unchanged'; name: string; id: string }
  | { action: 'delete' | 'untracked'; name: string; id: string };

/**
 * A Classifier's settings with every Workflow named by title (resolved to template_ids only when sent,
 * after the Workflows it names have been created).
 */
export type ClassifierBody = Omit<ClassifierInput, 'classes' | 'default_template_id'> & {
  classes?: { label: string; description: string; workflow?: string }[];
  default_workflow?: string | null;
};

export type WorkflowPlanItem = PlanItem<CreateTemplateRequest, UpdateTemplateRequest>;
export type ClassifierPlanItem = PlanItem<ClassifierBody & { name: string }, ClassifierBody>;

export interface DefinitionsPlan {
  workflows: WorkflowPlanItem[];
  classifiers: ClassifierPlanItem[];
}

/** What to plan: an absent section is not managed at all (its account entries are not even listed). */
export interface DesiredDefinitions {
  workflows?: readonly WorkflowDefinition[] | undefined;
  classifiers?: readonly ClassifierDefinition[] | undefined;
}

export interface AccountDefinitions {
  workflows: readonly Workflow[];
  classifiers: readonly Classifier[];
}

/** Definitions that cannot be applied (a class naming an unknown Workflow); nothing was sent. */
export class DefinitionError extends Error {
  override readonly name = 'DefinitionError';
  constructor(readonly problems: string[]) {
    super(`cannot apply the definitions (nothing was sent):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function planDefinitions(desired: DesiredDefinitions, account: AccountDefinitions, opts: { prune: boolean }): DefinitionsPlan {
  const problems: string[] = [];
  const workflows = desired.workflows ? planWorkflows(desired.workflows, account.workflows, opts.prune) : [];
  const refs = workflowRefs(account.workflows, desired.workflows ?? []);
  const classifiers = desired.classifiers ? planClassifiers(desired.classifiers, account, refs, opts.prune, problems) : [];
  if (problems.length > 0) throw new DefinitionError(problems);
  return { workflows, classifiers };
}

/** True when applying the plan would send nothing. */
export function planIsEmpty(plan: DefinitionsPlan): boolean {
  return [...plan.workflows, ...plan.classifiers].every((i) => i.action === 'unchanged' || i.action === 'untracked');
}

function planWorkflows(desired: readonly WorkflowDefinition[], account: readonly Workflow[], prune: boolean): WorkflowPlanItem[] {
  const items: WorkflowPlanItem[] = desired.map((d) => {
    const have = account.find((w) => w.template_title === d.title);
    if (!have) {
      const body: CreateTemplateRequest = {
        template_title: d.title,
        template_type: d.type,
        template_schema: { fields: d.fields.map(canonicalField) as WorkflowDefinition['fields'] },
        ...(d.parser_config ? { parser_config: d.parser_config } : {}),
        ...(d.webhook_url !== undefined ? { webhook_url: d.webhook_url } : {}),
      };
      return { action: 'create', name: d.title, body };
    }
    const changes: KeyChange[] = [];
    const body: UpdateTemplateRequest = {};
    if (d.type !== have.template_type) {
      changes.push({ key: 'type', from: have.template_type, to: d.type });
      body.template_type = d.type;
    }
    const fields = fieldChanges(have.template_schema?.fields ?? [], d.fields);
    if (fields.length > 0) {
      changes.push(...fields);
      // template_schema is one key: PUT replaces it whole.
      body.template_schema = { fields: d.fields.map(canonicalField) as WorkflowDefinition['fields'] };
    }
    if (d.parser_config) {
      const pc = subsetChanges(d.parser_config, have.parser_config as unknown as Record<string, unknown>, 'parser_config');
      changes.push(...pc.changes);
      if (pc.patch) body.parser_config = pc.patch;
    }
    if (d.webhook_url !== undefined && d.webhook_url !== have.webhook_url) {
      changes.push({ key: 'webhook_url', from: have.webhook_url, to: d.webhook_url });
      body.webhook_url = d.webhook_url;
    }
    return changes.length > 0 ? { action: 'update', name: d.title, id: have.template_id, changes, body } : { action: 'unchanged', name: d.title, id: have.template_id };
  });
  const named = new Set(desired.map((d) => d.title));
  for (const w of account) {
    if (!named.has(w.template_title)) items.push({ action: prune ? 'delete' : 'untracked', name: w.template_title, id: w.template_id });
  }
  return items;
}

/** How a class or default names a Workflow, as a title: ids of the account's Workflows become their titles. */
interface WorkflowRefs {
  titleOf(ref: string): string | undefined;
  /** Title of an account template_id, or the id itself for one the account does not list. */
  titleOfId(id: string): string;
}

function workflowRefs(account: readonly Workflow[], defined: readonly WorkflowDefinition[]): WorkflowRefs {
  const byId = new Map(account.map((w) => [w.template_id, w.template_title]));
  const titles = new Set([...account.map((w) => w.template_title), ...defined.map((d) => d.title)]);
  return {
    titleOf: (ref) => byId.get(ref) ?? byId.get(ref.toLowerCase()) ?? (titles.has(ref) ? ref : undefined),
    titleOfId: (id) => byId.get(id) ?? id,
  };
}

function planClassifiers(
  desired: readonly ClassifierDefinition[],
  account: AccountDefinitions,
  refs: WorkflowRefs,
  prune: boolean,
  problems: string[],
): ClassifierPlanItem[] {
  const resolve = (ref: string, at: string): string => {
    const title = refs.titleOf(ref);
    if (title === undefined) {
      problems.push(
        `${at}: "${ref}" matches no Workflow title or template_id, neither among the definitions nor in the account ` +
          `(existing: ${account.workflows.map((w) => `"${w.template_title}"`).join(', ') || 'none'})`,
      );
    }
    return title ?? ref;
  };
  const items: ClassifierPlanItem[] = desired.map((d, i) => {
    const at = `classifiers[${i}]`;
    const wanted: ClassifierBody = {
      classes: d.classes.map((c, j) => ({
        label: c.label,
        description: c.description,
        ...(c.workflow !== undefined ? { workflow: resolve(c.workflow, `${at}.classes[${j}].workflow`) } : {}),
      })),
      ...(d.default_workflow !== undefined
        ? { default_workflow: d.default_workflow === null ? null : resolve(d.default_workflow, `${at}.default_workflow`) }
        : {}),
      ...pickDefined(d, ['min_confidence', 'classifier_type', 'query_model', 'use_ocr', 'page_range']),
    };
    const have = account.classifiers.find((c) => c.name === d.name);
    if (!have) return { action: 'create', name: d.name, body: { name: d.name, ...wanted } };
    const current: ClassifierBody = {
      ...have.configs,
      classes: have.configs.classes.map((c) => ({
        label: c.label,
        description: c.description,
        ...(c.template_id ? { workflow: refs.titleOfId(c.template_id) } : {}),
      })),
      default_workflow: have.configs.default_template_id ? refs.titleOfId(have.configs.default_template_id) : null,
    };
    const changes: KeyChange[] = [];
    const body: ClassifierBody = {};
    for (const key of Object.keys(wanted) as (keyof ClassifierBody)[]) {
      const value = wanted[key];
      // An absent value and null both mean unset (page_range, min_confidence, default_workflow).
      if (!sameValue(value ?? null, current[key] ?? null)) {
        if (key === 'classes') changes.push(...classChanges(current.classes ?? [], value as NonNullable<ClassifierBody['classes']>));
        else changes.push({ key, from: current[key], to: value });
        // `classes` is replaced whole (spec: PUT replaces the list), so it is sent whole.
        (body as Record<string, unknown>)[key] = value;
      }
    }
    return changes.length > 0 ? { action: 'update', name: d.name, id: have.classifier_id, changes, body } : { action: 'unchanged', name: d.name, id: have.classifier_id };
  });
  const named = new Set(desired.map((d) => d.name));
  for (const c of account.classifiers) {
    if (!named.has(c.name)) items.push({ action: prune ? 'delete' : 'untracked', name: c.name, id: c.classifier_id });
  }
  return items;
}

type ClassBody = NonNullable<ClassifierBody['classes']>[number];

function classChanges(from: readonly ClassBody[], to: readonly ClassBody[]): KeyChange[] {
  return namedListChanges(from, to, (c) => c.label, 'classes', (a, b, at) => attributeChanges(a, b, ['description', 'workflow'], at));
}

function pickDefined<T extends object, K extends keyof T>(obj: T, keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (obj[k] !== undefined) out[k] = obj[k];
  return out;
}
