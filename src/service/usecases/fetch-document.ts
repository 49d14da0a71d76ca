// POST /v1/extract with JSON `url`: fetch the file (http/https only, size-capped, type checked from the
// bytes by storeDocument) and store it as a new document of the account.
// Only public addresses are fetched (plus the ranges of --fetch-allow-range), checked on every redirect
// hop and at connect time (address-policy.ts); every failure to reach a file answers one neutral message,
// so the endpoint cannot be used to map hosts and ports behind the service.
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import { Agent, fetch, type Response } from 'undici';
import { ErrorCodes } from '../../api/error-codes.js';
import { storeDocument, type DocumentStoreDeps } from './documents.js';
import { ServiceError } from '../service-error.js';
import { FileTooLargeError } from '../store/file-store.js';
import type { DocumentRow } from '../store/documents-repo.js';
import type { AddressPolicy } from './address-policy.js';

const FETCH_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export type FetchDocumentDeps = DocumentStoreDeps & { maxUploadBytes: number; addressPolicy: AddressPolicy };

export async function fetchDocument(deps: FetchDocumentDeps, accountId: string, url: string): Promise<DocumentRow> {
  const asked = httpUrl(url);
  let parsed = asked;
  const cap = deps.maxUploadBytes;
  // The same words whether the address was refused, the port closed, the name unknown or the peer silent.
  const unreachable = () =>
    new ServiceError(400, ErrorCodes.invalidRequest, `url: could not fetch ${asked.origin}${asked.pathname}: the address is not public or did not answer`);
  // Connections look the host up through the policy, so the address checked is the one connected to.
  const agent = new Agent({ connect: { lookup: deps.addressPolicy.lookup } });
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  try {
    let res: Response;
    for (let hop = 0; ; hop++) {
      const host = parsed.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && !deps.addressPolicy.allows(host)) throw unreachable();
      try {
        res = await fetch(parsed, { redirect: 'manual', signal, dispatcher: agent });
      } catch {
        throw unreachable();
      }
      const location = res.headers.get('location');
      if (!REDIRECTS.has(res.status) || !location) break;
      await res.body?.cancel();
      if (hop === MAX_REDIRECTS) throw new ServiceError(400, ErrorCodes.invalidRequest, `url: more than ${MAX_REDIRECTS} redirects from ${parsed.origin}${parsed.pathname}`);
      parsed = httpUrl(new URL(location, parsed).href);
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
  } finally {
    await agent.destroy().catch(() => {});
  }
}

function httpUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ServiceError(400, ErrorCodes.invalidRequest, `url: expected an absolute http(s) URL, received ${JSON.stringify(url.slice(0, 100))}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ServiceError(400, ErrorCodes.invalidRequest, `url: expected an http or https URL, received a ${parsed.protocol} URL`);
  }
  return parsed;
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
