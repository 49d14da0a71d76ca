// The one error type of the client. Its failure class (src/shared/errors.ts) is the signal for the caller:
// permanent (4xx other than 408/429, a malformed answer: do not retry), rate-limited (429: carries the
// wait), transient (408, 5xx, network, timeout: retry with backoff). Messages name the method and path but
// never the API key or the query string of a pre-signed URL, which is itself a credential.
import { DocdropError, httpStatusClass, type Classifiable, type FailureClass } from '../shared/errors.js';

/** Codes the client itself produces, next to the service's own `error` codes (src/api/error-codes.ts);
 * docs/errors.md documents them. */
export const ClientErrorCodes = {
  network: 'network_error',
  timeout: 'timeout',
  invalidResponse: 'invalid_response',
  pollTimeout: 'poll_timeout',
} as const;

export interface ApiErrorInit {
  status: number;
  code: string;
  message: string;
  method: string;
  path: string;
  retryAfterMs?: number;
  cause?: unknown;
}

export class ApiError extends Error implements Classifiable {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when no response arrived (network error, timeout). */
  readonly status: number;
  /** The Error body's `error`, or one of ClientErrorCodes. */
  readonly code: string;
  readonly method: string;
  /** Request path (never a pre-signed query string). */
  readonly path: string;
  /** Wait the server asked for (Retry-After), in milliseconds. */
  readonly retryAfterMs?: number;
  /** The bare reason (the Error body's `message`), without method and path. */
  readonly detail: string;

  constructor(init: ApiErrorInit) {
    const where = `${init.method} ${init.path}`;
    const what = init.status > 0 ? `${init.status} ${init.code}` : init.code;
    super(`${where} failed: ${what}: ${init.message}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.method = init.method;
    this.path = init.path;
    this.detail = init.message;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }

  get failureClass(): FailureClass {
    // No answer: a dropped connection or a time-out may pass; a job that never finished or an answer we
    // could not read would not change on a repeat.
    if (this.status === 0) return this.code === ClientErrorCodes.network || this.code === ClientErrorCodes.timeout ? 'transient' : 'permanent';
    return httpStatusClass(this.status);
  }

  /** True when the same request may succeed later: 408, 429, 5xx, network errors and timeouts. */
  get retryable(): boolean {
    return this.failureClass !== 'permanent';
  }

  /** As docdrop's own failure: api_error, api_rate_limited or api_unavailable, with the bare reason. */
  toDocdropError(): DocdropError {
    const failureClass = this.failureClass;
    const code = failureClass === 'permanent' ? 'api_error' : failureClass === 'rate_limited' ? 'api_rate_limited' : 'api_unavailable';
    return new DocdropError(code, this.detail, { retryAfterMs: this.retryAfterMs, context: { status: this.status, code: this.code }, cause: this });
  }
}
