// `docdrop serve`: runs the self-hosted service until SIGINT/SIGTERM.
// Options are declared in `serveOptions` and mapped in `toServiceOptions`; add new ones in both places.
import type { ArgumentsCamelCase, CommandModule, Options } from 'yargs';
import type { ServiceOptions } from '../service/index.js';
import { createLogger } from '../shared/logger.js';
import { parseMsRange, validateFaultOptions, type FaultOptions } from '../service/faults.js';
import { llmConfigSchema, type LlmConfig } from '../engine/llm-engine.js';

export const serveOptions = {
  host: { type: 'string', default: '127.0.0.1', describe: 'Interface to listen on' },
  port: { type: 'number', default: 8080, describe: 'TCP port (0 = any free port)' },
  'data-dir': { type: 'string', demandOption: true, describe: 'Folder for service.db, presign.key and stored files' },
  'api-key': {
    type: 'string',
    array: true,
    describe: 'An account API key (repeat for more accounts; also DOCDROP_API_KEYS, comma separated)',
  },
  'public-url': { type: 'string', describe: 'Base URL for pre-signed links when behind a proxy (default http://HOST:PORT)' },
  'presign-ttl': { type: 'number', default: 3600, describe: 'Lifetime of storage_key URLs in seconds' },
  'max-upload-mb': { type: 'number', default: 1024, describe: 'Largest file accepted through the pre-signed upload, MB' },
  'inbound-domain': { type: 'string', default: 'docdrop.local', describe: "Domain of each Workflow's email_id" },
  'log-level': { type: 'string', default: 'info', describe: 'pino log level' },
  // Jobs side: workers, inbound SMTP, export mail, fault injection (src/service/jobs, faults.ts).
  'job-concurrency': { type: 'number', default: 2, describe: 'Jobs processed at once' },
  'pdf-workers': { type: 'number', describe: 'PDF reader threads (pdf.js text; one of them also renders pages for OCR with PDFium); default min(2, cores)' },
  'smtp-port': { type: 'number', describe: "Start the inbound SMTP listener on this port (mail to a Workflow's email_id becomes a run)" },
  'smtp-host': { type: 'string', describe: 'Interface of the inbound SMTP listener (default --host)' },
  'mail-smtp-host': { type: 'string', describe: 'Outgoing SMTP server for range-export links (without it the link is logged)' },
  'mail-smtp-port': { type: 'number', default: 587, describe: 'Outgoing SMTP port' },
  'mail-smtp-secure': { type: 'boolean', default: false, describe: 'TLS from the first byte (port 465)' },
  'mail-smtp-user': { type: 'string', describe: 'Outgoing SMTP user (password from DOCDROP_MAIL_SMTP_PASS)' },
  'mail-from': { type: 'string', describe: 'Sender of export mails (default docdrop@MAIL-SMTP-HOST)' },
  'account-email': { type: 'string', describe: "Address range-export links are sent to (default <account id>@INBOUND-DOMAIN)" },
  'llm-url': { type: 'string', describe: 'OpenAI-compatible endpoint for the optional LLM engine, e.g. http://127.0.0.1:8000/v1 (key in DOCDROP_LLM_API_KEY)' },
  'llm-model': { type: 'string', array: true, describe: 'query_model=endpoint model, e.g. model-4o-mini=gpt-4o-mini (repeatable; the first is the default)' },
  'llm-timeout-ms': { type: 'number', default: 60000, describe: 'LLM request timeout; the built-in engine answers when it is exceeded' },
  'fault-latency-ms': { type: 'string', describe: 'Fault: added latency per API request, N or MIN-MAX ms' },
  'fault-429-rate': { type: 'number', describe: 'Fault: share 0..1 of API requests answered 429' },
  'fault-retry-after': { type: 'number', default: 1, describe: 'Fault: Retry-After seconds of injected 429s' },
  'fault-5xx-rate': { type: 'number', describe: 'Fault: share 0..1 of API requests answered 500' },
  'fault-drop-rate': { type: 'number', describe: 'Fault: share 0..1 of API requests whose connection is dropped unanswered' },
  'fault-job-failed-rate': { type: 'number', describe: "Fault: share 0..1 of jobs ending 'failed'" },
  'fault-job-exception-rate': { type: 'number', describe: "Fault: share 0..1 of jobs ending 'exception'" },
  'fault-job-delay-ms': { type: 'string', describe: 'Fault: added processing time per job, N or MIN-MAX ms' },
  'fault-seed': { type: 'number', describe: 'Fault: seed for a repeatable sequence of fault decisions' },
} satisfies Record<string, Options>;

type ServeArgs = ArgumentsCamelCase<{
  host: string;
  port: number;
  dataDir: string;
  apiKey?: string[];
  publicUrl?: string;
  presignTtl: number;
  maxUploadMb: number;
  inboundDomain: string;
  logLevel: string;
  jobConcurrency: number;
  pdfWorkers?: number;
  smtpPort?: number;
  smtpHost?: string;
  mailSmtpHost?: string;
  mailSmtpPort: number;
  mailSmtpSecure: boolean;
  mailSmtpUser?: string;
  mailFrom?: string;
  accountEmail?: string;
  llmUrl?: string;
  llmModel?: string[];
  llmTimeoutMs: number;
  faultLatencyMs?: string;
  fault429Rate?: number;
  faultRetryAfter: number;
  fault5xxRate?: number;
  faultDropRate?: number;
  faultJobFailedRate?: number;
  faultJobExceptionRate?: number;
  faultJobDelayMs?: string;
  faultSeed?: number;
}>;

