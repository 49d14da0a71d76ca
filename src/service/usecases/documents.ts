// Documents as the API sees them: storing uploads (type from content, pages counted) for every way in,
// and the wire view with a pre-signed storage_key.
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { ErrorCodes } from '../../api/error-codes.js';
import type { Document } from '../../api/types.js';
import { countPages } from '../../engine/index.js';
import { detectFileKind, type FileKind } from '../../shared/file-kind.js';
import { specTimestamp } from '../../shared/time.js';
import { ServiceError } from '../service-error.js';
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
  d: {
    accountId: string;
    sourceName: string;
    fileName: string;
    source: Readable;
    maxBytes?: number;
    /** Runs once the bytes are saved, before anything is recorded; a throw rejects the upload. */
    beforeRecord?: () => Promise<void>;
  },
): Promise<DocumentRow> {
  const documentId = randomUUID();
  const path = deps.files.documentPath(documentId);
  const bytes = await deps.files.save(path, d.source, d.maxBytes);
  try {
    await d.beforeRecord?.();
    const { kind, numPages } = await inspectStoredFile(path);
    await deps.documents.create({
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
  return (await deps.documents.get(documentId))!;
}

export function storageKeyUrl(deps: DocumentViewDeps, row: DocumentRow): string {
  return deps.presign.url('GET', `/presigned/documents/${row.document_id}/${encodeURIComponent(row.file_name)}`, deps.presignTtlSeconds);
}

export async function toDocumentView(deps: DocumentViewDeps, row: DocumentRow, opts: { storageKey: boolean }): Promise<Document> {
  return {
    document_id: row.document_id,
    user_id: row.account_id,
    source_name: row.source_name,
    ...(opts.storageKey ? { storage_key: storageKeyUrl(deps, row) } : {}),
    file_name: row.file_name,
    file_extension: row.file_extension,
    num_pages: row.num_pages,
    meta_tags: JSON.parse(row.meta_tags) as Record<string, unknown>,
    parser_runs: await deps.documents.parserRuns(row.document_id),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
