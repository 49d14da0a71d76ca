// Makes the account match the definitions: reads it, plans (plan.ts), then sends only what the plan
// names, in an order that keeps references valid: Workflows first (so classes can name new ones, by the
// template_id they just got), then Classifiers, then deletions (Classifiers before the Workflows they
// may name). A dry run stops after the plan.
import type {
  Classifier,
  ClassifierInput,
  CreateTemplateRequest,
  SuccessResponse,
  UpdateTemplateRequest,
  Workflow,
} from '../../api/types.js';
import { planDefinitions, type AccountDefinitions, type ClassifierBody, type DefinitionsPlan, type DesiredDefinitions } from './plan.js';

/** The service operations applying needs (ServiceClient has them). */
export interface DefinitionsApi {
  iterateTemplates(): AsyncIterable<Workflow>;
  iterateClassifiers(): AsyncIterable<Classifier>;
  createTemplate(req: CreateTemplateRequest): Promise<Workflow>;
  updateTemplate(id: string, req: UpdateTemplateRequest): Promise<Workflow>;
  deleteTemplate(id: string): Promise<SuccessResponse>;
  createClassifier(input: ClassifierInput & { name: string; classes: NonNullable<ClassifierInput['classes']> }): Promise<Classifier>;
  updateClassifier(id: string, input: ClassifierInput): Promise<Classifier>;
  deleteClassifier(id: string): Promise<SuccessResponse>;
}

export interface AppliedChange {
  kind: 'workflow' | 'classifier';
  action: 'create' | 'update' | 'delete';
  name: string;
  id: string;
  /** Keys sent in an update. */
  keys: string[];
}

export interface SyncResult {
  plan: DefinitionsPlan;
  /** What was sent, in order; empty for a dry run. */
  applied: AppliedChange[];
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The account's Workflows (always: classes name them), and its Classifiers when those are managed. */
export async function readAccount(api: DefinitionsApi, desired: DesiredDefinitions): Promise<AccountDefinitions> {
  return {
    workflows: await collect(api.iterateTemplates()),
    classifiers: desired.classifiers ? await collect(api.iterateClassifiers()) : [],
  };
}

export async function syncDefinitions(
  api: DefinitionsApi,
  desired: DesiredDefinitions,
  opts: { prune?: boolean; dryRun?: boolean } = {},
): Promise<SyncResult> {
  const account = await readAccount(api, desired);
  const plan = planDefinitions(desired, account, { prune: opts.prune === true });
  if (opts.dryRun) return { plan, applied: [] };
  return { plan, applied: await applyPlan(api, plan, account) };
}

export async function applyPlan(api: DefinitionsApi, plan: DefinitionsPlan, account: AccountDefinitions): Promise<AppliedChange[]> {
  const applied: AppliedChange[] = [];
  const idOfTitle = new Map(account.workflows.map((w) => [w.template_title, w.template_id]));
  for (const item of plan.workflows) {
    if (item.action === 'create') {
      const w = await api.createTemplate(item.body);
      idOfTitle.set(w.template_title, w.template_id);
      applied.push({ kind: 'workflow', action: 'create', name: item.name, id: w.template_id, keys: [] });
    } else if (item.action === 'update') {
      await api.updateTemplate(item.id, item.body);
      applied.push({ kind: 'workflow', action: 'update', name: item.name, id: item.id, keys: Object.keys(item.body) });
    }
  }
  const withIds = (body: ClassifierBody): ClassifierInput => {
    const { classes, default_workflow, ...rest } = body;
    const idOf = (title: string) => idOfTitle.get(title) ?? title;
    return {
      ...rest,
      ...(classes
        ? {
            classes: classes.map(({ workflow, ...c }) => ({ ...c, ...(workflow !== undefined ? { template_id: idOf(workflow) } : {}) })),
          }
        : {}),
      ...(default_workflow !== undefined ? { default_template_id: default_workflow === null ? null : idOf(default_workflow) } : {}),
    };
  };
  for (const item of plan.classifiers) {
    if (item.action === 'create') {
      const input = withIds(item.body);
      const c = await api.createClassifier({ ...input, name: item.body.name, classes: input.classes ?? [] });
      applied.push({ kind: 'classifier', action: 'create', name: item.name, id: c.classifier_id, keys: [] });
    } else if (item.action === 'update') {
      await api.updateClassifier(item.id, withIds(item.body));
      applied.push({ kind: 'classifier', action: 'update', name: item.name, id: item.id, keys: Object.keys(item.body) });
    }
  }
  for (const item of plan.classifiers) {
    if (item.action !== 'delete') continue;
    await api.deleteClassifier(item.id);
    applied.push({ kind: 'classifier', action: 'delete', name: item.name, id: item.id, keys: [] });
  }
  for (const item of plan.workflows) {
    if (item.action !== 'delete') continue;
    await api.deleteTemplate(item.id);
    applied.push({ kind: 'workflow', action: 'delete', name: item.name, id: item.id, keys: [] });
  }
  return applied;
}
