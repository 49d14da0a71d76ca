// What the pipeline needs from the outside world, as small ports. The daemon wires them to the real
// client, src/outputs and the disposition helpers; tests can wire them to a real service too. Keeping the
// pipeline behind these seams is what lets one step machine serve `docdrop run` and the crash tests.
import type { DocdropCode } from '../../shared/errors.js';
import type { FileInspection, InspectOptions } from '../inputs/inspect-file.js';
import type { InputRecord, InputResult } from '../ledger/ledger.js';
import type { ResolvedTarget } from './resolve-targets.js';

/** A rule as the pipeline sees it: its name, its resolved Workflow/Classifier and the choices that steer steps. */
export interface PipelineRule {
  name: string;
  target: ResolvedTarget;
  duplicates: 'skip' | 'process';
  afterSuccess: 'move' | 'delete' | 'keep';
  /** How long a stable file may look incomplete (or stay empty) before it is taken as it is; default 60 s. */
  incompleteWaitMs?: number;
}

/** A polled job reduced to what the pipeline decides on. */
export interface JobView {
  outcome: 'pending' | 'completed' | 'failed';
  /** The status as the service wrote it (completed/complete/failed/failure/exception/...). */
  status: string;
  result: InputResult | null;
  errorMessage: string | null;
}

export interface PipelineApi {
  /** Uploads the file (multipart or pre-signed, by size) and returns the document_id. */
  upload(path: string): Promise<string>;
  /** Starts the rule's run on the document and returns the request_id. */
  submit(rule: PipelineRule, documentId: string): Promise<string>;
  /** One poll; `fileName` names the input when the job's envelope does not. */
  getJob(requestId: string, fileName: string): Promise<JobView>;
}

/** Why an input failed; written as `<name>.error.json` beside the file in failed_dir. */
export interface FailureInfo {
  /** docdrop's code (docs/errors.md), written as `kind`. */
  reason: DocdropCode;
  message: string;
  status?: number | string | null;
  code?: string | null;
  user_error_msg?: string | null;
  request_id?: string | null;
  document_id?: string | null;
}

export interface DispositionPort {
  /** After outputs are written: move/delete/keep per the rule. Returns where the file ended (null: deleted/kept). */
  succeed(rule: PipelineRule, record: InputRecord): Promise<string | null>;
  /** Moves the file to failed_dir with its .error.json. Returns the new path, or null if the file is gone. */
  fail(rule: PipelineRule, record: InputRecord, info: FailureInfo): Promise<string | null>;
  /** Moves a skipped duplicate aside with a note naming the input it repeats. */
  duplicate(rule: PipelineRule, record: InputRecord, original: InputRecord): Promise<string | null>;
}

export interface OutputsPort {
  /** Writes the input's rows; idempotent by request_id (a repeat after a crash rewrites, never appends twice). */
  write(rule: PipelineRule, record: InputRecord & { result: InputResult }): Promise<string[]>;
}

export interface FileInspector {
  /** Size, type from the content, completeness and sha256; null when the path is gone or not a file. */
  inspect(path: string, opts?: InspectOptions): Promise<FileInspection | null>;
}
