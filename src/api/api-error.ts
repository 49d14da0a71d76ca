// The one error type of the client. Failure classes are signals for the caller (the daemon's scheduler):
// permanent (other 4xx: do not retry), rate-limited (429: carries the wait), transient (5xx, network,
// timeout: retry with backoff). Messages name the method and path but never the API key or the query
// string of a pre-signed URL, which is itself a credential.

/** Codes the client itself produces, next to the service's own `error` codes (src/api/error-codes.ts). */
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

export class ApiError extends Error {
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

  /** True when the same request may succeed later: 429, 5xx, network errors and timeouts. */
  get retryable(): boolean {
    if (this.status === 0) return this.code !== ClientErrorCodes.invalidResponse && this.code !== ClientErrorCodes.pollTimeout;
    return this.status === 429 || this.status >= 500;
  }
}
