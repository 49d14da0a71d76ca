// docdrop's own failure codes and the three classes every failure falls into. A code is stable: it is
// written to `<name>.error.json` (`kind`), at the start of the ledger's `last_error`, and to the logs;
// docs/errors.md says what each means and what to do (test/shared/errors.test.ts keeps the two in step).
// The class is the signal for whoever holds the work (the pipeline, the mail intake, the HTTP client):
//   permanent     retrying cannot help: fail the input now, with its code;
//   rate_limited  the other side asked us to wait: retry after retryAfterMs;
//   transient     may pass: back off and retry, within the caller's attempt budget.
// The service's wire codes (the Error body's `error`) are another list: src/api/error-codes.ts.

export type FailureClass = 'permanent' | 'rate_limited' | 'transient';

/** Every code docdrop itself produces, with its class. */
export const DOCDROP_ERRORS = {
  // An input
  unsupported_file_type: 'permanent',
  input_vanished: 'permanent',
  empty_file: 'permanent',
  // The service
  api_error: 'permanent',
  api_rate_limited: 'rate_limited',
  api_unavailable: 'transient',
  job_failed: 'permanent',
  job_exception: 'permanent',
  // Local work
  path_escape: 'permanent',
  bad_folder_template: 'permanent',
  file_refused: 'permanent',
  disk_unavailable: 'transient',
  io_error: 'transient',
  ledger_unavailable: 'transient',
  programming_error: 'permanent',
  unexpected_error: 'transient',
  retries_exhausted: 'permanent',
  // Mail intake
  no_attachment: 'permanent',
  mail_unreadable: 'permanent',
} as const satisfies Record<string, FailureClass>;

export type DocdropCode = keyof typeof DOCDROP_ERRORS;

/** Where a failure came from, for the operator (`status` and `code` of `<name>.error.json`). */
export interface ErrorContext {
  /** HTTP status of the service's answer (0: no answer). */
  status?: number;
  /** The underlying code: the service's `error`, a client code (network_error), an errno (ENOTDIR). */
  code?: string;
}

export interface DocdropErrorOptions {
  /** The wait the other side asked for (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  context?: ErrorContext;
  cause?: unknown;
}

export class DocdropError extends Error {
  override name = 'DocdropError';
  readonly code: DocdropCode;
  readonly failureClass: FailureClass;
  readonly retryAfterMs?: number;
  readonly context: ErrorContext;

  constructor(code: DocdropCode, message: string, opts: DocdropErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.code = code;
    this.failureClass = DOCDROP_ERRORS[code];
    this.context = opts.context ?? {};
    if (opts.retryAfterMs !== undefined) this.retryAfterMs = opts.retryAfterMs;
  }
}

/** An error of another layer that knows its own class (the client's ApiError) tells classifyError through this. */
export interface Classifiable {
  toDocdropError(): DocdropError;
}

/** The class of an HTTP error status: 429 rate-limited; 408 and 5xx transient; any other status permanent
 * (the same request gets the same answer: 400, 401, 403, 404, 409...; also a 2xx/3xx that was not what we asked). */
export function httpStatusClass(status: number): FailureClass {
  if (status === 429) return 'rate_limited';
  if (status === 408 || status >= 500) return 'transient';
  return 'permanent';
}

// Errnos that mean "not like this, not ever" until a person changes something: permission, a read-only
// file system, a file where a folder is needed (or the reverse), a name the file system refuses. Every
// other errno (ENOSPC, EIO, EMFILE, EAGAIN, EBUSY, ENOENT, ECONNRESET...) may pass.
const REFUSED_ERRNOS = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EISDIR', 'EEXIST', 'ENAMETOOLONG', 'EINVAL', 'ELOOP', 'EFBIG']);

// Errnos of a disk that is full or failing for a while (a full outbox, a flaky share): they pass when space
// or the device comes back, however long that takes, so the daemon waits them out instead of failing work.
const DISK_ERRNOS = new Set(['ENOSPC', 'EDQUOT', 'EIO']);

// Thrown by the language itself on a wrong value or call: a bug, and the same input would hit it again.
const PROGRAMMING_ERRORS = [TypeError, RangeError, ReferenceError, SyntaxError, EvalError, URIError];

/** Any thrown value as a DocdropError with its code and class. Unknown errors are assumed transient. */
export function classifyError(err: unknown): DocdropError {
  if (err instanceof DocdropError) return err;
  if (typeof (err as Partial<Classifiable> | null)?.toDocdropError === 'function') return (err as Classifiable).toDocdropError();
  const message = err instanceof Error ? err.message : String(err);
  const errno = (err as { code?: unknown } | null)?.code;
  if (typeof errno === 'string' && /^E[A-Z0-9]+$/.test(errno)) {
    const code = REFUSED_ERRNOS.has(errno) ? 'file_refused' : DISK_ERRNOS.has(errno) ? 'disk_unavailable' : 'io_error';
    return new DocdropError(code, message, { context: { code: errno }, cause: err });
  }
  if (PROGRAMMING_ERRORS.some((kind) => err instanceof kind)) {
    return new DocdropError('programming_error', `${(err as Error).name}: ${message}`, { cause: err });
  }
  return new DocdropError('unexpected_error', message, { cause: err });
}
