// `docdrop process FILE... --workflow X --out DIR`: one-shot extraction that waits for every job.
// Exit code 0 only when every file succeeded; otherwise 1, with one line per file saying why.
import type { CommandModule } from 'yargs';
import { reportingErrors } from './run-command.js';
import { processFiles } from '../daemon/pipeline/oneshot.js';
import { createLogger } from '../shared/logger.js';
import { connectFromArgs } from './service-connection.js';
import { createProgressReporter, progressModeFor } from './process-progress.js';

interface ProcessArgs {
  files: string[];
  workflow?: string;
  classifier?: string;
  out: string;
  config?: string;
  baseUrl?: string;
  apiKey?: string;
  format: 'csv' | 'xlsx' | 'json';
  layout: 'flat' | 'line_items';
  json?: boolean;
}

export const processCommand: CommandModule<object, ProcessArgs> = {
  command: 'process <files..>',
  describe: 'Extract the named files once with a Workflow (or Classifier), write outputs, wait for every job',
  builder: (y) =>
    y
      .positional('files', { type: 'string', array: true, demandOption: true, describe: 'PDF, JPEG, PNG or TIFF files' })
      .option('workflow', { type: 'string', describe: 'Workflow title or template_id' })
      .option('classifier', { type: 'string', describe: 'Classifier name or classifier_id (classify + extract)' })
      .option('out', { type: 'string', demandOption: true, describe: 'folder for the output files' })
      .option('format', { choices: ['csv', 'xlsx', 'json'] as const, default: 'csv' as const })
      .option('layout', { choices: ['flat', 'line_items'] as const, default: 'line_items' as const })
      .option('config', { type: 'string', describe: 'take the service settings from this daemon config' })
      .option('base-url', { type: 'string', describe: 'service URL (instead of --config)' })
      .option('api-key', { type: 'string', describe: 'API key (or set DOCDROP_API_KEY)' })
      .option('json', { type: 'boolean', describe: 'one JSON line per finished file, then a summary line (for scripts)' })
      .check((a) => {
        if ((a.workflow === undefined) === (a.classifier === undefined)) throw new Error('give exactly one of --workflow and --classifier');
        if (a.config === undefined && a.baseUrl === undefined) throw new Error('give --config FILE, or --base-url URL with --api-key KEY');
        return true;
      }),
  handler: reportingErrors('process', async (args) => {
    const logger = createLogger({ level: process.env.DOCDROP_LOG_LEVEL ?? 'error' });
    // With --config the config's Workflows and Classifiers are applied first, as `docdrop run` does; with an
    // embedded config, the running daemon's service is used when there is one (service-connection.ts).
    const svc = await connectFromArgs(args, logger, { applyDefinitions: true });
    try {
      const progress = createProgressReporter(progressModeFor(args.json === true, process.stderr), args.files.length, { out: process.stdout, err: process.stderr });
      const results = await processFiles({
        client: svc.client,
        files: args.files,
        workflow: args.workflow,
        classifier: args.classifier,
        outDir: args.out,
        format: args.format,
        layout: args.layout,
        submit: svc.submit,
        logger,
        onSettled: (r) => progress.fileDone(r),
      });
      if (progress.finish(results) > 0) process.exitCode = 1;
    } finally {
      await svc.close();
    }
  }),
};
