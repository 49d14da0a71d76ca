// Turns each rule's `workflow:` (title or template_id) or `classifier:` (name or classifier_id) into ids
// once at start. Lists are fetched once for all rules. An unknown name stops the start with an error that
// names the rule and lists what exists, because a typo would otherwise fail every dropped file later.
import type { Classifier, Workflow } from '../../api/types.js';

export type ResolvedTarget =
  | { kind: 'workflow'; templateId: string; title: string; workflows: ReadonlyMap<string, Workflow> }
  | {
      kind: 'classifier';
      classifierId: string;
      name: string;
      /** Every Workflow the Classifier may route to (class template_ids and default_template_id), by id. */
      workflows: ReadonlyMap<string, Workflow>;
    };

export interface TargetLookup {
  iterateTemplates(): AsyncIterable<Workflow>;
  iterateClassifiers(): AsyncIterable<Classifier>;
}

export interface RuleTargetRef {
  name: string;
  workflow?: string | undefined;
  classifier?: string | undefined;
}

export class TargetResolutionError extends Error {
  override readonly name = 'TargetResolutionError';
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

function listNames(names: string[]): string {
  if (names.length === 0) return '(none exist in this account)';
  const shown = names.slice(0, 20).map((n) => `"${n}"`).join(', ');
  return names.length > 20 ? `${shown}, ... (${names.length} in all)` : shown;
}

export async function resolveTargets(rules: RuleTargetRef[], api: TargetLookup): Promise<Map<string, ResolvedTarget>> {
  const needTemplates = rules.length > 0;
  const needClassifiers = rules.some((r) => r.classifier !== undefined);
  const templates = needTemplates ? await collect(api.iterateTemplates()) : [];
  const classifiers = needClassifiers ? await collect(api.iterateClassifiers()) : [];
  const byId = new Map(templates.map((t) => [t.template_id, t]));

  const out = new Map<string, ResolvedTarget>();
  for (const rule of rules) {
    if (rule.workflow !== undefined) {
      const w = byId.get(rule.workflow) ?? templates.find((t) => t.template_title === rule.workflow);
      if (!w) {
        throw new TargetResolutionError(
          `rule "${rule.name}": workflow "${rule.workflow}" matches no Workflow title or template_id; ` +
            `existing Workflows: ${listNames(templates.map((t) => t.template_title))}`,
        );
      }
      out.set(rule.name, { kind: 'workflow', templateId: w.template_id, title: w.template_title, workflows: new Map([[w.template_id, w]]) });
    } else if (rule.classifier !== undefined) {
      const c = classifiers.find((x) => x.classifier_id === rule.classifier) ?? classifiers.find((x) => x.name === rule.classifier);
      if (!c) {
        throw new TargetResolutionError(
          `rule "${rule.name}": classifier "${rule.classifier}" matches no Classifier name or classifier_id; ` +
            `existing Classifiers: ${listNames(classifiers.map((x) => x.name))}`,
        );
      }
      const ids = [...c.configs.classes.map((k) => k.template_id), c.configs.default_template_id];
      const workflows = new Map<string, Workflow>();
      for (const id of ids) {
        const w = id ? byId.get(id) : undefined;
        if (w) workflows.set(w.template_id, w);
      }
      out.set(rule.name, { kind: 'classifier', classifierId: c.classifier_id, name: c.name, workflows });
    } else {
      throw new TargetResolutionError(`rule "${rule.name}": set either workflow or classifier`);
    }
  }
  return out;
}