export function apiKeysFrom(flags: string[] | undefined, env: string | undefined): string[] {
  const keys = [...(flags ?? []), ...(env ?? '').split(',')].map((k) => k.trim()).filter(Boolean);
  return [...new Set(keys)];
}

export function toServiceOptions(argv: ServeArgs, logger: ServiceOptions['logger']): ServiceOptions {
  const apiKeys = apiKeysFrom(argv.apiKey, process.env.DOCDROP_API_KEYS);
  if (apiKeys.length === 0) throw new Error('--api-key: expected at least one key (or DOCDROP_API_KEYS), received none');
  return {
    host: argv.host,
    port: argv.port,
    dataDir: argv.dataDir,
    apiKeys,
    publicUrl: argv.publicUrl,
    presignTtlSeconds: argv.presignTtl,
    maxUploadBytes: Math.round(argv.maxUploadMb * 1024 * 1024),
    inboundDomain: argv.inboundDomain,
    logger,
    jobConcurrency: argv.jobConcurrency,
    smtpPort: argv.smtpPort,
    smtpHost: argv.smtpHost,
    mailSmtp: argv.mailSmtpHost
      ? {
          host: argv.mailSmtpHost,
          port: argv.mailSmtpPort,
          secure: argv.mailSmtpSecure,
          user: argv.mailSmtpUser,
          pass: process.env.DOCDROP_MAIL_SMTP_PASS,
          from: argv.mailFrom,
        }
      : undefined,
    accountEmail: argv.accountEmail,
    llm: llmOptionsFrom(argv, process.env.DOCDROP_LLM_API_KEY),
    faults: faultOptionsFrom(argv),
  };
}

export function llmOptionsFrom(
  argv: Pick<ServeArgs, 'llmUrl' | 'llmModel' | 'llmTimeoutMs'>,
  apiKey: string | undefined,
): LlmConfig | undefined {
  if (!argv.llmUrl) {
    if (argv.llmModel?.length) throw new Error('--llm-model: needs --llm-url');
    return undefined;
  }
  const pairs = (argv.llmModel ?? []).map((entry) => {
    const m = /^([^=\s]+)=(\S+)$/.exec(entry);
    if (!m) throw new Error(`--llm-model: expected QUERY_MODEL=MODEL (e.g. model-4o-mini=gpt-4o-mini), received "${entry}"`);
    return [m[1], m[2]] as const;
  });
  const parsed = llmConfigSchema.safeParse({
    baseUrl: argv.llmUrl,
    apiKey: apiKey || undefined,
    models: Object.fromEntries(pairs),
    defaultModel: pairs[0]?.[1],
    timeoutMs: argv.llmTimeoutMs,
  });
  if (!parsed.success) {
    throw new Error(`--llm-*: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}

function faultOptionsFrom(argv: ServeArgs): FaultOptions | undefined {
  const ms = (flag: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    try {
      return parseMsRange(v);
    } catch (err) {
      throw new Error(`--${flag}: ${(err as Error).message}`);
    }
  };
  const o: FaultOptions = {
    latencyMs: ms('fault-latency-ms', argv.faultLatencyMs),
    rate429: argv.fault429Rate,
    retryAfterSeconds: argv.faultRetryAfter,
    rate5xx: argv.fault5xxRate,
    dropRate: argv.faultDropRate,
    jobFailedRate: argv.faultJobFailedRate,
    jobExceptionRate: argv.faultJobExceptionRate,
    jobDelayMs: ms('fault-job-delay-ms', argv.faultJobDelayMs),
    seed: argv.faultSeed,
  };
  try {
    return validateFaultOptions(o);
  } catch (err) {
    const flags: Record<string, string> = {
      rate429: '--fault-429-rate',
      rate5xx: '--fault-5xx-rate',
      dropRate: '--fault-drop-rate',
      jobFailedRate: '--fault-job-failed-rate',
      jobExceptionRate: '--fault-job-exception-rate',
      retryAfterSeconds: '--fault-retry-after',
    };
    throw new Error((err as Error).message.replace(/\b(rate429|rate5xx|dropRate|jobFailedRate|jobExceptionRate|retryAfterSeconds)\b/g, (k) => flags[k]));
  }
}

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Run the self-hosted document extraction and classification service',
  builder: (y) => y.options(serveOptions) as never,
  handler: async (argv) => {
    const logger = createLogger({ level: argv.logLevel, name: 'docdrop-serve' });
    // Loaded here, not at the top: every other docdrop command would otherwise carry the service and its
    // engine (~100 MB of pdf.js, OCR and sharp) in memory.
    const { startService } = await import('../service/index.js');
    if (argv.pdfWorkers !== undefined) {
      const { configureReaders } = await import('../engine/index.js');
      try {
        configureReaders({ pdfWorkers: argv.pdfWorkers });
      } catch (err) {
        throw new Error(`--${(err as Error).message.replace('pdfWorkers', 'pdf-workers')}`);
      }
    }
    const service = await startService(toServiceOptions(argv, logger));
    logger.info({ url: service.url, dataDir: argv.dataDir, accounts: service.context.options.apiKeys.length }, `docdrop serve listening at ${service.url}`);
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        logger.info({ signal }, 'shutting down');
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        service.close().then(resolve, (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exitCode = 1;
          resolve();
        });
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  },
};
