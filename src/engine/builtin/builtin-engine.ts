// The built-in rules engine: no network, no model files; words and their positions only.
import type { ClassifyInput, ClassifyOutput, ExtractInput, ExtractOutput, ExtractionEngine } from '../types.js';
import { classifyPages } from './classify.js';
import { extractFields } from './extract-fields.js';

/** Bumped whenever the rules change what they extract, so results can be traced to a rule set. */
export const BUILTIN_ENGINE_VERSION = '1.18.0';

export function createBuiltinEngine(): ExtractionEngine {
  return {
    name: 'docdrop-builtin',
    version: BUILTIN_ENGINE_VERSION,
    async extract(input: ExtractInput): Promise<ExtractOutput> {
      return extractFields(input);
    },
    async classify(input: ClassifyInput): Promise<ClassifyOutput> {
      return classifyPages(input);
    },
  };
}
