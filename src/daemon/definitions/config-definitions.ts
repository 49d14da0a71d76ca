// At start the account is made to match the config's `workflows:` and `classifiers:` (never pruned: a
// start deletes nothing), before the rules' targets are resolved, so a rule may name a definition.
import type { Logger } from '../../shared/logger.js';
import type { DaemonConfig } from '../config/config.js';
import type { ClassifierDefinition, WorkflowDefinition } from '../config/definitions-schema.js';
import { syncDefinitions, type AppliedChange, type DefinitionsApi } from './apply.js';

export async function applyConfigDefinitions(config: DaemonConfig, api: DefinitionsApi, logger: Logger): Promise<AppliedChange[]> {
  if (config.workflows.length === 0 && config.classifiers.length === 0) return [];
  const { applied } = await syncDefinitions(api, {
    workflows: config.workflows as readonly WorkflowDefinition[],
    // Unmanaged when none are defined: their list is not even fetched.
    classifiers: config.classifiers.length > 0 ? (config.classifiers as readonly ClassifierDefinition[]) : undefined,
  });
  for (const c of applied) {
    const what = c.kind === 'workflow' ? 'Workflow' : 'Classifier';
    logger.info({ [c.kind]: c.name, id: c.id, ...(c.keys.length > 0 ? { keys: c.keys } : {}) }, `${c.action}d ${what} from the config`);
  }
  return applied;
}
