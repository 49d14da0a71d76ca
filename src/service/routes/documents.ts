// /v1/documents: multipart upload, the pre-signed large-file flow (upload_url + confirm), list, get.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { DocumentList, UploadUrl } from '../../api/types.js';
import { specTimestamp } from '../../shared/time.js';
import { confirmUpload } from '../usecases/confirm-upload.js';
import { toDocumentView, type DocumentStoreDeps, type DocumentViewDeps } from '../usecases/documents.js';
import { requireDocument } from '../usecases/owned-rows.js';
import { PresignTtl } from '../presign.js';
import { parseInput, pathId, queryInt, uuid } from '../validate.js';
import { sendNegotiated } from '../http/xml.js';
import { storeMultipartDocument } from './multipart-document.js';
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
    if (req.isMultipart()) return toDocumentView(deps, await storeMultipartDocument(deps, req), { storageKey: false });
    const body = parseInput(confirmBody, req.body, 'body');
    const row = await confirmUpload(deps, req.account, body.document_id.toLowerCase(), body.file_name);
    return toDocumentView(deps, row, { storageKey: true });
  });

  app.get('/v1/documents/upload_url', async (req): Promise<UploadUrl> => {
    const q = parseInput(uploadUrlQuery, req.query, 'query');
    const documentId = randomUUID();
    await deps.documents.reserve({ document_id: documentId, account_id: req.account.id, file_name: q.file_name, now: specTimestamp() });
    return { upload_url: deps.presign.url('PUT', `/presigned/uploads/${documentId}`, PresignTtl.upload), document_id: documentId };
  });

  app.get('/v1/documents', async (req): Promise<DocumentList> => {
    const q = parseInput(listQuery, req.query, 'query');
    const { rows, more } = await deps.documents.list({
      accountId: req.account.id,
      limit: q.limit,
      after: q.document_id && q.created_at ? { document_id: q.document_id.toLowerCase(), created_at: q.created_at } : undefined,
      searchTerm: q.search_term || undefined,
    });
    const last = rows.at(-1);
    return {
      files: await Promise.all(rows.map((r) => toDocumentView(deps, r, { storageKey: true }))),
      ...(more && last ? { pagination_key: { document_id: last.document_id, created_at: last.created_at } } : {}),
    };
  });

  app.get('/v1/documents/:document_id', async (req, reply) => {
    const id = pathId('document_id', (req.params as Record<string, string>).document_id);
    const row = await requireDocument(deps, req.account, id);
    return sendNegotiated(req, reply, 'document', await toDocumentView(deps, row, { storageKey: true }));
  });
}
