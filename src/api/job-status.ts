// The one place that reads extraction jobs: status synonyms (completed/complete, failed/failure) and
// the two envelopes (results.data for POST /v1/extract jobs, response_body.result_json_data for
// run_parser jobs). Everything else in docdrop reads jobs through jobOutcome.
import { ApiError, ClientErrorCodes } from './api-error.js';
import type { Chunk, ExtractionJob } from './types.js';

export type JobStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'exception';

const SYNONYMS: Record<string, JobStatus> = {
  pending: 'pending',
  processing: 'processing',
  completed: 'completed',
  complete: 'completed',
  failed: 'failed',
  failure: 'failed',
  exception: 'exception',
};

export function normaliseStatus(status: unknown): JobStatus {
  const s = typeof status === 'string' ? SYNONYMS[status.trim().toLowerCase()] : undefined;
  if (s === undefined) {
    throw new ApiError({
      status: 0,
      code: ClientErrorCodes.invalidResponse,
      message: `unknown request_status ${JSON.stringify(status)}; expected one of ${Object.keys(SYNONYMS).join(', ')}`,
      method: 'GET',
      path: '/files',
    });
  }
  return s;
}

/** Finished states: the job will not change any more. */
export function isFinal(status: JobStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'exception';
}

export interface JobOutcome {
  status: JobStatus;
  /** Extracted fields; null until completed. */
  data: Record<string, unknown> | null;
  errorMessage: string | null;
  fileName: string | null;
  numPages: number | null;
  /** Template that ran (in classify+extract, the one the Classifier chose). */
  templateId: string | null;
  classification: string | null;
  /** Score of the winning label. */
  confidence: number | null;
  /** docdrop extension: per field 0..1; null when the service gives none. */
  fieldConfidence: Record<string, number> | null;
  chunks: Chunk[] | null;
}

export function jobOutcome(job: ExtractionJob): JobOutcome {
  const status = normaliseStatus(job.request_status);
  const body = job.response_body;
  const results = job.results;
  // Envelope follows how the job was submitted, so take whichever the job carries.
  const data = results ? (results.data ?? null) : (body?.result_json_data ?? null);
  const classification = job.classification ?? null;
  const score = classification !== null ? job.confidence_scores?.[classification] : undefined;
  return {
    status,
    data,
    errorMessage: body?.user_error_msg ?? results?.user_error_msg ?? null,
    fileName: body?.file_name || null,
    numPages: results?.num_pages ?? body?.num_pages ?? null,
    // '' means not known yet (a classify+extract job before routing).
    templateId: body?.template_id || null,
    classification,
    confidence: typeof score === 'number' ? score : null,
    fieldConfidence: job.field_confidence ?? null,
    chunks: body?.chunks ?? null,
  };
}

