// The request layer under ServiceClient: base URL and x-api-key, JSON bodies, Error-body parsing, a
// pluggable limiter, retry with backoff honouring Retry-After, a per-request hook and timeouts.
// Each attempt goes through the limiter on its own, so a retry counts as a request and the wait
// between attempts holds no limiter slot.
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { request, errors as undiciErrors, type Dispatcher, type FormData } from 'undici';
import { parseRetryAfter, retryDelayMs } from '../shared/backoff.js';
import { sleep as defaultSleep } from '../shared/scheduler.js';
import { ApiError, ClientErrorCodes } from './api-error.js';

export type Limiter = <T>(fn: () => Promise<T>) => Promise<T>;

export interface RetryOptions {
  /** Retries after the first attempt. */
  retries: number;
  minDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error goes to the caller. Default 60 s. */
  maxRetryAfterMs?: number;
}

export interface RequestInfo {
  method: string;
  /** Path without query string. */
  path: string;
  /** HTTP status; 0 when no response arrived. */
  status: number;
}

export interface HttpOptions {
  baseUrl: string;
  apiKey: string;
  limiter?: Limiter;
  retry?: RetryOptions | false;
  onRequest?: (info: RequestInfo) => void;
  /** Inactivity timeout per attempt (waiting for headers, or between body chunks). Default 30 s. */
  timeoutMs?: number;
  dispatcher?: Dispatcher;
  /** Injected for tests on virtual time. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type QueryValue = string | number | boolean | null | undefined;

export interface BodySource {
  body: string | Buffer | Readable | FormData;
  headers?: Record<string, string>;
}

export interface HttpRequest {
  method: HttpMethod;
  /** Path under the base URL (e.g. '/v1/documents'), or with `presigned` an absolute URL. */
  path: string;
  /** Absolute pre-signed URL: sent without the API key; its query string never appears in errors. */
  presigned?: boolean;
  query?: Record<string, QueryValue>;
  json?: unknown;
  /** Called once per attempt, so streamed bodies are re-opened on every retry. */
  body?: () => BodySource | Promise<BodySource>;
  accept?: string;
  signal?: AbortSignal;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  retries: 4,
  minDelayMs: 500,
  maxDelayMs: 15_000,
  maxRetryAfterMs: 60_000,
};
export const DEFAULT_TIMEOUT_MS = 30_000;

type Response = Dispatcher.ResponseData;

export class HttpClient {
  readonly #baseUrl: URL;
  readonly #apiKey: string;
  readonly #limiter: Limiter;
  readonly #retry: Required<RetryOptions> | false;
  readonly #onRequest?: (info: RequestInfo) => void;
  readonly #timeoutMs: number;
  readonly #dispatcher?: Dispatcher;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #random: () => number;

  constructor(opts: HttpOptions) {
    // A trailing slash lets `new URL('v1/x', base)` keep a base path such as https://host/api/.
    this.#baseUrl = new URL(opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
    this.#apiKey = opts.apiKey;
    this.#limiter = opts.limiter ?? ((fn) => fn());
    this.#retry = opts.retry === false ? false : { ...DEFAULT_RETRY, ...opts.retry };
    this.#onRequest = opts.onRequest;
    this.#timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#dispatcher = opts.dispatcher;
    this.#sleep = opts.sleep ?? defaultSleep;
    this.#random = opts.random ?? Math.random;
  }

