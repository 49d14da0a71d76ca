// POST /v1/extract with JSON `url`: fetch the file (http/https only, size-capped, type checked from the
// bytes by storeDocument) and store it as a new document of the account.
import { Readable } from 'node:stream';
import { fetch } from 'undici';
import { ErrorCodes } from '../../api/error-codes.js';
import { storeDocument, type DocumentStoreDeps } from './documents.js';
import { ServiceError } from '../service-error.js';
import { FileTooLargeError } from '../store/file-store.js';
import type { DocumentRow } from '../store/documents-repo.js';

const FETCH_TIMEOUT_MS = 30_000;

export async function fetchDocument(deps: DocumentStoreDeps & { maxUploadBytes: number }, accountId: string, url: string): Promise<DocumentRow> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ServiceError(400, ErrorCodes.invalidRequest, `url: expected an absolute http(s) URL, received ${JSON.stringify(url.slice(0, 100))}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ServiceError(400, ErrorCodes.invalidRequest, `url: expected an http or https URL, received a ${parsed.protocol} URL`);
  }
  const cap = deps.maxUploadBytes;
  let res;
  try {
    res = await fetch(parsed, { redirect: 'follow', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (err) {
    throw new ServiceError(400, ErrorCodes.invalidRequest, `url: could not fetch ${parsed.origin}${parsed.pathname}: ${(err as Error).message}`);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new ServiceError(400, ErrorCodes.invalidRequest, `url: fetching ${parsed.origin}${parsed.pathname} returned HTTP ${res.status}; expected 200 with the file`);
  }
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > cap) {
    await res.body.cancel();
    throw new ServiceError(400, ErrorCodes.fileTooLarge, `url: the file is ${declared} bytes, more than the ${cap} bytes this service accepts`);
  }
  try {
    return await storeDocument(deps, {
      accountId,
      sourceName: 'api',
      fileName: fileNameOf(res.headers.get('content-disposition'), parsed),
      source: Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
      maxBytes: cap,
    });
  } catch (err) {
    if (err instanceof FileTooLargeError) throw new ServiceError(400, ErrorCodes.fileTooLarge, `url: the file is more than the ${cap} bytes this service accepts`);
    throw err;
  }
}

function fileNameOf(disposition: string | null, url: URL): string {
  const m = disposition && /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  const raw = m ? m[1] : (url.pathname.split('/').pop() ?? '');
  try {
    return decodeURIComponent(raw).replace(/[/\\]/g, '_');
  } catch {
    return raw;
  }
}
