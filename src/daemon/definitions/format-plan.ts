// A plan as a person reads it: `+` create, `~` update with `key: old -> new`, `-` delete, `=` unchanged,
// and what the account has beyond the definitions (kept unless pruned).
import type { DefinitionsPlan, KeyChange, PlanItem } from './plan.js';

export function formatPlan(plan: DefinitionsPlan): string {
  const lines: string[] = [];
  const section = (kind: string, items: PlanItem<unknown, unknown>[]) => {
    for (const item of items) {
      const what = `${kind} "${item.name}"`;
      switch (item.action) {
        case 'create':
          lines.push(`+ ${what}`);
          break;
        case 'update':
          lines.push(`~ ${what} (${item.id})`);
          for (const c of item.changes) lines.push(`    ${formatChange(c)}`);
          break;
        case 'unchanged':
          lines.push(`= ${what} (unchanged)`);
          break;
        case 'delete':
          lines.push(`- ${what} (${item.id})`);
          break;
        case 'untracked':
          lines.push(`  ${what} (${item.id}) is in the account but not defined here: kept (--prune deletes it)`);
          break;
      }
    }
  };
  section('Workflow', plan.workflows);
  section('Classifier', plan.classifiers);
  return lines.length > 0 ? `${lines.join('\n')}\n` : 'nothing defined and nothing in the account\n';
}

function formatChange(c: KeyChange): string {
  if (c.from === undefined) return `${c.key}: + ${show(c.to)}`;
  if (c.to === undefined) return `${c.key}: - ${show(c.from)}`;
  return `${c.key}: ${show(c.from)} -> ${show(c.to)}`;
}

function show(v: unknown): string {
  return JSON.stringify(v) ?? 'null';
}
