// POST /files/upload/{template_id} (docdrop extension, used by the hosted service's integrations):
// POST /v1/documents and run_parser in one request, through the same usecases, so limits, errors and
// credits are theirs. Run options come from the query string as on run_parser.
import type { FastifyInstance } from 'fastify';
import { ErrorCodes } from '../../api/error-codes.js';
import type { ExtractionJob, UploadAndRunResponse } from '../../api/types.js';
import { ServiceError } from '../service-error.js';
import type { ClassifiersRepo } from '../store/classifiers-repo.js';
import type { Job } from '../store/job-store.js';
import type { TemplatesRepo } from '../store/templates-repo.js';
import type { DocumentStoreDeps } from '../usecases/documents.js';
import { resolveTarget, submitRun, type SubmitRunDeps } from '../usecases/submit-run.js';
import { pathId } from '../validate.js';
import { storeMultipartDocument } from './multipart-document.js';

export type UploadAndRunRoutesDeps = DocumentStoreDeps &
  SubmitRunDeps & {
    templates: TemplatesRepo;
    classifiers: ClassifiersRepo;
    /** The wire view of a job (JobsRuntime.view). */
    viewJob(job: Job): Promise<ExtractionJob>;
  };

export function uploadAndRunRoutes(app: FastifyInstance, deps: UploadAndRunRoutesDeps): void {
  app.post('/files/upload/:template_id', async (req): Promise<UploadAndRunResponse> => {
    const templateId = pathId('template_id', (req.params as Record<string, string>).template_id);
    const query = (req.query ?? {}) as Record<string, unknown>;
    if (query.classifier_id !== undefined) {
      throw new ServiceError(400, ErrorCodes.invalidRequest, 'classifier_id: not accepted here, the path names the Workflow; for classify+extract use POST /v1/extract');
    }
    if (!req.isMultipart()) {
      throw new ServiceError(400, ErrorCodes.invalidRequest, 'Content-Type: expected multipart/form-data with a `file` part holding the document');
    }
    // Workflow and run options are checked before the bytes are read, so a bad request stores nothing.
    const { target, params } = await resolveTarget(deps, req.account, { ...query, template_id: templateId });
    const document = await storeMultipartDocument(deps, req);
    const job = await submitRun(deps, { account: req.account, documentId: document.document_id, via: 'run_parser', target, params });
    return { ...(await deps.viewJob(job)), document_id: document.document_id };
  });
}
