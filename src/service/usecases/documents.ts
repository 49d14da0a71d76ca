// Documents as the API sees them: storing uploads (type from content, pages counted) whether they come
// as multipart, pre-signed PUT + confirm, a fetched URL or an e-mail attachment, and the wire view with
// a pre-signed storage_key.
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { ErrorCodes } from '../../api/error-codes.js';
import type { Document } from '../../api/types.js';
import type { FileKind } from '../../engine/types.js';
import { specTimestamp } from '../../shared/time.js';
import { requireOwned, type Account } from '../accounts.js';
import { ServiceError } from '../service-error.js';
import { countPages, detectFileKind } from '../../engine/read/index.js';
import type { DocumentRow, DocumentsRepo } from '../store/documents-repo.js';
import type { FileStore } from '../store/file-store.js';
import type { Presigner } from '../presign.js';

export const ACCEPTED_FORMATS = 'PDF, JPEG, PNG or TIFF';

/** What storing a document needs: the stored bytes and the documents table. */
export interface DocumentStoreDeps {
  files: FileStore;
  documents: DocumentsRepo;
}

export interface DocumentViewDeps {
  documents: DocumentsRepo;
  presign: Presigner;
  /** Lifetime of storage_key URLs (--presign-ttl). */
  presignTtlSeconds: number;
}

/** Checks stored bytes: returns kind and page count, or throws 400 unsupported_file_type. */
export async function inspectStoredFile(path: string): Promise<{ kind: FileKind; numPages: number }> {
  const kind = await detectFileKind(path);
  if (!kind) {
    const empty = (await stat(path)).size === 0;
    throw new ServiceError(
      400,
      ErrorCodes.unsupportedFileType,
      `file: expected ${ACCEPTED_FORMATS} content (detected from the bytes, not the file name), received ${empty ? 'an empty file' : 'another format'}`,
    );
  }
  try {
    return { kind, numPages: await countPages(path, kind) };
  } catch (err) {
    // The signature matched but the reader could not open it: a damaged file, the client's to fix.
    throw new ServiceError(400, ErrorCodes.unsupportedFileType, `file: looks like ${kind.toUpperCase()} but cannot be read (${(err as Error).message})`);
  }
}

/**
 * Stores a new ready document from a stream (multipart upload, inbound e-mail attachment, POST /v1/extract).
 * The caller enforces any size limit on the stream; nothing is recorded when the bytes are rejected.
 */
export async function storeDocument(
  deps: DocumentStoreDeps,
  d: { accountId: string; sourceName: string; fileName: string; source: Readable; maxBytes?: number },
): Promise<DocumentRow> {
  const documentId = randomUUID();
  const path = deps.files.documentPath(documentId);
  const bytes = await deps.files.save(path, d.source, d.maxBytes);
  try {
    const { kind, numPages } = await inspectStoredFile(path);
    deps.documents.create({
      document_id: documentId,
      account_id: d.accountId,
      source_name: d.sourceName,
      file_name: d.fileName || `upload.${kind}`,
      file_extension: kind,
      num_pages: numPages,
      byte_size: bytes,
      now: specTimestamp(),
    });
  } catch (err) {
    await deps.files.remove(path);
    throw err;
  }
  return deps.documents.get(documentId)!;
}

/**
 * Confirms a pre-signed upload (GET upload_url reserved the id, PUT stored the bytes): checks the bytes
 * and makes the document ready. Confirming a ready document again changes nothing.
 */
export async function confirmUpload(deps: DocumentStoreDeps, account: Account, id: string, fileName: string): Promise<DocumentRow> {
  const found = deps.documents.get(id);
  // The spec lists no 404 for confirm: an id that was never reserved is a malformed request.
  if (!found) throw new ServiceError(400, ErrorCodes.invalidRequest, `document_id: no upload was reserved with ${id}; call GET /v1/documents/upload_url first`);
  const row = requireOwned(found, account, 'document', id);
  if (row.state === 'ready') return row;
  const path = deps.files.documentPath(id);
  const size = await deps.files.size(path);
  if (size === null) {
    throw new ServiceError(400, ErrorCodes.uploadMissing, `document_id: no bytes were uploaded for ${id}; PUT the file to the upload_url first, then confirm`);
  }
  const { kind, numPages } = await inspectStoredFile(path);
  deps.documents.confirm({ document_id: id, file_name: fileName, file_extension: kind, num_pages: numPages, byte_size: size, now: specTimestamp() });
  return deps.documents.get(id)!;
}

export function storageKeyUrl(deps: DocumentViewDeps, row: DocumentRow): string {
  return deps.presign.url('GET', `/presigned/documents/${row.document_id}/${encodeURIComponent(row.file_name)}`, deps.presignTtlSeconds);
}

export function toDocumentView(deps: DocumentViewDeps, row: DocumentRow, opts: { storageKey: boolean }): Document {
  return {
    document_id: row.document_id,
    user_id: row.account_id,
    source_name: row.source_name,
    ...(opts.storageKey ? { storage_key: storageKeyUrl(deps, row) } : {}),
    file_name: row.file_name,
    file_extension: row.file_extension,
    num_pages: row.num_pages,
    meta_tags: JSON.parse(row.meta_tags) as Record<string, unknown>,
    parser_runs: deps.documents.parserRuns(row.document_id),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export const CONTENT_TYPES: Record<FileKind, string> = {
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  png: 'image/png',
  tiff: 'image/tiff',
};
