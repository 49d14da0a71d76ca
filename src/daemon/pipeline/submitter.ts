// Upload and submit, the two calls that start an input's job. Submit sends the rule's run options with
// run_parser (template_id, or classifier_id for classify+extract), or POST /v1/extract with the stored
// document when the config says `submit: extract`.
import type { ServiceClient } from '../../api/client.js';
import type { RunParserParams } from '../../api/types.js';
import type { RunOptions } from '../config/config.js';
import type { PipelineRule } from './ports.js';

export type SubmitMode = 'run_parser' | 'extract';

export async function uploadInput(client: ServiceClient, path: string): Promise<string> {
  const doc = await client.uploadDocument(path);
  return doc.document_id;
}

export async function submitInput(
  client: ServiceClient,
  mode: SubmitMode,
  rule: PipelineRule,
  options: Readonly<RunOptions>,
  documentId: string,
): Promise<string> {
  const ids = rule.target.kind === 'workflow' ? { template_id: rule.target.templateId } : { classifier_id: rule.target.classifierId };
  if (mode === 'extract') {
    // The spec shows no run options for POST /v1/extract: the Workflow's own settings apply.
    const { request_id } = await client.extract({ document_id: documentId }, ids);
    return request_id;
  }
  const params: RunParserParams = { ...(options as RunParserParams), ...ids };
  const job = await client.runParser(documentId, params);
  return job.request_id;
}
