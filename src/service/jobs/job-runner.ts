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
import type { JobRunOutcome, ProcessJob } from './job-queue.js';
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
  onFinished(job: Job): Promise<void>;
}

/** A failure that ends the job 'failed' (not retried, not the engine's fault). */
class JobFailure extends Error {}

/** Relative artifact path of a job's selected-pages file. */
export const selectedPagesRel = (requestId: string, ext: string) => `parsed/${requestId}.${ext}`;

export interface JobRunner {
  run: ProcessJob;
  /** Ends a job the queue gave up on (its workers kept stopping mid-job), unless it has ended already. */
  abandon(requestId: string, attempts: number): Promise<void>;
}

export function createJobRunner(deps: JobRunnerDeps): JobRunner {
  const { documents, templates, classifiers, files, store, engine, faults } = deps;

  const finish = async (requestId: string, status: JobStatus, u: JobUpdate) => {
    if (!(await store.get(requestId))) {
      // Deleted (DELETE /files) while running: record nothing and drop what the run wrote.
      if (u.selected_pages_file) await files.remove(files.artifactPath(u.selected_pages_file));
      return;
    }
    await store.update(requestId, { ...u, status });
    deps.logger.info({ requestId, status }, 'job finished');
    const job = await store.get(requestId);
    if (job) await deps.onFinished(job);
  };

  /**
   * pending -> processing. A redelivered job may also be taken while 'processing': the queue hands a job
   * out again only after the previous hand-out's expiry, and a live worker ends its run before that (its
   * deadline), so the one holding it is gone. Never a job that ended (completed/failed/exception).
   */
  const claim = async (requestId: string, redelivered: boolean) => {
    if (await store.claim(requestId)) return true;
    return redelivered && (await store.get(requestId))?.status === 'processing';
  };

  const templateOf = async (job: Job, templateId: string) => {
    const row = await templates.get(templateId);
    if (!row || row.account_id !== job.account) throw new JobFailure(`Workflow ${templateId} does not exist (it may have been deleted)`);
    return row;
  };

  /**
   * The claimed job's work. Its end is recorded through `gate`: the first of the work and its deadline to
   * take the gate records the end, the other records nothing (a result after the deadline is dropped).
   */
  async function work(requestId: string, signal: AbortSignal, gate: EndGate): Promise<JobRunOutcome> {
    const end = async (status: JobStatus, u: JobUpdate) => {
      if (gate.take()) await finish(requestId, status, u);
      else if (u.selected_pages_file) await files.remove(files.artifactPath(u.selected_pages_file));
    };
    try {
      await faults.jobDelay(signal);
    } catch {
      return 'interrupted'; // closing: the job stays 'processing' and is resumed on the next start
    }
    const job = await store.get(requestId);
    if (!job || gate.taken) return 'skipped';

    const injected = faults.jobOutcome();
    if (injected) {
      await end(injected.status, { user_error_msg: injected.message, credits_used: 0 });
      return 'finished';
    }

    let classifyCredits = 0;
    const routed: JobUpdate = {};
    try {
      const doc = await documents.get(job.document_id);
      if (!doc) throw new JobFailure(`document ${job.document_id} no longer exists`);
      const kind = doc.file_extension;
      if (!isFileKind(kind)) throw new JobFailure(`document ${doc.document_id} has an unsupported file type '${doc.file_extension}'`);
      const filePath = files.documentPath(doc.document_id);

      let templateId = job.template_id;
      if (job.classifier_id) {
        const crow = await classifiers.get(job.classifier_id);
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
      const trow = await templateOf(job, templateId);
      const parserConfig = JSON.parse(trow.parser_config) as ParserConfig;
      const { engine: options, recorded } = resolveRunOptions(job.params, parserConfig);
      Object.assign(routed, { template_id: trow.template_id, template_title: trow.template_title, template_type: trow.template_type });
      if (gate.taken) return 'finished';
      if (job.classifier_id) {
        // The run's Workflow is known only now; run_parser with template_id recorded it at submission.
        await store.update(requestId, routed);
        await documents.addParserRun({ document_id: doc.document_id, template_id: trow.template_id, template_title: trow.template_title, request_id: requestId, params: recorded, datetime: specTimestamp() });
      }

      const schema = JSON.parse(trow.template_schema) as TemplateSchema;
      const result = await engine.extract({ filePath, kind, fields: schema.fields, dateFormat: parserConfig.date_format, options });
      const rel = selectedPagesRel(requestId, doc.file_extension);
      await writeSelectedPages(filePath, kind, result.pagesRead, result.numPages, files.artifactPath(rel));
      await documents.setContent(doc.document_id, result.text ?? flattenValues(result.data), specTimestamp());
      await end('completed', {
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
      return 'finished';
    } catch (err) {
      if (signal.aborted && !(err instanceof JobFailure) && !(err instanceof DocumentError)) return 'interrupted'; // closing: resumed on restart
      const failed = err instanceof JobFailure || err instanceof DocumentError;
      const message = (err as Error).message || String(err);
      if (!failed) deps.logger.warn({ err, requestId }, 'job ended in exception');
      await end(failed ? 'failed' : 'exception', {
        ...routed,
        user_error_msg: failed ? message : `AI processing error: ${message}`,
        classify_credits: classifyCredits,
        credits_used: 0,
      });
      return 'finished';
    }
  }

  return {
    async run(requestId, { signal, deadline, redelivered }) {
      if (!(await claim(requestId, redelivered))) return 'skipped';
      // One line per run and per end: with several workers, the log shows where each job ran (and ran again).
      deps.logger.info({ requestId, redelivered }, redelivered ? 'job started (taken over from a worker that stopped mid-job)' : 'job started');
      const gate = endGate();
      const running = work(requestId, signal, gate);
      if (!deadline) return running;
      // The engine cannot be interrupted: at the deadline the job's end is recorded and the run's late
      // result, if any, is dropped, so the queue never hands the job to a second worker while this one runs.
      const timedOut = whenAborted(deadline);
      try {
        return await Promise.race([running, timedOut.promise.then(() => (gate.take() ? onDeadline(requestId) : running))]);
      } finally {
        timedOut.dispose();
      }
    },
    async abandon(requestId, attempts) {
      const job = await store.get(requestId);
      if (job?.status !== 'pending' && job?.status !== 'processing') return;
      await finish(requestId, 'exception', {
        user_error_msg: `AI processing error: the job was interrupted ${attempts} times (its worker stopped while running it); submit it again`,
        credits_used: 0,
      });
    },
  };

  async function onDeadline(requestId: string): Promise<JobRunOutcome> {
    deps.logger.warn({ requestId }, 'job ran longer than --job-timeout: ended in exception');
    await finish(requestId, 'exception', {
      user_error_msg: 'AI processing error: the job ran longer than the service allows (--job-timeout)',
      credits_used: 0,
    });
    return 'finished';
  }
}

interface EndGate {
  readonly taken: boolean;
  /** True for the first caller only. */
  take(): boolean;
}

function endGate(): EndGate {
  let taken = false;
  return {
    get taken() {
      return taken;
    },
    take: () => (taken ? false : (taken = true)),
  };
}

/** A promise settled when `signal` aborts, and a way to stop listening. */
function whenAborted(signal: AbortSignal): { promise: Promise<void>; dispose(): void } {
  let onAbort = () => {};
  const promise = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/** Fallback search text when an engine does not report the text it read: the extracted values. */
function flattenValues(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(flattenValues).filter(Boolean).join(' ');
  if (typeof v === 'object') return Object.values(v).map(flattenValues).filter(Boolean).join(' ');
  return String(v);
}
