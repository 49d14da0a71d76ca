// Submitting an extraction run, whatever it came through (run_parser, POST /v1/extract, inbound e-mail):
// resolve its target, record the job and queue it.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ErrorCodes } from '../../api/error-codes.js';
import type { ParserConfig } from '../../api/types.js';
import { specTimestamp } from '../../shared/time.js';
import type { Account } from '../accounts.js';
import { parseRunParams, resolveRunOptions, type RunParams } from '../jobs/run-options.js';
import { ServiceError } from '../service-error.js';
import type { ClassifiersRepo } from '../store/classifiers-repo.js';
import type { Job, JobStore, JobSubmission } from '../store/job-store.js';
import type { TemplateRow, TemplatesRepo } from '../store/templates-repo.js';
import { requireClassifier, requireTemplate } from './owned-rows.js';
import { parseInput, uuid } from '../validate.js';

/** A Workflow to run, or a Classifier that picks the Workflow when the job runs. */
export type RunTarget = { template: TemplateRow; classifierId: null } | { template?: undefined; classifierId: string };

export interface RunRequest {
  account: Account;
  documentId: string;
  via: JobSubmission;
  target: RunTarget;
  params: RunParams;
}

export interface SubmitRunDeps {
  jobStore: JobStore;
  /** The job queue (JobsRuntime): resolves once the job is queued, before the caller answers. */
  jobQueue: { enqueue(requestId: string): Promise<void> };
}

const idsSchema = z.object({ template_id: uuid().optional(), classifier_id: uuid().optional() });

/**
 * Target and run options of a submission from loose input (query, form fields or JSON body);
 * classifier_id wins when both ids are given (spec rule).
 */
export async function resolveTarget(
  deps: { templates: TemplatesRepo; classifiers: ClassifiersRepo },
  account: Account,
  input: Record<string, unknown>,
): Promise<{ target: RunTarget; params: RunParams }> {
  if (input.classification_schema !== undefined) {
    // Spec rule 2 of classify+extract: only saved Classifiers route extractions.
    throw new ServiceError(400, ErrorCodes.invalidRequest, 'classification_schema: not accepted on extraction; save the labels as a Classifier (POST /v1/classifiers) and pass its classifier_id');
  }
  const ids = parseInput(idsSchema, { template_id: input.template_id, classifier_id: input.classifier_id }, 'query');
  const params = parseRunParams(input, '');
  if (ids.classifier_id) {
    const id = ids.classifier_id.toLowerCase();
    await requireClassifier(deps, account, id);
    return { target: { classifierId: id }, params };
  }
  if (!ids.template_id) {
    throw new ServiceError(400, ErrorCodes.invalidRequest, 'template_id: expected the Workflow to run (a UUID), or classifier_id for classify+extract; received neither');
  }
  return { target: { template: await requireTemplate(deps, account, ids.template_id.toLowerCase()), classifierId: null }, params };
}

/**
 * Records a new pending job and queues it. With a Workflow target the run is added to the document's
 * parser_runs at once, with the options merged from the Workflow (a Classifier's run is added once it
 * has routed the document).
 */
export async function submitRun(deps: SubmitRunDeps, r: RunRequest): Promise<Job> {
  const { template, classifierId } = r.target;
  const parserRun = template && {
    document_id: r.documentId,
    template_id: template.template_id,
    template_title: template.template_title,
    params: resolveRunOptions(r.params, JSON.parse(template.parser_config) as ParserConfig).recorded,
    datetime: specTimestamp(),
  };
  // The job and its parser_runs line commit together, before the job is queued.
  const job = await deps.jobStore.insert(
    {
      request_id: randomUUID(),
      account: r.account.id,
      document_id: r.documentId,
      template_id: template?.template_id ?? null,
      ...(template ? { template_title: template.template_title, template_type: template.template_type } : {}),
      classifier_id: classifierId,
      submitted_via: r.via,
      params: r.params,
    },
    parserRun,
  );
  await deps.jobQueue.enqueue(job.request_id);
  return job;
}
