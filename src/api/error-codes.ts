// Stable `error` codes of the Error body. The spec (../shared/spec/interface.md, "Errors") leaves the
// values open; docdrop serve uses exactly these, and docs/service.md ("Errors") documents them. Clients
// branch on status first, code second. docdrop's own failure codes are in src/shared/errors.ts.
export const ErrorCodes = {
  /** 400: body or query failed validation (message names the field and what was expected). */
  invalidRequest: 'invalid_request',
  /** 400: request body is not parseable JSON. */
  invalidJson: 'invalid_json',
  /** 400: multipart file larger than 6 MB; use the pre-signed upload flow. */
  fileTooLarge: 'file_too_large',
  /** 400: content is not a PDF, JPEG, PNG or TIFF (detected from the bytes, not the name). */
  unsupportedFileType: 'unsupported_file_type',
  /** 400: a run option that requires use_ocr=true was sent without it. */
  ocrRequired: 'use_ocr_required',
  /** 400: standalone classify on a document no extraction has OCR-processed yet. */
  documentNotProcessed: 'document_not_processed',
  /** 400: template_title already used in this account. */
  duplicateTitle: 'duplicate_template_title',
  /** 400: confirm of a large upload whose bytes were never PUT. */
  uploadMissing: 'upload_missing',
  /** 401: x-api-key header missing or not a known key. */
  unauthorized: 'unauthorized',
  /** 403: the key's account does not own the resource; also a bad or expired pre-signed URL. */
  forbidden: 'forbidden',
  /** 403: pre-signed URL expired. */
  urlExpired: 'url_expired',
  /** 403: pre-signed URL signature does not match. */
  badSignature: 'invalid_signature',
  /** 404: no such document, Workflow, Classifier, job or route. */
  notFound: 'not_found',
  /** 429: only under fault injection (the spec enforces no rate limit); carries Retry-After. */
  rateLimited: 'rate_limited',
  /** 500: server-side failure (also injected 5xx). */
  internal: 'internal_error',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
