// The wire shape of a job (ExtractionJob). The envelope follows how the job was submitted, whatever
// endpoint polls it: run_parser jobs carry response_body.result_json_data, POST /v1/extract jobs carry
// results.data. Until a classify+extract job is routed its template_id/title/type are '' (unknown yet).
import type { ExtractionJob } from '../../api/types.js';
import type { Job } from '../store/job-store.js';

export interface JobViewDeps {
  /** The job's document (read by the caller), for file_name and num_pages before the job has read it. */
  document: { file_name: string; num_pages: number } | undefined;
  /** Pre-signed GET URL of an artifact (relative path), fresh at each read. */
  artifactUrl(rel: string): string;
}

export function toExtractionJob(job: Job, deps: JobViewDeps): ExtractionJob {
  const completed = job.status === 'completed';
  const data = completed && job.result ? job.result.data : null;
  const doc = deps.document;
  const numPages = job.result?.numPages ?? doc?.num_pages ?? 0;
  const base = {
    request_id: job.request_id,
    request_status: job.status,
    classification: job.classification,
    confidence_scores: job.confidence_scores,
    classify_credits: job.classify_credits,
    credits_used: job.credits_used,
    total_credits: job.classify_credits + job.credits_used,
    field_confidence: completed ? (job.result?.confidence ?? null) : null,
    created_at: job.created_at,
    updated_at: job.updated_at,
  };
  if (job.submitted_via === 'extract') {
    return { ...base, results: { num_pages: numPages, data, user_error_msg: job.user_error_msg } };
  }
  return {
    ...base,
    response_body: {
      file_name: doc?.file_name ?? '',
      file_presigned_url: completed && job.selected_pages_file ? deps.artifactUrl(job.selected_pages_file) : null,
      user_error_msg: job.user_error_msg,
      template_id: job.template_id ?? '',
      template_type: job.template_type ?? '',
      template_title: job.template_title ?? '',
      num_pages: numPages,
      human_verification_status: 'pending',
      has_missing_required_fields: completed && hasMissingRequired(job),
      result_json_data: data,
      ...(completed && job.result?.chunks ? { chunks: job.result.chunks } : {}),
    },
  };
}

/** A required field not found, or found with a confidence under the Workflow's confidence_threshold. */
function hasMissingRequired(job: Job): boolean {
  const r = job.result;
  return (r?.missingRequired.length ?? 0) > 0 || (r?.doubtfulRequired?.length ?? 0) > 0;
}
