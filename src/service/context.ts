// Everything startService built, in one object. Only the composition sees it whole (index.ts,
// components.ts, http/app.ts, routes/index.ts): routes, usecases, jobs and mail take narrow deps.
import type { Logger } from '../shared/logger.js';
import type { ServiceStore } from './store/service-store.js';
import type { DocumentsRepo } from './store/documents-repo.js';
import type { TemplatesRepo } from './store/templates-repo.js';
import type { ClassifiersRepo } from './store/classifiers-repo.js';
import type { FileStore } from './store/file-store.js';
import type { Presigner } from './presign.js';
import type { ResolvedServiceOptions } from './serve-options.js';
import type { JobsRuntime } from './jobs/jobs-runtime.js';
import type { ExportMailer } from './mail/export-mailer.js';

export interface Repos {
  documents: DocumentsRepo;
  templates: TemplatesRepo;
  classifiers: ClassifiersRepo;
}

export interface ServiceContext {
  /** The store (SQLite or PostgreSQL): every repository, the presign secret, readiness, close. */
  db: ServiceStore;
  repos: Repos;
  files: FileStore;
  presign: Presigner;
  logger: Logger;
  options: ResolvedServiceOptions;
  /** Base of every absolute URL the service hands out (known once the server listens). */
  readonly publicUrl: string;
  /** Jobs: store, worker pool, engine, fault injection, webhooks (src/service/jobs). */
  jobs: JobsRuntime;
  /** Sends range-export links (logs them when no SMTP is configured). */
  exportMailer: ExportMailer;
}
