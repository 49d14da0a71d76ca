// The service's one error type: what the usecases, routes and validators throw when a request cannot be
// served, with the HTTP status and spec error code it is answered with (http/errors.ts sends it).
import type { z } from 'zod';
import { ErrorCodes, type ErrorCode } from '../api/error-codes.js';

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code: ErrorCode = ErrorCodes.invalidRequest) =>
  new ServiceError(400, code, message);

/** "field: message" for every zod issue, so the caller learns which field, what was expected and what was sent. */
export function describeZodError(err: z.ZodError, where = ''): string {
  return err.issues
    .map((i) => {
      const path = i.path.reduce<string>(
        (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
        '',
      );
      return `${where}${path || '(body)'}: ${i.message}`;
    })
    .join('; ');
}
