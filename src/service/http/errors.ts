// The fastify error handler: turns every failure (ServiceError, zod's, fastify's, multipart's) into the
// spec's Error body { success: false, error, message } with its HTTP status.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ErrorCodes, type ErrorCode } from '../../api/error-codes.js';
import type { ErrorBody } from '../../api/types.js';
import { describeZodError, ServiceError } from '../service-error.js';

const MULTIPART_LIMIT_CODES = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);

/** Maps any thrown value to status, code and message; unknown errors become 500 without internals. */
export function toErrorBody(err: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  const make = (status: number, error: ErrorCode, message: string, headers: Record<string, string> = {}) => ({
    status,
    body: { success: false as const, error, message },
    headers,
  });
  if (err instanceof ServiceError) return make(err.status, err.code, err.message, err.headers);
  if (err instanceof z.ZodError) return make(400, ErrorCodes.invalidRequest, describeZodError(err));
  const fe = err as Partial<FastifyError> & { message?: string };
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return make(400, ErrorCodes.invalidJson, `request body: expected valid JSON, received unparseable text (${fe.message})`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return make(400, ErrorCodes.invalidJson, 'request body: expected a JSON object, received an empty body with Content-Type application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return make(400, ErrorCodes.invalidRequest, 'request body: larger than this endpoint accepts (1 MB for JSON); upload files as multipart or through GET /v1/documents/upload_url');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return make(400, ErrorCodes.invalidRequest, `Content-Type: expected application/json or multipart/form-data, received ${fe.message?.replace(/^Unsupported Media Type:?\s*/, '') || 'another type'}`);
    case 'FST_REQ_FILE_TOO_LARGE':
      return make(400, ErrorCodes.fileTooLarge, MULTIPART_TOO_LARGE);
  }
  if (fe.code && MULTIPART_LIMIT_CODES.has(fe.code)) return make(400, ErrorCodes.invalidRequest, `multipart body: ${fe.message}`);
  if (fe.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return make(400, ErrorCodes.invalidRequest, 'Content-Type: expected multipart/form-data with a `file` part');
  if (isMultipartParseError(err)) return make(400, ErrorCodes.invalidRequest, `multipart body: malformed (${fe.message})`);
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    // Other client errors fastify detects (bad content-length, malformed multipart): keep 400/404 semantics.
    const status = fe.statusCode === 404 ? 404 : 400;
    return make(status, status === 404 ? ErrorCodes.notFound : ErrorCodes.invalidRequest, fe.message ?? 'malformed request');
  }
  return make(500, ErrorCodes.internal, 'internal server error; the service log has details');
}

/** busboy reports broken multipart bodies as plain Errors without a code (fs errors carry one). */
function isMultipartParseError(err: unknown): boolean {
  if (!(err instanceof Error) || (err as { code?: unknown }).code !== undefined) return false;
  return /^Multipart:|Part terminated early|Unexpected end of (form|multipart)|Malformed (part )?header/i.test(err.message);
}

export const MULTIPART_TOO_LARGE =
  'file: larger than the 6 MB multipart limit; upload it with the pre-signed flow: GET /v1/documents/upload_url?file_name=..., PUT the bytes to upload_url, then POST /v1/documents with JSON {document_id, file_name}';

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const { status, body, headers } = toErrorBody(err);
    if (status >= 500) req.log.error({ err }, 'request failed');
    else req.log.debug({ code: body.error }, 'request rejected');
    void reply.code(status).headers(headers).send(body);
  });
  app.setNotFoundHandler((req: FastifyRequest, reply: FastifyReply) => {
    void reply.code(404).send({
      success: false,
      error: ErrorCodes.notFound,
      message: `no route ${req.method} ${req.url.split('?')[0]}`,
    } satisfies ErrorBody);
  });
}
