// /v1/documents: multipart upload, the pre-signed large-file flow (upload_url + confirm), list, get.
import { randomUUID } from 'node:crypto';
import { Transform } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { z } from 'zod';
import { ErrorCodes } from '../../api/error-codes.js';
import type { DocumentList, UploadUrl } from '../../api/types.js';
import { specTimestamp } from '../../shared/time.js';
import { confirmUpload } from '../usecases/confirm-upload.js';
import { storeDocument, toDocumentView, type DocumentStoreDeps, type DocumentViewDeps } from '../usecases/documents.js';
import { requireDocument } from '../usecases/owned-rows.js';
import { MULTIPART_TOO_LARGE } from '../http/errors.js';
import { ServiceError } from '../service-error.js';
import { PresignTtl } from '../presign.js';
import { parseInput, pathId, queryInt, uuid } from '../validate.js';
import { sendNegotiated } from '../http/xml.js';
import type { FastifyInstance } from 'fastify';

export type DocumentRoutesDeps = DocumentStoreDeps & DocumentViewDeps;

const confirmBody = z.object({
  document_id: uuid(),
  file_name: z.string().min(1, { message: 'expected a non-empty file name' }),
});

const listQuery = z
  .object({
    limit: queryInt(1, 1000).default(100),
    document_id: uuid().optional(),
    created_at: z.string().min(1).optional(),
    search_term: z.string().optional(),
  })
  .refine((q) => (q.document_id === undefined) === (q.created_at === undefined), {
    message: 'document_id and created_at: expected both (the pagination_key of the previous page) or neither',
  });

const uploadUrlQuery = z.object({ file_name: z.string().min(1, { message: 'expected a non-empty file name' }) });

export function documentRoutes(app: FastifyInstance, deps: DocumentRoutesDeps): void {
  app.post('/v1/documents', async (req) => {
    if (req.isMultipart()) return uploadMultipart(deps, req);
    const body = parseInput(confirmBody, req.body, 'body');
    const row = await confirmUpload(deps, req.account, body.document_id.toLowerCase(), body.file_name);
    return toDocumentView(deps, row, { storageKey: true });
  });

  app.get('/v1/documents/upload_url', async (req): Promise<UploadUrl> => {
    const q = parseInput(uploadUrlQuery, req.query, 'query');
    const documentId = randomUUID();
    deps.documents.reserve({ document_id: documentId, account_id: req.account.id, file_name: q.file_name, now: specTimestamp() });
    return { upload_url: deps.presign.url('PUT', `/presigned/uploads/${documentId}`, PresignTtl.upload), document_id: documentId };
  });

  app.get('/v1/documents', async (req): Promise<DocumentList> => {
    const q = parseInput(listQuery, req.query, 'query');
    const { rows, more } = deps.documents.list({
      accountId: req.account.id,
      limit: q.limit,
      after: q.document_id && q.created_at ? { document_id: q.document_id.toLowerCase(), created_at: q.created_at } : undefined,
      searchTerm: q.search_term || undefined,
    });
    const last = rows.at(-1);
    return {
      files: rows.map((r) => toDocumentView(deps, r, { storageKey: true })),
      ...(more && last ? { pagination_key: { document_id: last.document_id, created_at: last.created_at } } : {}),
    };
  });

  app.get('/v1/documents/:document_id', async (req, reply) => {
    const id = pathId('document_id', (req.params as Record<string, string>).document_id);
    const row = requireDocument(deps, req.account, id);
    return sendNegotiated(req, reply, 'document', toDocumentView(deps, row, { storageKey: true }));
  });
}

async function uploadMultipart(deps: DocumentRoutesDeps, req: FastifyRequest) {
  const parts = req.parts();
  const part = await nextFile(parts);
  if (!part) throw new ServiceError(400, ErrorCodes.invalidRequest, 'file: expected a multipart part named `file`, received no file part');
  if (part.fieldname !== 'file') {
    part.file.resume();
    throw new ServiceError(400, ErrorCodes.invalidRequest, `file: expected the multipart part to be named \`file\`, received \`${part.fieldname}\``);
  }
  // busboy stops storing at the limit but keeps reading the request, so the client gets our answer
  // instead of a reset connection; `truncated` is set by the time the part ends.
  const guard = new Transform({
    transform: (chunk, _enc, cb) => cb(null, chunk),
    flush: (cb) => cb(part.file.truncated ? new ServiceError(400, ErrorCodes.fileTooLarge, MULTIPART_TOO_LARGE) : null),
  });
  part.file.on('error', (err) => guard.destroy(err));
  const row = await storeDocument(deps, {
    accountId: req.account.id,
    sourceName: 'api',
    fileName: part.filename,
    source: part.file.pipe(guard),
    beforeRecord: () => refuseMoreFiles(parts),
  });
  return toDocumentView(deps, row, { storageKey: false });
}

/** The next file part, skipping plain fields (as `req.file()` does); undefined at the end of the body. */
async function nextFile(parts: AsyncIterableIterator<Multipart>): Promise<MultipartFile | undefined> {
  for (;;) {
    const { value, done } = await parts.next();
    if (done) return undefined;
    if (value.type === 'file') return value;
  }
}

/**
 * One document per upload: a second file part would otherwise be dropped unseen while the client believes
 * both were stored. Past the first file the parser's files limit (app.ts) raises FST_FILES_LIMIT.
 */
async function refuseMoreFiles(parts: AsyncIterableIterator<Multipart>): Promise<void> {
  const extra = await nextFile(parts).catch((err: { code?: string }) => {
    if (err.code === 'FST_FILES_LIMIT') return true;
    throw err;
  });
  if (!extra) return;
  if (extra !== true) extra.file.resume();
  throw new ServiceError(400, ErrorCodes.invalidRequest, MORE_THAN_ONE_FILE);
}

const MORE_THAN_ONE_FILE = 'file: expected exactly one file part, received more than one; upload each document in its own request';
