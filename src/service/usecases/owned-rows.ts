// The live row an account asks for by id: 404 when unknown or deleted, 403 when another account's.
// Every request naming a document, Workflow, Classifier or job starts here, whatever it came through.
import { requireOwned, type Account } from '../accounts.js';
import type { Job, JobStore } from '../store/job-store.js';
import type { ClassifierRow, ClassifiersRepo } from '../store/classifiers-repo.js';
import type { DocumentRow, DocumentsRepo } from '../store/documents-repo.js';
import type { TemplateRow, TemplatesRepo } from '../store/templates-repo.js';

/** The ready document: one only reserved for a pre-signed upload counts as unknown. */
export async function requireDocument(deps: { documents: DocumentsRepo }, account: Account, id: string): Promise<DocumentRow> {
  const row = await deps.documents.get(id);
  return requireOwned(row?.state === 'ready' ? row : undefined, account, 'document', id);
}

export async function requireTemplate(deps: { templates: TemplatesRepo }, account: Account, id: string): Promise<TemplateRow> {
  return requireOwned(await deps.templates.get(id), account, 'Workflow', id);
}

export async function requireClassifier(deps: { classifiers: ClassifiersRepo }, account: Account, id: string): Promise<ClassifierRow> {
  return requireOwned(await deps.classifiers.get(id), account, 'Classifier', id);
}

export async function requireJob(deps: { jobStore: JobStore }, account: Account, id: string): Promise<Job> {
  const job = await deps.jobStore.get(id);
  return requireOwned(job && { ...job, account_id: job.account }, account, 'job', id);
}
