// The last step of the pre-signed upload flow (GET upload_url reserved the id, PUT stored the bytes):
// POST /v1/documents {document_id, file_name}.
import { ErrorCodes } from '../../api/error-codes.js';
import { specTimestamp } from '../../shared/time.js';
import { requireOwned, type Account } from '../accounts.js';
import { ServiceError } from '../service-error.js';
import type { DocumentRow } from '../store/documents-repo.js';
import { inspectStoredFile, type DocumentStoreDeps } from './documents.js';

/** Checks the uploaded bytes and makes the document ready. Confirming a ready document again changes nothing. */
export async function confirmUpload(deps: DocumentStoreDeps, account: Account, id: string, fileName: string): Promise<DocumentRow> {
  const found = await deps.documents.get(id);
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
  await deps.documents.confirm({ document_id: id, file_name: fileName, file_extension: kind, num_pages: numPages, byte_size: size, now: specTimestamp() });
  return (await deps.documents.get(id))!;
}
