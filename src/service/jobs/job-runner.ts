// Runs one job: pending -> processing -> completed | failed | exception.
// Rule separating the two unhappy ends (the spec leaves it open):
//   failed    - the document or the request cannot be processed: DocumentError from the engine (unreadable
//               file, page_ranges selecting nothing...), a Workflow/Classifier deleted meanwhile, or no
//               template mapped to the winning label.
//   exception - anything else thrown while classifying or extracting (AI/engine errors, e.g. an LLM call
//               failing): the same request may succeed later.
// Credits (spec leaves extraction prices open): credits_used = pages read by a completed extraction,
// 0 for failed/exception; classify_credits = 1 once a Classifier has routed the document, 0 when no
// template was mapped (refund) or classification itself failed.
import type { ClassifierConfigs, ParserConfig, TemplateSchema } from '../../api/types.js';
import { DocumentError, type DocumentEngine } from '../../engine/index.js';
import { isFileKind } from '../../shared/file-kind.js';
import { specTimestamp } from '../../shared/time.js';
import type { Logger } from '../../shared/logger.js';
import type { FaultInjector } from '../faults.js';
import type { ClassifiersRepo } from '../store/classifiers-repo.js';
import type { DocumentsRepo } from '../store/documents-repo.js';
import type { FileStore } from '../store/file-store.js';
import type { TemplatesRepo } from '../store/templates-repo.js';
import { routeLabel } from './classifier-routing.js';
import type { Job, JobStatus, JobStore, JobUpdate } from '../store/job-store.js';
import { resolveRunOptions } from './run-options.js';
import { writeSelectedPages } from './selected-pages.js';
import { doubtfulRequired } from './doubtful-fields.js';

export interface JobRunnerDeps {
  documents: DocumentsRepo;
  templates: TemplatesRepo;
  classifiers: ClassifiersRepo;
  files: FileStore;
  logger: Logger;
  store: JobStore;
  engine: DocumentEngine;
  faults: FaultInjector;
  /** Called once a job reaches a final state (webhooks). */
  onFinished(job: Job): void;
}

/** A failure that ends the job 'failed' (not retried, not the engine's fault). */
class JobFailure extends Error {}

/** Relative artifact path of a job's selected-pages file. */
export const selectedPagesRel = (requestId: string, ext: string) => `parsed/${requestId}.${ext}`;

export function createJobRunner(deps: JobRunnerDeps): (requestId: string, signal: AbortSignal) => Promise<void> {
  const { documents, templates, classifiers, files, store, engine, faults } = deps;

  const finish = async (requestId: string, status: JobStatus, u: JobUpdate) => {
    if (!store.get(requestId)) {
      // Deleted (DELETE /files) while running: record nothing and drop what the run wrote.
      if (u.selected_pages_file) await files.remove(files.artifactPath(u.selected_pages_file));
      return;
    }
    store.update(requestId, { ...u, status });
    const job = store.get(requestId);
    if (job) deps.onFinished(job);
  };

  const templateOf = (job: Job, templateId: string) => {
    const row = templates.get(templateId);
    if (!row || row.account_id !== job.account) throw new JobFailure(`Workflow ${templateId} does not exist (it may have been deleted)`);
    return row;
  };

  return async function runJob(requestId, signal) {
    if (!store.claim(requestId)) return;
    try {
      await faults.jobDelay(signal);
    } catch {
      return; // closing: the job stays 'processing' and is resumed on the next start
    }
    const job = store.get(requestId);
    if (!job) return;

    const injected = faults.jobOutcome();
    if (injected) return finish(requestId, injected.status, { user_error_msg: injected.message, credits_used: 0 });

    let classifyCredits = 0;
    const routed: JobUpdate = {};
    try {
      const doc = documents.get(job.document_id);
      if (!doc) throw new JobFailure(`document ${job.document_id} no longer exists`);
      const kind = doc.file_extension;
      if (!isFileKind(kind)) throw new JobFailure(`document ${doc.document_id} has an unsupported file type '${doc.file_extension}'`);
      const filePath = files.documentPath(doc.document_id);

      let templateId = job.template_id;
      if (job.classifier_id) {
        const crow = classifiers.get(job.classifier_id);
        if (!crow || crow.account_id !== job.account) throw new JobFailure(`Classifier ${job.classifier_id} does not exist (it may have been deleted)`);
        const configs = JSON.parse(crow.configs) as ClassifierConfigs;
        const c = await engine.classify({
          filePath,
          kind,
          classes: configs.classes.map(({ label, description }) => ({ label, description })),
          pageRange: configs.page_range ?? undefined,
          useOcr: configs.use_ocr,
          queryModel: configs.query_model,
        });
        routed.classification = c.label;
        routed.confidence_scores = c.scores;
        const route = routeLabel(configs, c.label, c.scores);
        if (route.templateId === null) throw new JobFailure(route.message);
        classifyCredits = 1;
        templateId = route.templateId;
      }
      if (!templateId) throw new JobFailure('the job names neither a Workflow nor a Classifier');
      const trow = templateOf(job, templateId);
      const parserConfig = JSON.parse(trow.parser_config) as ParserConfig;
      const { engine: options, recorded } = resolveRunOptions(job.params, parserConfig);
      Object.assign(routed, { template_id: trow.template_id, template_title: trow.template_title, template_type: trow.template_type });
      if (job.classifier_id) {
        // The run's Workflow is known only now; run_parser with template_id recorded it at submission.
        store.update(requestId, routed);
        documents.addParserRun({ document_id: doc.document_id, template_id: trow.template_id, template_title: trow.template_title, request_id: requestId, params: recorded, datetime: specTimestamp() });
      }

      const schema = JSON.parse(trow.template_schema) as TemplateSchema;
      const result = await engine.extract({ filePath, kind, fields: schema.fields, dateFormat: parserConfig.date_format, options });
      const rel = selectedPagesRel(requestId, doc.file_extension);
      await writeSelectedPages(filePath, kind, result.pagesRead, result.numPages, files.artifactPath(rel));
      documents.setContent(doc.document_id, result.text ?? flattenValues(result.data), specTimestamp());
      await finish(requestId, 'completed', {
        ...routed,
        result: {
          data: result.data,
          missingRequired: result.missingRequired,
          ...(result.confidence ? { confidence: result.confidence, doubtfulRequired: doubtfulRequired(schema.fields, result.confidence, parserConfig) } : {}),
          numPages: result.numPages,
          pagesRead: result.pagesRead,
          ...(result.chunks ? { chunks: result.chunks } : {}),
        },
        user_error_msg: null,
        classify_credits: classifyCredits,
        credits_used: result.pagesRead.length,
        engine: `${result.engine.name}@${result.engine.version}`,
        selected_pages_file: rel,
      });
    } catch (err) {
      if (signal.aborted && !(err instanceof JobFailure) && !(err instanceof DocumentError)) return; // closing: resumed on restart
      const failed = err instanceof JobFailure || err instanceof DocumentError;
      const message = (err as Error).message || String(err);
      if (!failed) deps.logger.warn({ err, requestId }, 'job ended in exception');
      await finish(requestId, failed ? 'failed' : 'exception', {
        ...routed,
        user_error_msg: failed ? message : `AI processing error: ${message}`,
        classify_credits: classifyCredits,
        credits_used: 0,
      });
    }
  };
}

/** Fallback search text when an engine does not report the text it read: the extracted values. */
function flattenValues(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(flattenValues).filter(Boolean).join(' ');
  if (typeof v === 'object') return Object.values(v).map(flattenValues).filter(Boolean).join(' ');
  return String(v);
}
