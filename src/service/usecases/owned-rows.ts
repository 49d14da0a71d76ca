// The live row an account asks for by id: 404 when unknown or deleted, 403 when another account's.
// Every request naming a document, Workflow, Classifier or job starts here, whatever it came through.
import { requireOwned, type Account } from '../accounts.js';
import type { Job, JobStore } from '../store/job-store.js';
import type { ClassifierRow, ClassifiersRepo } from '../store/classifiers-repo.js';
import type { DocumentRow, DocumentsRepo } from '../store/documents-repo.js';
import type { TemplateRow, TemplatesRepo } from '../store/templates-repo.js';

/** The ready document: one only reserved for a pre-signed upload counts as unknown. */
export function requireDocument(deps: { documents: DocumentsRepo }, account: Account, id: string): DocumentRow {
  const row = deps.documents.get(id);
  return requireOwned(row?.state === 'ready' ? row : undefined, account, 'document', id);
}

export function requireTemplate(deps: { templates: TemplatesRepo }, account: Account, id: string): TemplateRow {
  return requireOwned(deps.templates.get(id), account, 'Workflow', id);
}

export function requireClassifier(deps: { classifiers: ClassifiersRepo }, account: Account, id: string): ClassifierRow {
  return requireOwned(deps.classifiers.get(id), account, 'Classifier', id);
}

export function requireJob(deps: { jobStore: JobStore }, account: Account, id: string): Job {
  const job = deps.jobStore.get(id);
  return requireOwned(job && { ...job, account_id: job.account }, account, 'job', id);
}
