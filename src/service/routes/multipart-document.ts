// One document sent as a multipart `file` part (POST /v1/documents, POST /files/upload/{template_id}):
// the part checks, the 6 MB limit and the one-file rule, then storeDocument.
import { Transform } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { ErrorCodes } from '../../api/error-codes.js';
import { MULTIPART_TOO_LARGE } from '../http/errors.js';
import { ServiceError } from '../service-error.js';
import type { DocumentRow } from '../store/documents-repo.js';
import { storeDocument, type DocumentStoreDeps } from '../usecases/documents.js';

export async function storeMultipartDocument(deps: DocumentStoreDeps, req: FastifyRequest): Promise<DocumentRow> {
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
  return storeDocument(deps, {
    accountId: req.account.id,
    sourceName: 'api',
    fileName: part.filename,
    source: part.file.pipe(guard),
    beforeRecord: () => refuseMoreFiles(parts),
  });
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
