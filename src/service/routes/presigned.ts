// /presigned/...: URLs that carry their own HMAC signature instead of x-api-key.
//   PUT /presigned/uploads/{document_id}            raw bytes of a large upload (any Content-Type)
//   GET /presigned/documents/{document_id}/{name}   the stored document (storage_key)
//   GET /presigned/files/{relative path}            artifacts: parsed page selections, exports
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCodes } from '../../api/error-codes.js';
import { isFileKind, kindOfFileName, mimeTypeOf } from '../../shared/file-kind.js';
import type { Presigner } from '../presign.js';
import { ServiceError } from '../service-error.js';
import type { DocumentsRepo } from '../store/documents-repo.js';
import { FileTooLargeError, type FileStore } from '../store/file-store.js';
import { pathId } from '../validate.js';

/** Exports; page selections are documents, typed by src/shared/file-kind.ts. */
const EXPORT_TYPES: Record<string, string> = {
  '.csv': 'text/csv; charset=utf-8',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.json': 'application/json',
  '.xml': 'application/xml',
};

function artifactType(path: string): string {
  const kind = kindOfFileName(path);
  return kind ? mimeTypeOf(kind) : (EXPORT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream');
}

export interface PresignedRoutesDeps {
  presign: Presigner;
  files: FileStore;
  documents: DocumentsRepo;
  /** Cap of the pre-signed PUT (--max-upload-mb). */
  maxUploadBytes: number;
}

function verify(deps: PresignedRoutesDeps, req: FastifyRequest): void {
  // HEAD is fastify's automatic twin of GET: a GET URL must answer it too.
  deps.presign.verify(req.method === 'HEAD' ? 'GET' : req.method, req.url.split('?')[0], req.query as Record<string, unknown>);
}

const gone = (what: string) => new ServiceError(404, ErrorCodes.notFound, `${what} no longer exists`);

async function sendFile(deps: PresignedRoutesDeps, reply: FastifyReply, path: string, type: string, downloadName: string) {
  const size = await deps.files.size(path);
  if (size === null) throw gone('the file behind this URL');
  return reply
    .type(type)
    .header('content-length', size)
    .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(downloadName)}`)
    .send(createReadStream(path));
}

export async function presignedRoutes(app: FastifyInstance, deps: PresignedRoutesDeps): Promise<void> {
  await app.register(async (scope) => {
    // The PUT takes raw bytes of any (or no) Content-Type; the handler streams req.raw to disk.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));

    scope.put('/presigned/uploads/:document_id', async (req) => {
      verify(deps, req);
      const id = pathId('document_id', (req.params as Record<string, string>).document_id);
      const row = await deps.documents.get(id);
      if (!row) throw gone(`document ${id}`);
      if (row.state !== 'reserved') {
        throw new ServiceError(400, ErrorCodes.invalidRequest, `document ${id} is already confirmed; request a new upload_url for a new file`);
      }
      try {
        const bytes = await deps.files.save(deps.files.documentPath(id), req.raw, deps.maxUploadBytes);
        return { success: true, message: `received ${bytes} bytes; confirm with POST /v1/documents {document_id, file_name}` };
      } catch (err) {
        if (err instanceof FileTooLargeError) {
          throw new ServiceError(400, ErrorCodes.fileTooLarge, `file: larger than this service's pre-signed upload cap of ${err.limit} bytes`);
        }
        throw err;
      }
    });
  });

  app.get('/presigned/documents/:document_id/:file_name', async (req, reply) => {
    verify(deps, req);
    const id = pathId('document_id', (req.params as Record<string, string>).document_id);
    const row = await deps.documents.get(id);
    if (!row || row.state !== 'ready') throw gone(`document ${id}`);
    return sendFile(deps, reply, deps.files.documentPath(id), isFileKind(row.file_extension) ? mimeTypeOf(row.file_extension) : 'application/octet-stream', row.file_name);
  });

  app.get('/presigned/files/*', async (req, reply) => {
    verify(deps, req);
    const rel = decodeURIComponent((req.params as Record<string, string>)['*']);
    let path: string;
    try {
      path = deps.files.artifactPath(rel);
    } catch {
      throw new ServiceError(400, ErrorCodes.invalidRequest, 'path: expected a file under the artifact store');
    }
    return sendFile(deps, reply, path, artifactType(path), rel.split('/').at(-1) ?? rel);
  });
}
