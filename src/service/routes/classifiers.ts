// /v1/classifiers: create (flat body, nested `configs` in responses), list, get, update (classes
// replaced whole), and DELETE, an extension the spec refers to without showing.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { classDescription, classifierName, classifierQueryModel, classifierType, classLabel, classList, minConfidence } from '../../api/definition-rules.js';
import { ErrorCodes } from '../../api/error-codes.js';
import type { Classifier, ClassifierConfigs, ClassifierList, SuccessResponse } from '../../api/types.js';
import { specTimestamp } from '../../shared/time.js';
import type { Account } from '../accounts.js';
import { ServiceError } from '../service-error.js';
import { seqAfterKey } from '../http/paging.js';
import { toClassifier, type ClassifiersRepo } from '../store/classifiers-repo.js';
import type { TemplatesRepo } from '../store/templates-repo.js';
import { requireClassifier } from '../usecases/owned-rows.js';
import { pageRanges, parseInput, pathId, rejectUnknownKeys, uuid } from '../validate.js';

export const CLASSIFIER_PAGE_SIZE = 50;

const classDef = z.object({
  label: classLabel,
  description: classDescription,
  template_id: uuid().optional(),
});

const fields = {
  name: classifierName,
  classes: classList(classDef),
  default_template_id: uuid().nullable(),
  min_confidence: minConfidence.nullable(),
  classifier_type: classifierType,
  query_model: classifierQueryModel,
  use_ocr: z.boolean({ message: 'expected a boolean' }),
  page_range: pageRanges().nullable(),
};

const strictMsg = rejectUnknownKeys('expected only name, classes, default_template_id, min_confidence, classifier_type, query_model, use_ocr, page_range (flat, not nested under configs)');

const createBody = z.strictObject(
  {
    name: fields.name,
    classes: fields.classes,
    default_template_id: fields.default_template_id.optional(),
    min_confidence: fields.min_confidence.optional(),
    classifier_type: fields.classifier_type.optional(),
    query_model: fields.query_model.optional(),
    use_ocr: fields.use_ocr.optional(),
    page_range: fields.page_range.optional(),
  },
  strictMsg,
);

const updateBody = z.strictObject(fields, strictMsg).partial();

const listQuery = z.object({ pagination_key: uuid().optional() });

export interface ClassifierRoutesDeps {
  classifiers: ClassifiersRepo;
  /** A Classifier's classes route to Workflows of the same account. */
  templates: TemplatesRepo;
}

/** Every template a Classifier routes to must be a live Workflow of the same account. */
async function checkTemplateRefs(deps: ClassifierRoutesDeps, account: Account, c: ClassifierConfigs): Promise<void> {
  const refs: [string, string][] = c.classes.flatMap((cls, i) => (cls.template_id ? [[`classes[${i}].template_id`, cls.template_id]] : []));
  if (c.default_template_id) refs.push(['default_template_id', c.default_template_id]);
  for (const [where, id] of refs) {
    const t = await deps.templates.get(id.toLowerCase());
    if (!t || t.account_id !== account.id) {
      throw new ServiceError(400, ErrorCodes.invalidRequest, `${where}: expected the template_id of a Workflow in this account, received ${id}`);
    }
  }
}

/** Each update must move updated_at forward, even within the same millisecond. */
function after(prev: string): string {
  const now = specTimestamp();
  if (now > prev) return now;
  const micros = Number(prev.slice(-6)) + 1;
  return micros < 1_000_000 ? prev.slice(0, -6) + String(micros).padStart(6, '0') : specTimestamp(new Date(Date.now() + 1));
}

export function classifierRoutes(app: FastifyInstance, deps: ClassifierRoutesDeps): void {
  const { classifiers } = deps;

  app.post('/v1/classifiers', async (req): Promise<Classifier> => {
    const b = parseInput(createBody, req.body, 'body');
    const configs: ClassifierConfigs = {
      classifier_type: b.classifier_type ?? 'document',
      classes: b.classes,
      default_template_id: b.default_template_id ?? null,
      min_confidence: b.min_confidence ?? null,
      query_model: b.query_model ?? 'model-4o-mini',
      page_range: b.page_range ?? null,
      use_ocr: b.use_ocr ?? true,
    };
    await checkTemplateRefs(deps, req.account, configs);
    const id = randomUUID();
    await classifiers.insert({ classifier_id: id, account_id: req.account.id, name: b.name, configs, now: specTimestamp() });
    return toClassifier((await classifiers.get(id))!);
  });

  app.get('/v1/classifiers', async (req): Promise<ClassifierList> => {
    const q = parseInput(listQuery, req.query, 'query');
    const afterSeq = await seqAfterKey(q.pagination_key, req.account.id, (id) => classifiers.getAny(id));
    const { rows, more } = await classifiers.list(req.account.id, afterSeq, CLASSIFIER_PAGE_SIZE);
    return { success: true, items: rows.map(toClassifier), pagination_key: more ? rows.at(-1)!.classifier_id : null };
  });

  app.get('/v1/classifiers/:classifier_id', async (req): Promise<Classifier> => {
    const id = pathId('classifier_id', (req.params as Record<string, string>).classifier_id);
    return toClassifier(await requireClassifier(deps, req.account, id));
  });

  app.put('/v1/classifiers/:classifier_id', async (req): Promise<Classifier> => {
    const id = pathId('classifier_id', (req.params as Record<string, string>).classifier_id);
    const b = parseInput(updateBody, req.body, 'body');
    const row = await requireClassifier(deps, req.account, id);
    const current = toClassifier(row);
    const { name, ...settings } = b;
    const configs: ClassifierConfigs = {
      ...current.configs,
      ...Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)),
    };
    await checkTemplateRefs(deps, req.account, configs);
    await classifiers.update(id, name ?? current.name, configs, after(row.updated_at));
    return toClassifier((await classifiers.get(id))!);
  });

  app.delete('/v1/classifiers/:classifier_id', async (req): Promise<SuccessResponse> => {
    const id = pathId('classifier_id', (req.params as Record<string, string>).classifier_id);
    await requireClassifier(deps, req.account, id);
    await classifiers.delete(id, specTimestamp());
    return { success: true };
  });
}
