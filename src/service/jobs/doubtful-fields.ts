// Which required fields a person should check although the engine found a value: those whose
// confidence is under the Workflow's parser_config.confidence_threshold (docdrop extension). They
// make has_missing_required_fields true, so "needs review" covers doubtful values, not only absent ones.
import type { FieldDefinition, ParserConfig } from '../../api/types.js';

/** Used when a Workflow sets no confidence_threshold: on the corpus, most wrong values score below it. */
export const DEFAULT_CONFIDENCE_THRESHOLD = 0.5;

export function doubtfulRequired(fields: FieldDefinition[], confidence: Record<string, number>, cfg: Pick<ParserConfig, 'confidence_threshold'>): string[] {
  const threshold = cfg.confidence_threshold ?? DEFAULT_CONFIDENCE_THRESHOLD;
  return fields.filter((f) => f.required && typeof confidence[f.name] === 'number' && confidence[f.name] < threshold).map((f) => f.name);
}
