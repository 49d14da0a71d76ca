// Deleting a job (DELETE /files): its row and the page selection it wrote. A job still running is
// dropped too: the runner records nothing for a job that no longer exists and removes what it wrote.
import type { FileStore } from '../store/file-store.js';
import type { Job, JobStore } from '../store/job-store.js';

export async function deleteJob(deps: { jobStore: JobStore; files: FileStore }, job: Job): Promise<void> {
  await deps.jobStore.delete(job.request_id);
  if (job.selected_pages_file) await deps.files.remove(deps.files.artifactPath(job.selected_pages_file));
}