  /** Sends the request and parses a JSON response body. */
  json<T>(req: HttpRequest): Promise<T> {
    return this.#send(req, async (res, where) => {
      const text = await res.body.text();
      try {
        return JSON.parse(text) as T;
      } catch {
        throw invalidResponse(where, res.statusCode, `expected a JSON body, received ${preview(text)}`);
      }
    });
  }

  /** Sends the request and returns the response body as text (e.g. Accept: application/xml). */
  text(req: HttpRequest): Promise<string> {
    return this.#send(req, (res) => res.body.text());
  }

  /** Sends the request and returns the response body's bytes and Content-Type, whatever the type. */
  bytes(req: HttpRequest): Promise<{ bytes: Buffer; contentType: string | undefined }> {
    return this.#send(req, async (res) => {
      const type = res.headers['content-type'];
      return { bytes: Buffer.from(await res.body.arrayBuffer()), contentType: Array.isArray(type) ? type[0] : type };
    });
  }

  /** Streams the response body to destPath (through a .part file, renamed when complete). Returns bytes written. */
  toFile(req: HttpRequest, destPath: string): Promise<number> {
    return this.#send(req, async (res) => {
      const part = `${destPath}.part`;
      try {
        await pipeline(res.body, createWriteStream(part));
        await rename(part, destPath);
      } catch (err) {
        await rm(part, { force: true });
        throw err;
      }
      return (await stat(destPath)).size;
    });
  }

  async #send<R>(req: HttpRequest, consume: (res: Response, where: Where) => Promise<R>): Promise<R> {
    const url = this.#url(req);
    const where: Where = { method: req.method, path: describePath(req, url) };
    const policy = this.#retry;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#limiter(() => this.#attempt(req, url, where, consume));
      } catch (err) {
        if (!(err instanceof ApiError) || err.failureClass === 'permanent' || policy === false || attempt >= policy.retries) throw err;
        if (err.retryAfterMs !== undefined && err.retryAfterMs > policy.maxRetryAfterMs) throw err;
        const backoff = { initialMs: policy.minDelayMs, maxMs: policy.maxDelayMs, jitter: 'full' } as const;
        await this.#sleep(retryDelayMs(attempt, backoff, err.retryAfterMs, this.#random), req.signal);
      }
    }
  }

  async #attempt<R>(
    req: HttpRequest,
    url: URL,
    where: Where,
    consume: (res: Response, where: Where) => Promise<R>,
  ): Promise<R> {
    const headers: Record<string, string> = {};
    if (!req.presigned) headers['x-api-key'] = this.#apiKey;
    if (req.accept) headers.accept = req.accept;
    let body: BodySource['body'] | undefined;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    } else if (req.body) {
      const source = await req.body();
      body = source.body;
      Object.assign(headers, source.headers);
    }

    let status = 0;
    try {
      const res = await request(url, {
        method: req.method,
        headers,
        body,
        signal: req.signal,
        dispatcher: this.#dispatcher,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      }).catch((err: unknown) => {
        destroyBody(body);
        throw err;
      });
      status = res.statusCode;
      if (status >= 400) throw await errorFromResponse(res, where);
      if (status >= 300) {
        res.body.resume();
        throw invalidResponse(where, status, `unexpected redirect to ${res.headers.location ?? '(no location)'}`);
      }
      return await consume(res, where);
    } catch (err) {
      throw toApiError(err, where, req.signal);
    } finally {
      this.#onRequest?.({ method: where.method, path: url.pathname, status });
    }
  }

  #url(req: HttpRequest): URL {
    const url = req.presigned ? new URL(req.path) : new URL(req.path.replace(/^\//, ''), this.#baseUrl);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    return url;
  }
}

interface Where {
  method: string;
  path: string;
}

// Pre-signed query strings are credentials; ordinary query strings (ids, filters) help a person act.
function describePath(req: HttpRequest, url: URL): string {
  if (req.presigned) return `${url.origin}${url.pathname}`;
  return `${url.pathname}${url.search}`;
}

async function errorFromResponse(res: Response, where: Where): Promise<ApiError> {
  const text = await res.body.text().catch(() => '');
  let code = `http_${res.statusCode}`;
  let message = text.trim() === '' ? 'empty response body' : preview(text);
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') {
      const b = parsed as Record<string, unknown>;
      if (typeof b.error === 'string' && b.error !== '') code = b.error;
      if (typeof b.message === 'string') message = b.message;
    }
  } catch {
    // Not an Error body (a proxy's HTML page, say): keep the status-derived code and a preview.
  }
  return new ApiError({
    status: res.statusCode,
    code,
    message,
    ...where,
    retryAfterMs: parseRetryAfter(res.headers['retry-after']),
  });
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

function toApiError(err: unknown, where: Where, signal: AbortSignal | undefined): unknown {
  if (err instanceof ApiError) return err;
  // The caller's own abort is not a transport failure: pass it through untouched.
  if (signal?.aborted) return err;
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && TIMEOUT_CODES.has(code)) {
    return new ApiError({ status: 0, code: ClientErrorCodes.timeout, message: (err as Error).message, ...where, cause: err });
  }
  if (err instanceof undiciErrors.UndiciError || isSocketErrno(code)) {
    return new ApiError({ status: 0, code: ClientErrorCodes.network, message: (err as Error).message, ...where, cause: err });
  }
  return err;
}

function isSocketErrno(code: unknown): boolean {
  return typeof code === 'string' && /^(ECONN|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ENOTFOUND)/.test(code);
}

function invalidResponse(where: Where, status: number, message: string): ApiError {
  return new ApiError({ status, code: ClientErrorCodes.invalidResponse, message, ...where });
}

function destroyBody(body: BodySource['body'] | undefined): void {
  if (body && typeof (body as Readable).destroy === 'function') (body as Readable).destroy();
}

function preview(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(t.length > 200 ? `${t.slice(0, 200)}...` : t);
}
