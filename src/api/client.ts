// Typed client of the document service interface (../shared/spec/interface.md): one method per
// operation. Transport concerns (auth, retry, limiter, timeouts, error bodies) live in http.ts.
import { createReadStream, openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { FormData } from 'undici';
import { ApiError, ClientErrorCodes } from './api-error.js';
import { HttpClient, type HttpMethod, type HttpOptions, type QueryValue } from './http.js';
import type {
  ClassificationResult,
  Classifier,
  ClassifierClassifyRequest,
  ClassifierInput,
  ClassifierList,
  ClassifyRequest,
  CreateTemplateRequest,
  Document,
  DocumentList,
  ExportRangeRequest,
  ExportSingleRequest,
  ExportSingleResponse,
  ExtractionJob,
  RunParserParams,
  SuccessResponse,
  TemplateList,
  UpdateTemplateRequest,
  UploadAndRunResponse,
  UploadUrl,
  Workflow,
} from './types.js';
import { contentTypeOfFile } from '../shared/file-kind.js';

/** Largest file sent as multipart; larger files take the pre-signed flow (spec: Limits). */
export const MULTIPART_MAX_BYTES = 6 * 1024 * 1024;

/** Transport options: base URL, key, limiter (sees every attempt), retry, onRequest hook, timeouts. */
export type ServiceClientOptions = HttpOptions;

export interface DocumentQuery {
  limit?: number;
  document_id?: string;
  created_at?: string;
  search_term?: string;
}

export type ExtractSource = { document_id: string } | { url: string } | { filePath: string; fileName?: string };

export interface ExtractOptions {
  classifier_id?: string;
  template_id?: string;
  /** Where classifier_id (and template_id) go: JSON body (default for document_id/url), multipart form
   * field (default for filePath) or query parameter. */
  classifierVia?: 'body' | 'form' | 'query';
}

type Accept = 'json' | 'xml';

export class ServiceClient {
  readonly #http: HttpClient;

  constructor(opts: ServiceClientOptions) {
    this.#http = new HttpClient(opts);
  }

  // Documents

  /** Uploads by multipart up to 6 MB, else by the pre-signed flow (upload_url, PUT, confirm). */
  async uploadDocument(path: string, opts: { fileName?: string } = {}): Promise<Document> {
    const fileName = opts.fileName ?? basename(path);
    const { size } = await stat(path);
    if (size <= MULTIPART_MAX_BYTES) return this.uploadMultipart(path, { fileName });
    const { upload_url, document_id } = await this.getUploadUrl(fileName);
    await this.putUpload(upload_url, path, await contentTypeOfFile(path));
    return this.confirmUpload(document_id, fileName);
  }

  /** POST /v1/documents as multipart `file`, streamed from disk. */
  uploadMultipart(path: string, opts: { fileName?: string } = {}): Promise<Document> {
    const fileName = opts.fileName ?? basename(path);
    return this.#http.json<Document>({
      method: 'POST',
      path: '/v1/documents',
      body: async () => ({ body: await fileForm(path, fileName) }),
    });
  }

  async getUploadUrl(fileName: string): Promise<UploadUrl> {
    const res = await this.#json<UploadUrl>('GET', '/v1/documents/upload_url', { query: { file_name: fileName } });
    requireStrings(res, ['upload_url', 'document_id'], 'GET /v1/documents/upload_url');
    return res;
  }

  /** PUTs the raw file bytes to a pre-signed URL (no API key), streamed with a known length. */
  async putUpload(uploadUrl: string, path: string, contentType?: string): Promise<void> {
    const type = contentType ?? (await contentTypeOfFile(path));
    await this.#http.text({
      method: 'PUT',
      path: uploadUrl,
      presigned: true,
      body: async () => {
        const { size } = await stat(path);
        return {
          body: createReadStream(path),
          headers: { 'content-type': type, 'content-length': String(size) },
        };
      },
    });
  }

  confirmUpload(documentId: string, fileName: string): Promise<Document> {
    return this.#json('POST', '/v1/documents', { json: { document_id: documentId, file_name: fileName } });
  }

  listDocuments(query: DocumentQuery = {}): Promise<DocumentList> {
    return this.#json('GET', '/v1/documents', { query: { ...query } });
  }

  /** Every document, page after page, following pagination_key until none is returned. */
  async *iterateDocuments(query: DocumentQuery = {}): AsyncGenerator<Document> {
    let q: DocumentQuery = { ...query };
    for (;;) {
      const page = await this.listDocuments(q);
      yield* page.files;
      if (!page.pagination_key) return;
      q = { ...q, document_id: page.pagination_key.document_id, created_at: page.pagination_key.created_at };
    }
  }

  getDocument(id: string, opts?: { accept?: 'json' }): Promise<Document>;
  getDocument(id: string, opts: { accept: 'xml' }): Promise<string>;
  getDocument(id: string, opts: { accept?: Accept } = {}): Promise<Document | string> {
    return this.#negotiated('GET', `/v1/documents/${seg(id)}`, {}, opts.accept);
  }

  // Extraction

  /** GET /v1/documents/{id}/run_parser with every query parameter of the spec; returns the pending job. */
  runParser(documentId: string, params: RunParserParams, opts?: { accept?: 'json' }): Promise<ExtractionJob>;
  runParser(documentId: string, params: RunParserParams, opts: { accept: 'xml' }): Promise<string>;
  async runParser(documentId: string, params: RunParserParams, opts: { accept?: Accept } = {}): Promise<ExtractionJob | string> {
    const path = `/v1/documents/${seg(documentId)}/run_parser`;
    const res = await this.#negotiated<ExtractionJob>('GET', path, { ...params }, opts.accept);
    return typeof res === 'string' ? res : checkJob(res, `GET ${path}`);
  }

  /** POST /v1/extract from a stored document, a URL, or a file sent as multipart. */
  async extract(source: ExtractSource, opts: ExtractOptions = {}): Promise<{ request_id: string }> {
    const ids = pick(opts, ['classifier_id', 'template_id']);
    const fromFile = 'filePath' in source;
    const via = opts.classifierVia ?? (fromFile ? 'form' : 'body');
    if (via === 'form' && !fromFile) {
      throw new TypeError("extract: classifierVia 'form' needs source.filePath (a multipart upload)");
    }
    const query = via === 'query' ? ids : undefined;
    const inBody = via === 'query' ? {} : ids;
    let res: { request_id: string };
    if (fromFile) {
      const fileName = source.fileName ?? basename(source.filePath);
      res = await this.#http.json({
        method: 'POST',
        path: '/v1/extract',
        query,
        body: async () => {
          const form = await fileForm(source.filePath, fileName);
          for (const [k, v] of Object.entries(inBody)) form.append(k, v);
          return { body: form };
        },
      });
    } else {
      res = await this.#json('POST', '/v1/extract', { query, json: { ...source, ...inBody } });
    }
    requireStrings(res, ['request_id'], 'POST /v1/extract');
    return { request_id: res.request_id };
  }

  /**
   * POST /files/upload/{template_id} (docdrop extension, also served by the hosted service): uploads the
   * file as multipart `file` and starts a run of the Workflow in one call; answers the pending job as
   * run_parser does, plus document_id. Multipart only, so up to 6 MB: larger files take uploadDocument
   * then runParser.
   */
  async uploadAndRun(templateId: string, path: string, opts: { fileName?: string; params?: Omit<RunParserParams, 'template_id' | 'classifier_id'> } = {}): Promise<UploadAndRunResponse> {
    const fileName = opts.fileName ?? basename(path);
    const where = `POST /files/upload/${templateId}`;
    const res = await this.#http.json<UploadAndRunResponse>({
      method: 'POST',
      path: `/files/upload/${seg(templateId)}`,
      query: { ...opts.params },
      body: async () => ({ body: await fileForm(path, fileName) }),
    });
    requireStrings(res, ['document_id'], where);
    return { ...checkJob(res, where), document_id: res.document_id };
  }

  /** GET /files: the job's current state. */
  async getJob(requestId: string): Promise<ExtractionJob> {
    return checkJob(await this.#json('GET', '/files', { query: { request_id: requestId } }), 'GET /files');
  }

  /** GET /v1/extract: the same job object as GET /files. */
  async getExtractJob(requestId: string): Promise<ExtractionJob> {
    return checkJob(await this.#json('GET', '/v1/extract', { query: { request_id: requestId } }), 'GET /v1/extract');
  }

  deleteJob(requestId: string): Promise<SuccessResponse> {
    return this.#json('DELETE', '/files', { query: { request_id: requestId } });
  }

  // Export

  exportSingle(req: ExportSingleRequest): Promise<ExportSingleResponse> {
    return this.#json('GET', '/files/export', { query: { ...req } });
  }

  /** Range mode: the service e-mails the download link; the response only says whether it was accepted. */
  exportRange(req: ExportRangeRequest): Promise<SuccessResponse> {
    return this.#json('GET', '/files/export', { query: { ...req } });
  }

  // Workflows (templates)

  createTemplate(req: CreateTemplateRequest): Promise<Workflow> {
    return this.#json('POST', '/v1/templates', { json: req });
  }

  listTemplates(query: { pagination_key?: string; limit?: number } = {}): Promise<TemplateList> {
    return this.#json('GET', '/v1/templates', { query: { ...query } });
  }

  iterateTemplates(): AsyncGenerator<Workflow> {
    return paginate((pagination_key) => this.listTemplates({ pagination_key }));
  }

  getTemplate(id: string): Promise<Workflow> {
    return this.#json('GET', `/v1/templates/${seg(id)}`);
  }

  updateTemplate(id: string, req: UpdateTemplateRequest): Promise<Workflow> {
    return this.#json('PUT', `/v1/templates/${seg(id)}`, { json: req });
  }

  deleteTemplate(id: string): Promise<SuccessResponse> {
    return this.#json('DELETE', `/v1/templates/${seg(id)}`);
  }

  // Classification

  classify(req: ClassifyRequest): Promise<ClassificationResult> {
    return this.#json('POST', '/v1/classify', { json: req });
  }

  createClassifier(input: ClassifierInput & Required<Pick<ClassifierInput, 'name' | 'classes'>>): Promise<Classifier> {
    return this.#json('POST', '/v1/classifiers', { json: input });
  }

  listClassifiers(query: { pagination_key?: string } = {}): Promise<ClassifierList> {
    return this.#json('GET', '/v1/classifiers', { query: { ...query } });
  }

  iterateClassifiers(): AsyncGenerator<Classifier> {
    return paginate((pagination_key) => this.listClassifiers({ pagination_key }));
  }

  getClassifier(id: string): Promise<Classifier> {
    return this.#json('GET', `/v1/classifiers/${seg(id)}`);
  }

  updateClassifier(id: string, input: ClassifierInput): Promise<Classifier> {
    return this.#json('PUT', `/v1/classifiers/${seg(id)}`, { json: input });
  }

  /**
   * DELETE /v1/classifiers/{id}. The spec refers to deleting a Classifier without showing its method and
   * path; docdrop serve answers this one. A 404 or 405 from a service that does not is explained as such.
   */
  async deleteClassifier(id: string): Promise<SuccessResponse> {
    try {
      return await this.#json<SuccessResponse>('DELETE', `/v1/classifiers/${seg(id)}`);
    } catch (err) {
      if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 405)) throw err;
      throw new ApiError({
        status: err.status,
        code: err.code,
        method: err.method,
        path: err.path,
        message:
          `${err.detail} (the interface does not show how a Classifier is deleted, and this service may not offer ` +
          `DELETE /v1/classifiers/{id}; delete it where the service's Classifiers are managed)`,
        cause: err,
      });
    }
  }

  classifyWithClassifier(id: string, req: ClassifierClassifyRequest): Promise<ClassificationResult> {
    return this.#json('POST', `/v1/classifiers/${seg(id)}/classify`, { json: req });
  }

  // Pre-signed downloads (storage_key, file_presigned_url, export links)

  /** Streams a pre-signed URL to destPath without the API key; returns the bytes written. */
  download(presignedUrl: string, destPath: string): Promise<number> {
    return this.#http.toFile({ method: 'GET', path: presignedUrl, presigned: true }, destPath);
  }

  // Any call of the interface, for callers that compose their own (the MCP tools, src/mcp)

  /** Sends one request (an absolute pre-signed URL when `presigned`); the answer's bytes and Content-Type. Errors throw ApiError. */
  send(req: { method: HttpMethod; path: string; presigned?: boolean; query?: Record<string, QueryValue>; json?: unknown; bytes?: Buffer }) {
    const { bytes, ...rest } = req;
    return this.#http.bytes({ ...rest, ...(bytes ? { body: () => ({ body: bytes, headers: { 'content-type': 'application/octet-stream' } }) } : {}) });
  }

  #json<T>(method: HttpMethod, path: string, extra: { query?: Record<string, QueryValue>; json?: unknown } = {}): Promise<T> {
    return this.#http.json<T>({ method, path, ...extra });
  }

  #negotiated<T>(method: HttpMethod, path: string, query: Record<string, QueryValue>, accept: Accept | undefined): Promise<T | string> {
    if (accept === 'xml') return this.#http.text({ method, path, query, accept: 'application/xml' });
    return this.#http.json<T>({ method, path, query, accept: 'application/json' });
  }
}

