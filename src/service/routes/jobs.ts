// Extraction jobs: run_parser, POST/GET /v1/extract, GET/DELETE /files.
// POST /v1/extract takes classifier_id, template_id and the run_parser run options from the JSON body,
// the multipart form fields, or the query string (body and form win over the query). Exactly one
// document source: JSON document_id, JSON url, or a multipart `file` part.
import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ErrorCodes } from '../../api/error-codes.js';
import type { ExtractionJob } from '../../api/types.js';
import type { Account } from '../accounts.js';
import { MULTIPART_TOO_LARGE } from '../http/errors.js';
import { sendNegotiated } from '../http/xml.js';
import { ServiceError } from '../service-error.js';
import type { ClassifiersRepo } from '../store/classifiers-repo.js';
import type { DocumentRow } from '../store/documents-repo.js';
import type { Job, JobSubmission } from '../store/job-store.js';
import type { TemplatesRepo } from '../store/templates-repo.js';
import { deleteJob } from '../usecases/delete-job.js';
import { storeDocument, type DocumentStoreDeps } from '../usecases/documents.js';
import type { AddressPolicy } from '../usecases/address-policy.js';
import { fetchDocument } from '../usecases/fetch-document.js';
import { requireDocument, requireJob } from '../usecases/owned-rows.js';
import { resolveTarget, submitRun, type SubmitRunDeps } from '../usecases/submit-run.js';
import { describeValue, parseInput, pathId, uuid } from '../validate.js';

export type JobRoutesDeps = DocumentStoreDeps &
  SubmitRunDeps & {
    templates: TemplatesRepo;
    classifiers: ClassifiersRepo;
    /** Largest document fetched from a `url` (--max-upload-mb). */
    maxUploadBytes: number;
    /** Addresses a `url` may be fetched from (--fetch-allow-range). */
    addressPolicy: AddressPolicy;
    /** The wire view of a job (JobsRuntime.view). */
    viewJob(job: Job): Promise<ExtractionJob>;
  };

const requestIdQuery = z.object({ request_id: uuid() });

export function jobRoutes(app: FastifyInstance, deps: JobRoutesDeps): void {
  app.get('/v1/documents/:document_id/run_parser', async (req, reply) => {
    const documentId = pathId('document_id', (req.params as Record<string, string>).document_id);
    const query = (req.query ?? {}) as Record<string, unknown>;
    const job = await submit(deps, req.account, 'run_parser', query, () => requireDocument(deps, req.account, documentId));
    return sendNegotiated(req, reply, 'extraction_job', await deps.viewJob(job));
  });

  app.post('/v1/extract', async (req): Promise<{ request_id: string }> => {
    const query = (req.query ?? {}) as Record<string, unknown>;
    if (req.isMultipart()) {
      const { fields, document } = await readExtractForm(deps, req);
      const job = await submit(deps, req.account, 'extract', { ...query, ...fields }, async () => document);
      return { request_id: job.request_id };
    }
    const body = req.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new ServiceError(400, ErrorCodes.invalidRequest, `request body: expected a JSON object with document_id or url, or a multipart form with a file part; received ${describeValue(body)}`);
    }
    const b = body as Record<string, unknown>;
    const source = parseInput(
      z.union([z.object({ document_id: uuid(), url: z.undefined() }), z.object({ url: z.string().min(1), document_id: z.undefined() })], {
        error: 'document source: expected exactly one of document_id (a UUID) or url (a string)',
      }),
      { document_id: b.document_id, url: b.url },
      'body',
    );
    const params = { ...query, ...b };
    // Validate everything cheap before fetching a URL, so a bad request costs no download.
    const check = () => resolveTarget(deps, req.account, params);
    let document: DocumentRow;
    if (source.document_id !== undefined) document = await requireDocument(deps, req.account, source.document_id.toLowerCase());
    else {
      await check();
      document = await fetchDocument(deps, req.account.id, source.url);
    }
    const job = await submit(deps, req.account, 'extract', params, async () => document);
    return { request_id: job.request_id };
  });

  const jobOf = (req: FastifyRequest): Promise<Job> => requireJob(deps, req.account, parseInput(requestIdQuery, req.query, 'query').request_id.toLowerCase());
  const getJob = async (req: FastifyRequest): Promise<ExtractionJob> => deps.viewJob(await jobOf(req));
  app.get('/files', getJob);
  app.get('/v1/extract', getJob);

  app.delete('/files', async (req) => {
    const job = await jobOf(req);
    await deleteJob(deps, job);
    return { success: true, message: `job ${job.request_id} deleted` };
  });
}

/** The target is checked before the document, so a request wrong in both is answered about the target. */
async function submit(deps: JobRoutesDeps, account: Account, via: JobSubmission, input: Record<string, unknown>, document: () => Promise<DocumentRow>): Promise<Job> {
  const { target, params } = await resolveTarget(deps, account, input);
  return submitRun(deps, { account, documentId: (await document()).document_id, via, target, params });
}

/** Reads a multipart POST /v1/extract: string fields and the one `file` part (stored as a document). */
async function readExtractForm(deps: DocumentStoreDeps, req: FastifyRequest): Promise<{ fields: Record<string, string>; document: DocumentRow }> {
  const fields: Record<string, string> = {};
  let document: DocumentRow | undefined;
  for await (const part of req.parts()) {
    if (part.type === 'field') {
      fields[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname !== 'file' || document) {
      part.file.resume();
      throw new ServiceError(400, ErrorCodes.invalidRequest, `file: expected one multipart file part named \`file\`, received \`${part.fieldname}\``);
    }
    // busboy marks the part truncated at the 6 MB limit; fail the store rather than keep half a file.
    const guard = new Transform({
      transform: (chunk, _enc, cb) => cb(null, chunk),
      flush: (cb) => cb(part.file.truncated ? new ServiceError(400, ErrorCodes.fileTooLarge, MULTIPART_TOO_LARGE) : null),
    });
    part.file.on('error', (err) => guard.destroy(err));
    document = await storeDocument(deps, { accountId: req.account.id, sourceName: 'api', fileName: part.filename, source: part.file.pipe(guard) });
  }
  if (!document) throw new ServiceError(400, ErrorCodes.invalidRequest, 'file: expected a multipart part named `file` holding the document, received none');
  return { fields, document };
}
