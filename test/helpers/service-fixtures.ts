// Files and raw HTTP for the service conformance tests: PDFs (pdf-lib), images (sharp), and a raw
// request helper for cases a typed client cannot produce (bad JSON, missing key, odd bodies).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { request, FormData } from 'undici';
import { ServiceClient } from '../../src/api/client.js';
import { pdfOf } from './job-fixtures.js';

export const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function clientFor(url: string, apiKey: string): ServiceClient {
  // Generous timeout: on a loaded 2-core machine the first PDF read starts a worker, which can be slow.
  return new ServiceClient({ baseUrl: url, apiKey, retry: false, timeoutMs: 120_000 });
}

/** A PDF with `pages` pages, each carrying one line of text. */
export function pagesPdf(pages: number, text = 'Hello'): Promise<Buffer> {
  return pdfOf(Array.from({ length: pages }, (_, i) => [[50, 80, `${text} page ${i + 1}`]]));
}

export function png(width = 40, height = 30): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#88aacc' } }).png().toBuffer();
}

export function jpeg(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: '#cc8844' } }).jpeg().toBuffer();
}

export async function tiff(pages: number): Promise<Buffer> {
  const frames = await Promise.all(Array.from({ length: pages }, () => png()));
  return sharp(frames, { join: { animated: true } }).tiff().toBuffer();
}

export interface TempFiles {
  dir: string;
  write(name: string, bytes: Buffer | string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function tempFiles(): Promise<TempFiles> {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-svc-files-'));
  return {
    dir,
    async write(name, bytes) {
      const p = join(dir, name);
      await writeFile(p, bytes);
      return p;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** One HTTP request without retries or client-side checks. */
export async function raw(
  url: string,
  opts: { method?: string; key?: string; json?: unknown; body?: string | Buffer | FormData; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) headers['x-api-key'] = opts.key;
  let body = opts.body;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  const res = await request(url, { method: (opts.method ?? 'GET') as 'GET', headers, body });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** Multipart body with one `file` part (or another field name). */
export function fileForm(bytes: Buffer, fileName: string, field = 'file'): FormData {
  const form = new FormData();
  form.append(field, new Blob([bytes]), fileName);
  return form;
}

/** Asserts the spec's Error body and returns it. */
export function errorBody(res: RawResponse, status: number, code: string): { success: false; error: string; message: string } {
  if (res.status !== status || res.json?.error !== code || res.json?.success !== false || typeof res.json?.message !== 'string') {
    throw new Error(`expected ${status} ${code} with the Error body, got ${res.status} ${res.text}`);
  }
  return res.json;
}