/** Multipart form with `file` read lazily from disk (openAsBlob), so the file never sits in memory. */
async function fileForm(path: string, fileName: string): Promise<FormData> {
  const blob = await openAsBlob(path, { type: await contentTypeOfFile(path) });
  const form = new FormData();
  form.append('file', blob, fileName);
  return form;
}

async function* paginate<T>(
  page: (key: string | undefined) => Promise<{ items: T[]; pagination_key: string | null }>,
): AsyncGenerator<T> {
  let key: string | undefined;
  for (;;) {
    const res = await page(key);
    yield* res.items;
    if (!res.pagination_key) return;
    key = res.pagination_key;
  }
}

function seg(id: string): string {
  return encodeURIComponent(id);
}

function pick(opts: ExtractOptions, keys: ('classifier_id' | 'template_id')[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) if (opts[k] !== undefined) out[k] = opts[k];
  return out;
}

// Jobs drive the daemon's state machine, so their two key fields are checked at the edge.
function checkJob(job: ExtractionJob, where: string): ExtractionJob {
  requireStrings(job, ['request_id', 'request_status'], where);
  return job;
}

function requireStrings(value: unknown, keys: string[], where: string): void {
  const obj = (value ?? {}) as Record<string, unknown>;
  for (const k of keys) {
    if (typeof obj[k] !== 'string') {
      const [method, path] = where.split(' ');
      throw new ApiError({
        status: 200,
        code: ClientErrorCodes.invalidResponse,
        message: `expected string field '${k}' in the response, received ${JSON.stringify(obj[k]) ?? 'nothing'}`,
        method,
        path,
      });
    }
  }
}
