// Standalone classification: POST /v1/classify (inline labels) and POST /v1/classifiers/{id}/classify
// (a saved Classifier, with per-call page_range/query_model overrides that are never saved).
// Synchronous; flat 1 credit per classified document. The document must have been OCR-processed by an
// earlier extraction (its text recorded by a completed job), else 400 document_not_processed.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ErrorCodes } from '../../api/error-codes.js';
import type { ClassificationResult, ClassifierConfigs } from '../../api/types.js';
import { DocumentError, type DocumentEngine } from '../../engine/index.js';
import type { FileKind } from '../../shared/file-kind.js';
import type { Logger } from '../../shared/logger.js';
import type { Account } from '../accounts.js';
import { ServiceError } from '../service-error.js';
import type { ClassifiersRepo } from '../store/classifiers-repo.js';
import type { DocumentsRepo } from '../store/documents-repo.js';
import type { FileStore } from '../store/file-store.js';
import { requireClassifier, requireDocument } from '../usecases/owned-rows.js';
import { pageRanges, parseInput, pathId, uuid } from '../validate.js';

const queryModel = z.enum(['model-4o-mini', 'model-4o'], { message: "expected 'model-4o-mini' or 'model-4o'" });

const classifyBody = z.object({
  document_id: uuid(),
  classification_schema: z
    .array(z.object({ label: z.string().min(1, { message: 'expected a non-empty label' }), description: z.string() }), {
      message: 'expected an array of {label, description}',
    })
    .min(2, { message: 'expected at least 2 classes' })
    .refine((cs) => new Set(cs.map((c) => c.label)).size === cs.length, { message: 'expected distinct labels' }),
  page_range: pageRanges().optional(),
  query_model: queryModel.optional(),
});

const classifierClassifyBody = z.object({
  document_id: uuid(),
  page_range: pageRanges().optional(),
  query_model: queryModel.optional(),
});

interface ClassifyCall {
  classes: { label: string; description: string }[];
  pageRange?: string;
  queryModel?: string;
  useOcr: boolean;
  classifierId: string | null;
}

export interface ClassifyRoutesDeps {
  documents: DocumentsRepo;
  classifiers: ClassifiersRepo;
  files: FileStore;
  engine: DocumentEngine;
  logger: Logger;
}

export function classifyRoutes(app: FastifyInstance, deps: ClassifyRoutesDeps): void {
  app.post('/v1/classify', async (req): Promise<ClassificationResult> => {
    const b = parseInput(classifyBody, req.body, 'body');
    return classify(deps, req.account, b.document_id.toLowerCase(), {
      classes: b.classification_schema,
      pageRange: b.page_range,
      queryModel: b.query_model ?? 'model-4o-mini',
      // No use_ocr on this call: read the text layer, OCR only the pages without one (as the extraction did).
      useOcr: false,
      classifierId: null,
    });
  });

  app.post('/v1/classifiers/:classifier_id/classify', async (req): Promise<ClassificationResult> => {
    const id = pathId('classifier_id', (req.params as Record<string, string>).classifier_id);
    const b = parseInput(classifierClassifyBody, req.body, 'body');
    const row = await requireClassifier(deps, req.account, id);
    const configs = JSON.parse(row.configs) as ClassifierConfigs;
    return classify(deps, req.account, b.document_id.toLowerCase(), {
      classes: configs.classes,
      pageRange: b.page_range ?? configs.page_range ?? undefined,
      queryModel: b.query_model ?? configs.query_model,
      useOcr: configs.use_ocr,
      classifierId: row.classifier_id,
    });
  });
}

async function classify(deps: ClassifyRoutesDeps, account: Account, documentId: string, call: ClassifyCall): Promise<ClassificationResult> {
  const doc = await requireDocument(deps, account, documentId);
  if (doc.content === null) {
    throw new ServiceError(
      400,
      ErrorCodes.documentNotProcessed,
      `document ${documentId}: not OCR-processed yet; run an extraction on it first (run_parser or POST /v1/extract) and wait until it completes`,
    );
  }
  const started = performance.now();
  const base = { request_id: randomUUID(), document_id: documentId, classifier_id: call.classifierId };
  try {
    const r = await deps.engine.classify({
      filePath: deps.files.documentPath(documentId),
      kind: doc.file_extension as FileKind,
      classes: call.classes.map(({ label, description }) => ({ label, description })),
      pageRange: call.pageRange,
      useOcr: call.useOcr,
      queryModel: call.queryModel,
    });
    return { ...base, classification: r.label, confidence_scores: r.scores, request_status: 'completed', credits_used: 1, num_pages: r.numPages, duration: seconds(started) };
  } catch (err) {
    // Job-level failure, reported in the result as the spec's classification request_status (not an HTTP error).
    const status = err instanceof DocumentError ? 'failed' : 'exception';
    deps.logger.warn({ err, documentId, status }, 'classification did not complete');
    return { ...base, classification: '', confidence_scores: {}, request_status: status, credits_used: 0, num_pages: doc.num_pages, duration: seconds(started) };
  }
}

const seconds = (since: number) => Math.round(performance.now() - since) / 1000;
