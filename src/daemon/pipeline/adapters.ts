// The real adapters behind the pipeline's ports: the service client, the content checks of intake and the
// disposition helpers. Kept apart from daemon.ts so `docdrop process` can reuse the API and file checks.
import type { ServiceClient } from '../../api/client.js';
import { DocdropError } from '../../shared/errors.js';
import type { RunOptions } from '../config/config.js';
import { inspectFile } from '../inputs/inspect-file.js';
import { deleteInput, moveDuplicate, moveToFailed, moveToProcessed, type DispositionRule } from '../inputs/disposition.js';
import type { DispositionPort, FileInspector, PipelineApi } from './ports.js';
import { pollJob } from './poller.js';
import { submitInput, uploadInput, type SubmitMode } from './submitter.js';

export function createPipelineApi(client: ServiceClient, mode: SubmitMode, options: ReadonlyMap<string, Readonly<RunOptions>>): PipelineApi {
  return {
    upload: (path) => uploadInput(client, path),
    submit: (rule, documentId) => submitInput(client, mode, rule, options.get(rule.name) ?? {}, documentId),
    getJob: (requestId, fileName) => pollJob(client, requestId, fileName),
  };
}

export function createFileInspector(): FileInspector {
  return { inspect: inspectFile };
}

export function createDisposition(rules: ReadonlyMap<string, DispositionRule>): DispositionPort {
  const get = (name: string) => {
    const r = rules.get(name);
    if (!r) throw new DocdropError('programming_error', `no "after" settings for rule "${name}"`);
    return r;
  };
  return {
    async succeed(rule, record) {
      const r = get(rule.name);
      if (r.after.success === 'keep') return null;
      if (r.after.success === 'delete') return deleteInput(r, record);
      // {date} is the input's own day, so a move repeated after midnight finds its earlier result.
      return moveToProcessed(r, record, new Date(record.createdAt));
    },
    fail: (rule, record, info) => moveToFailed(get(rule.name), record, info),
    duplicate: (rule, record, original) => moveDuplicate(get(rule.name), record, original),
  };
}
