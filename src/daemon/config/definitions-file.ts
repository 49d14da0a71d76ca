// A definitions file (`docdrop workflows apply --file F`, the output of `export`): the config's
// `workflows:` and `classifiers:` sections on their own, checked by the same schema and reported the
// same way. A section the file leaves out is absent (not managed), not empty.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError, formatIssue } from './config.js';
import { checkUniqueDefinitions, classifierDefinitionSchema, workflowDefinitionSchema, type ClassifierDefinition, type WorkflowDefinition } from './definitions-schema.js';

const fileSchema = z.strictObject({
  workflows: z.array(workflowDefinitionSchema).optional(),
  classifiers: z.array(classifierDefinitionSchema).optional(),
});

export interface DefinitionsFile {
  workflows?: WorkflowDefinition[];
  classifiers?: ClassifierDefinition[];
}

export async function loadDefinitionsFile(path: string): Promise<DefinitionsFile> {
  const file = resolve(path);
  let tree: unknown;
  try {
    tree = parseYaml(await readFile(file, 'utf8')) ?? {};
  } catch (err) {
    throw new ConfigError(file, [`cannot read the definitions file: ${(err as Error).message}`]);
  }
  const parsed = fileSchema.safeParse(tree, { reportInput: true });
  if (!parsed.success) throw new ConfigError(file, parsed.error.issues.map(formatIssue));
  const problems: string[] = [];
  checkUniqueDefinitions({ workflows: parsed.data.workflows ?? [], classifiers: parsed.data.classifiers ?? [] }, problems);
  if (problems.length > 0) throw new ConfigError(file, problems);
  return parsed.data as DefinitionsFile;
}
