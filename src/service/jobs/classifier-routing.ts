// Classify + extract routing (spec rules 3 and 4): the winning label's template, else default_template_id
// when the label has none or its confidence is below min_confidence, else no template (job fails and
// the classify credit is refunded).
import type { ClassifierConfigs } from '../../api/types.js';

export type Route = { templateId: string; reason: 'label' | 'default' } | { templateId: null; message: string };

export function routeLabel(configs: ClassifierConfigs, label: string, scores: Record<string, number>): Route {
  const mapped = configs.classes.find((c) => c.label === label)?.template_id || null;
  const score = scores[label] ?? 0;
  const min = configs.min_confidence ?? null;
  const belowMin = min !== null && score < min;
  if (mapped && !belowMin) return { templateId: mapped, reason: 'label' };
  if (configs.default_template_id) return { templateId: configs.default_template_id, reason: 'default' };
  const why = mapped
    ? `its confidence ${score.toFixed(2)} is below min_confidence ${min} and the Classifier has no default_template_id`
    : 'the label has no template_id and the Classifier has no default_template_id';
  return { templateId: null, message: `no extraction template is mapped to label '${label}' (${why}); the classify credit was refunded` };
}
