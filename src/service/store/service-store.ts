// The service's store as the rest of the service sees it: one repository per table and the few
// engine-level operations. Two adapters build it, SQLite (sqlite-store.ts, the default, one machine) and
// PostgreSQL (postgres-store.ts, shared by several `docdrop serve` processes); open-store.ts picks one.
import { createClassifiersRepo, type ClassifiersRepo } from './classifiers-repo.js';
import { createDocumentsRepo, type DocumentsRepo } from './documents-repo.js';
import { createJobStore, type JobStore } from './job-store.js';
import type { SqlExecutor } from './sql.js';
import { createTemplatesRepo, type TemplatesRepo } from './templates-repo.js';
import { createWebhookDeliveriesRepo, type WebhookDeliveriesRepo } from './webhook-deliveries-repo.js';

export interface ServiceRepos {
  documents: DocumentsRepo;
  templates: TemplatesRepo;
  classifiers: ClassifiersRepo;
  jobs: JobStore;
  webhookDeliveries: WebhookDeliveriesRepo;
}

export interface ServiceStore extends ServiceRepos {
  readonly engine: 'sqlite' | 'postgres';
  /** The pre-signed URL secret, the same for every process sharing this store. */
  presignSecret(): Promise<Buffer>;
  /** Commits a write that changes nothing; throws when the store cannot commit (readiness). */
  checkWritable(): Promise<void>;
  close(): Promise<void>;
}

export function createRepos(sql: SqlExecutor): ServiceRepos {
  return {
    documents: createDocumentsRepo(sql),
    templates: createTemplatesRepo(sql),
    classifiers: createClassifiersRepo(sql),
    jobs: createJobStore(sql),
    webhookDeliveries: createWebhookDeliveriesRepo(sql),
  };
}
