// A tool's document, given as file_url, file_base64 or document_id, turned into a document_id of the
// account, through the same REST calls a client makes: base64 bytes and this service's own pre-signed
// URLs go through the pre-signed upload (upload_url, PUT, confirm), so they are stored and checked like
// any upload; other URLs are left to POST /v1/extract's fetch (its address policy applies).
import { z } from 'zod';
import type { ApiCaller } from './api-caller.js';
import { expectOk } from './rest.js';
import { McpErrorCodes, ToolError } from './tool-errors.js';

/** The hosted server's limit on file_base64, decoded. */
export const BASE64_MAX_BYTES = 7 * 1024 * 1024;

export const documentSourceShape = {
  file_url: z.string().optional().describe('http(s) URL of a PDF, JPEG, PNG or TIFF the server fetches (or one of its own pre-signed URLs)'),
  file_base64: z
    .string()
    .optional()
    .describe(`the file's bytes in base64, at most ${BASE64_MAX_BYTES / 1024 / 1024} MB decoded; for larger files upload through the REST API and pass document_id`),
  file_name: z.string().optional().describe('name to store a file_base64 document under (default document.pdf)'),
  document_id: z.string().optional().describe('a document already uploaded to this account (POST /v1/documents)'),
};

export interface DocumentSourceInput {
  file_url?: string | undefined;
  file_base64?: string | undefined;
  file_name?: string | undefined;
  document_id?: string | undefined;
}

export type ResolvedSource = { document_id: string } | { url: string };

export async function resolveSource(api: ApiCaller, input: DocumentSourceInput): Promise<ResolvedSource> {
  const given = (['file_url', 'file_base64', 'document_id'] as const).filter((k) => input[k] !== undefined);
  if (given.length !== 1) {
    throw new ToolError(McpErrorCodes.invalidInput, `document: expected exactly one of file_url, file_base64 or document_id, received ${given.length ? given.join(' and ') : 'none'}`);
  }
  if (input.document_id !== undefined) return { document_id: input.document_id };
  if (input.file_base64 !== undefined) return { document_id: await upload(api, decodeBase64(input.file_base64), input.file_name ?? 'document.pdf') };
  const url = input.file_url!;
  if (!api.isOwnUrl(url)) return { url };
  const res = await api.call({ method: 'GET', path: url });
  if (res.status !== 200) {
    throw new ToolError(res.status === 403 ? McpErrorCodes.forbidden : McpErrorCodes.invalidInput, `file_url: this server's pre-signed URL answered HTTP ${res.status}; request a new URL`);
  }
  return { document_id: await upload(api, res.bytes, decodeURIComponent(new URL(url).pathname.split('/').pop() || 'document')) };
}

function decodeBase64(text: string): Buffer {
  const clean = text.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  // Checked on the text first, so an oversized payload is refused before it is decoded.
  if (Math.floor((clean.length * 3) / 4) - (clean.match(/=+$/)?.[0].length ?? 0) > BASE64_MAX_BYTES) {
    throw new ToolError(McpErrorCodes.invalidInput, `file_base64: expected at most ${BASE64_MAX_BYTES} bytes decoded, received more; upload larger files through the REST API and pass document_id`);
  }
  if (!clean || !/^[A-Za-z0-9+/]+={0,2}$/.test(clean)) throw new ToolError(McpErrorCodes.invalidInput, 'file_base64: expected standard base64 text, received other characters or nothing');
  return Buffer.from(clean, 'base64');
}

async function upload(api: ApiCaller, bytes: Buffer, fileName: string): Promise<string> {
  const slot = expectOk<{ upload_url: string; document_id: string }>(await api.call({ method: 'GET', path: '/v1/documents/upload_url', query: { file_name: fileName } }));
  expectOk(await api.call({ method: 'PUT', path: slot.upload_url, raw: bytes }));
  const doc = expectOk<{ document_id: string }>(await api.call({ method: 'POST', path: '/v1/documents', json: { document_id: slot.document_id, file_name: fileName } }));
  return doc.document_id;
}
