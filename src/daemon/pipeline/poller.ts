// One poll of a job, reduced to what the pipeline decides on. Status synonyms and the two envelopes are
// read by jobOutcome (src/api/job-status.ts), the one place that knows them.
import type { ServiceClient } from '../../api/client.js';
import { jobOutcome } from '../../api/job-status.js';
import type { JobView } from './ports.js';

export async function pollJob(client: ServiceClient, requestId: string, fallbackFileName: string): Promise<JobView> {
  const job = await client.getJob(requestId);
  const o = jobOutcome(job);
  if (o.status === 'completed') {
    return {
      outcome: 'completed',
      status: job.request_status,
      errorMessage: null,
      result: {
        data: o.data ?? {},
        fileName: o.fileName ?? fallbackFileName,
        numPages: o.numPages,
        templateId: o.templateId,
        classification: o.classification,
        confidence: o.confidence,
        fieldConfidence: o.fieldConfidence,
      },
    };
  }
  const failed = o.status === 'failed' || o.status === 'exception';
  return { outcome: failed ? 'failed' : 'pending', status: o.status, errorMessage: o.errorMessage, result: null };
}
