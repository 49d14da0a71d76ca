// Extraction jobs: run_parser, POST/GET /v1/extract, GET/DELETE /files.
// POST /v1/extract takes classifier_id, template_id and the run_parser run options from the JSON body,
// the multipart form fields, or the query string (body and form win over the query). Exactly one
// document source: JSON document_id, JSON url, or a multipart `file` part.
import { randomUUID } from 'node:crypto';
import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ErrorCodes } from '../../api/error-codes.js';
import type { ExtractionJob } from '../../api/types.js';
import { requireOwned, type Account } from '../accounts.js';
import type { ServiceContext } from '../context.js';
import { requireDocument, storeDocument } from '../usecases/documents.js';
import { MULTIPART_TOO_LARGE } from '../http/errors.js';
import { ServiceError } from '../service-error.js';
import { fetchDocument } from '../usecases/fetch-document.js';
import type { Job, JobSubmission } from '../store/job-store.js';
import { parseRunParams } from '../jobs/run-options.js';
import type { DocumentRow } from '../store/documents-repo.js';
import { describeValue, parseInput, pathId, uuid } from '../validate.js';
import { sendNegotiated } from '../http/xml.js';

const requestIdQuery = z.object({ request_id: uuid() });

const idsSchema = z.object({ template_id: uuid().optional(), classifier_id: uuid().optional() });

export function jobRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/v1/documents/:document_id/run_parser', async (req, reply) => {
    const documentId = pathId('document_id', (req.params as Record<string, string>).document_id);
    const query = (req.query ?? {}) as Record<string, unknown>;
    const job = submit(ctx, req.account, 'run_parser', query, () => requireDocument(ctx, req.account, documentId));
    return sendNegotiated(req, reply, 'extraction_job', ctx.jobs.view(job));
  });

  app.post('/v1/extract', async (req): Promise<{ request_id: string }> => {
    const query = (req.query ?? {}) as Record<string, unknown>;
    if (req.isMultipart()) {
      const { fields, document } = await readExtractForm(ctx, req);
      const job = submit(ctx, req.account, 'extract', { ...query, ...fields }, () => document);
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
    const check = () => resolveTarget(ctx, req.account, params);
    let document: DocumentRow;
    if (source.document_id !== undefined) document = requireDocument(ctx, req.account, source.document_id.toLowerCase());
    else {
      check();
      document = await fetchDocument(ctx, req.account.id, source.url);
    }
    const job = submit(ctx, req.account, 'extract', params, () => document);
    return { request_id: job.request_id };
  });

  const getJob = async (req: FastifyRequest): Promise<ExtractionJob> => ctx.jobs.view(requireJob(ctx, req));
  app.get('/files', getJob);
  app.get('/v1/extract', getJob);

  app.delete('/files', async (req) => {
    const job = requireJob(ctx, req);
    ctx.jobs.store.delete(job.request_id);
    if (job.selected_pages_file) await ctx.files.remove(ctx.files.artifactPath(job.selected_pages_file));
    return { success: true, message: `job ${job.request_id} deleted` };
  });
}

function requireJob(ctx: ServiceContext, req: FastifyRequest): Job {
  const id = parseInput(requestIdQuery, req.query, 'query').request_id.toLowerCase();
  const job = ctx.jobs.store.get(id);
  return requireOwned(job && { ...job, account_id: job.account }, req.account, 'job', id);
}

/** Template or Classifier of a submission; classifier_id wins when both are given (spec rule). */
function resolveTarget(ctx: ServiceContext, account: Account, input: Record<string, unknown>) {
  if (input.classification_schema !== undefined) {
    // Spec rule 2 of classify+extract: only saved Classifiers route extractions.
    throw new ServiceError(400, ErrorCodes.invalidRequest, 'classification_schema: not accepted on extraction; save the labels as a Classifier (POST /v1/classifiers) and pass its classifier_id');
  }
  const ids = parseInput(idsSchema, { template_id: input.template_id, classifier_id: input.classifier_id }, 'query');
  const params = parseRunParams(input, '');
  if (ids.classifier_id) {
    const id = ids.classifier_id.toLowerCase();
    requireOwned(ctx.repos.classifiers.get(id), account, 'Classifier', id);
    return { classifierId: id, template: undefined, params };
  }
  if (!ids.template_id) {
    throw new ServiceError(400, ErrorCodes.invalidRequest, 'template_id: expected the Workflow to run (a UUID), or classifier_id for classify+extract; received neither');
  }
  const id = ids.template_id.toLowerCase();
  return { classifierId: null, template: requireOwned(ctx.repos.templates.get(id), account, 'Workflow', id), params };
}

function submit(ctx: ServiceContext, account: Account, via: JobSubmission, input: Record<string, unknown>, document: () => DocumentRow): Job {
  const target = resolveTarget(ctx, account, input);
  const doc = document();
  return ctx.jobs.submit(
    {
      request_id: randomUUID(),
      account: account.id,
      document_id: doc.document_id,
      template_id: target.template?.template_id ?? null,
      classifier_id: target.classifierId,
      submitted_via: via,
      params: target.params,
    },
    target.template,
  );
}

/** Reads a multipart POST /v1/extract: string fields and the one `file` part (stored as a document). */
async function readExtractForm(ctx: ServiceContext, req: FastifyRequest): Promise<{ fields: Record<string, string>; document: DocumentRow }> {
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
    document = await storeDocument(ctx, { accountId: req.account.id, sourceName: 'api', fileName: part.filename, source: part.file.pipe(guard) });
  }
  if (!document) throw new ServiceError(400, ErrorCodes.invalidRequest, 'file: expected a multipart part named `file` holding the document, received none');
  return { fields, document };
}
