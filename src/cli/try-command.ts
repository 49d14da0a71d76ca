// `docdrop try FILE --workflow X`: one file through the service, its fields printed as a table. This is
// the loop a person runs while writing field descriptions, so it makes only the requests it needs:
// the Workflow list (names to ids, and the schema for the table), upload, run, and polls on the spec's
// backoff, the first one after 1 s since a job just submitted is not done yet.
import { basename } from 'node:path';
import { stat } from 'node:fs/promises';
import type { CommandModule } from 'yargs';
import type { ServiceClient } from '../api/client.js';
import { jobOutcome, type JobOutcome } from '../api/job-status.js';
import type { Workflow } from '../api/types.js';
import { waitForJob } from '../api/wait-for-job.js';
import { resolveTargets, type ResolvedTarget } from '../daemon/pipeline/resolve-targets.js';
import { submitInput, uploadInput, type SubmitMode } from '../daemon/pipeline/submitter.js';
import { createLogger } from '../shared/logger.js';
import { fieldViews, renderFields, type FieldView } from './field-table.js';
import { reportingErrors } from './run-command.js';
import { connectFromArgs } from './service-connection.js';

interface TryArgs {
  file: string;
  workflow?: string;
  classifier?: string;
  config?: string;
  baseUrl?: string;
  apiKey?: string;
  json?: boolean;
  /** Always set: yargs fills the default. */
  timeoutS?: number;
}

export interface TryResult {
  file: string;
  requestId: string;
  outcome: JobOutcome;
  /** The Workflow that ran (in classify+extract, the one the Classifier chose), when known. */
  workflow: Workflow | undefined;
  scores: Record<string, number> | null;
  fields: FieldView[];
}

export const tryCommand: CommandModule<object, TryArgs> = {
  command: 'try <file>',
  describe: 'Run one file through a Workflow (or Classifier) and print the extracted fields as a table',
  builder: (y) =>
    y
      .positional('file', { type: 'string', demandOption: true, describe: 'a PDF, JPEG, PNG or TIFF file' })
      .option('workflow', { type: 'string', describe: 'Workflow title or template_id' })
      .option('classifier', { type: 'string', describe: 'Classifier name or classifier_id (classify + extract)' })
      .option('config', { type: 'string', describe: "take the service settings from this daemon config (embedded: the running daemon's service)" })
      .option('base-url', { type: 'string', describe: 'service URL (instead of --config)' })
      .option('api-key', { type: 'string', describe: 'API key (or set DOCDROP_API_KEY)' })
      .option('json', { type: 'boolean', describe: 'print the result as JSON' })
      .option('timeout-s', { type: 'number', default: 300, describe: 'give up waiting for the job after this many seconds' })
      .check((a) => {
        if ((a.workflow === undefined) === (a.classifier === undefined)) throw new Error('give exactly one of --workflow and --classifier');
        if (a.config === undefined && a.baseUrl === undefined) throw new Error('give --config FILE, or --base-url URL with --api-key KEY');
        return true;
      }),
  handler: reportingErrors('try', async (args) => {
    const st = await stat(args.file).catch((err: NodeJS.ErrnoException) => {
      throw new Error(`cannot read ${args.file}: ${err.code ?? err.message}`);
    });
    if (!st.isFile()) throw new Error(`${args.file} is not a regular file`);
    const logger = createLogger({ level: process.env.DOCDROP_LOG_LEVEL ?? 'error' });
    const svc = await connectFromArgs(args, logger, { applyDefinitions: true });
    try {
      const result = await tryFile(svc.client, svc.submit, args.file, { workflow: args.workflow, classifier: args.classifier }, args.timeoutS! * 1000);
      process.stdout.write(args.json ? `${JSON.stringify(jsonView(result), null, 2)}\n` : renderResult(result));
      if (result.outcome.status !== 'completed') {
        process.stderr.write(`docdrop try: the job ${result.outcome.status}: ${result.outcome.errorMessage ?? 'no reason given'} (request ${result.requestId})\n`);
        process.exitCode = 1;
      }
    } finally {
      await svc.close();
    }
  }),
};

export async function tryFile(
  client: ServiceClient,
  submit: SubmitMode,
  file: string,
  target: { workflow?: string | undefined; classifier?: string | undefined },
  timeoutMs: number,
): Promise<TryResult> {
  const resolved: ResolvedTarget = (await resolveTargets([{ name: 'try', ...target }], client)).get('try')!;
  const rule = { name: 'try', target: resolved, duplicates: 'process' as const, afterSuccess: 'keep' as const };
  const documentId = await uploadInput(client, file);
  const requestId = await submitInput(client, submit, rule, {}, documentId);
  const job = await waitForJob(client, requestId, { firstPollAfterMs: 1000, giveUpMs: timeoutMs, via: submit === 'extract' ? 'extract' : 'files' });
  const outcome = jobOutcome(job);
  const workflow = resolved.workflows.get(outcome.templateId ?? (resolved.kind === 'workflow' ? resolved.templateId : ''));
  return { file, requestId, outcome, workflow, scores: job.confidence_scores ?? null, fields: fieldViews(outcome.data, workflow) };
}

function renderResult(r: TryResult): string {
  const o = r.outcome;
  const head = [
    `file      ${basename(r.file)}${o.numPages !== null ? ` (${o.numPages} page${o.numPages === 1 ? '' : 's'})` : ''}`,
    `workflow  ${r.workflow?.template_title ?? o.templateId ?? '(none chosen)'}`,
  ];
  if (o.classification !== null) {
    head.push(`class     ${o.classification}${o.confidence !== null ? ` (${o.confidence.toFixed(2)})` : ''}`);
    const scores = Object.entries(r.scores ?? {}).sort((a, b) => b[1] - a[1]);
    if (scores.length > 0) head.push(`scores    ${scores.map(([l, s]) => `${l} ${s.toFixed(2)}`).join(', ')}`);
  }
  head.push(`status    ${o.status}${o.errorMessage ? `: ${o.errorMessage}` : ''}`, `request   ${r.requestId}`);
  const missing = r.fields.filter((f) => f.required && f.missing).map((f) => f.name);
  if (missing.length > 0) head.push(`missing   ${missing.join(', ')} (required)`);
  if (o.status !== 'completed') return `${head.join('\n')}\n`;
  return `${head.join('\n')}\n\n${renderFields(r.fields)}`;
}

function jsonView(r: TryResult) {
  const o = r.outcome;
  return {
    file: r.file,
    request_id: r.requestId,
    status: o.status,
    error: o.errorMessage,
    workflow: r.workflow ? { template_id: r.workflow.template_id, title: r.workflow.template_title } : o.templateId ? { template_id: o.templateId, title: null } : null,
    classification: o.classification,
    confidence_scores: r.scores,
    num_pages: o.numPages,
    missing_required: r.fields.filter((f) => f.required && f.missing).map((f) => f.name),
    fields: Object.fromEntries(r.fields.map((f) => [f.name, f.confidence === null ? f.value : { value: f.value, confidence: f.confidence }])),
  };
}
