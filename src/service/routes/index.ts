// The route plugins the app registers, in order, each given only the deps it uses (its *RoutesDeps).
// Append new ones here.
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { classifierRoutes } from './classifiers.js';
import { classifyRoutes } from './classify.js';
import { documentRoutes } from './documents.js';
import { exportRoutes } from './export.js';
import { healthRoutes } from './health.js';
import { jobRoutes } from './jobs.js';
import { mcpRoutes } from './mcp.js';
import { createAddressPolicy } from '../usecases/address-policy.js';
import { presignedRoutes } from './presigned.js';
import { templateRoutes } from './templates.js';
import { uploadAndRunRoutes } from './upload-and-run.js';

export async function registerRoutes(app: FastifyInstance, ctx: ServiceContext): Promise<void> {
  const { db, files, presign, logger, jobs, options } = ctx;
  const { documents, templates, classifiers } = ctx.repos;
  const jobStore = jobs.store;
  const health = () => healthRoutes(app, { store: db, filesRoot: files.root, workersRunning: () => jobs.workersRunning, metrics: jobs.metrics });
  // A pure worker answers probes and scrapes only: the API is the api/all processes' (docs/service.md#jobs-on-several-workers-postgresql).
  if (options.role === 'worker') return health();
  documentRoutes(app, { documents, files, presign, presignTtlSeconds: options.presignTtlSeconds });
  templateRoutes(app, { templates, inboundDomain: options.inboundDomain });
  classifierRoutes(app, { classifiers, templates });
  await presignedRoutes(app, { presign, files, documents, maxUploadBytes: options.maxUploadBytes });
  jobRoutes(app, {
    documents,
    templates,
    classifiers,
    files,
    jobStore,
    jobQueue: jobs,
    maxUploadBytes: options.maxUploadBytes,
    addressPolicy: createAddressPolicy(options.fetchAllowRanges),
    viewJob: (job) => jobs.view(job),
  });
  uploadAndRunRoutes(app, { documents, templates, classifiers, files, jobStore, jobQueue: jobs, viewJob: (job) => jobs.view(job) });
  classifyRoutes(app, { documents, classifiers, files, engine: jobs.engine, logger });
  exportRoutes(app, {
    jobStore,
    templates,
    documents,
    files,
    presign,
    exportMailer: ctx.exportMailer,
    accountEmail: options.accountEmail,
    inboundDomain: options.inboundDomain,
  });
  mcpRoutes(app, { publicUrl: () => ctx.publicUrl });
  health();
}
