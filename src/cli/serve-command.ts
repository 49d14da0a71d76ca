// `docdrop serve`: runs the self-hosted service until SIGINT/SIGTERM.
// Options are declared once in src/service/serve-options.ts (SERVE_OPTIONS: type, default, help) and
// mapped to startService's options in `toServiceOptions`.
import { readFileSync } from 'node:fs';
import type { ArgumentsCamelCase, CommandModule, Options } from 'yargs';
import type { ServiceOptions } from '../service/index.js';
import { MIB, SERVE_OPTIONS, SERVE_SECRET_ENV, type ServeArgs as ServeArgsOf, type ServeOptionSpec } from '../service/serve-options.js';
import { createLogger, logFormatFor, parseLogFormat } from '../shared/logger.js';
import { reportingErrors } from './run-command.js';
import { redactUrl } from '../shared/redact-url.js';
import { realScheduler } from '../shared/scheduler.js';
import { openNotifier, watchdogIntervalMs } from '../shared/sd-notify.js';
import { startWatchdog } from '../shared/watchdog.js';
import { parseMsRange, validateFaultOptions, type FaultOptions } from '../service/faults.js';
import { llmConfigSchema, type LlmConfig } from '../engine/llm-engine.js';

/** The yargs options of `docdrop serve`, one per SERVE_OPTIONS entry, with its type, default and help text. */
export const serveOptions: Record<string, Options> = Object.fromEntries(
  Object.entries(SERVE_OPTIONS).map(([flag, o]: [string, ServeOptionSpec]) => [
    flag,
    {
      type: o.type,
      describe: o.describe,
      ...(o.array ? { array: true } : {}),
      ...(o.default !== undefined ? { default: o.default } : {}),
      ...(o.required ? { demandOption: true } : {}),
    },
  ]),
);

type ServeArgs = ArgumentsCamelCase<ServeArgsOf>;

export function apiKeysFrom(flags: string[] | undefined, env: string | undefined): string[] {
  const keys = [...(flags ?? []), ...(env ?? '').split(',')].map((k) => k.trim()).filter(Boolean);
  return [...new Set(keys)];
}

/** The keys of an --api-key-file: one per line; blank lines and lines starting with # are skipped. */
export function apiKeysFromFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`--api-key-file: cannot read ${path}: ${(err as Error).message}`);
  }
  const keys = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (keys.length === 0) throw new Error(`--api-key-file: ${path} holds no key (one per line; blank lines and # comments are ignored)`);
  return keys;
}

export function toServiceOptions(argv: ServeArgs, logger: ServiceOptions['logger']): ServiceOptions {
  const fromFiles = (argv.apiKeyFile ?? []).flatMap(apiKeysFromFile);
  const apiKeys = apiKeysFrom([...(argv.apiKey ?? []), ...fromFiles], process.env[SERVE_OPTIONS['api-key'].env]);
  if (apiKeys.length === 0) throw new Error('--api-key: expected at least one key (or --api-key-file, or DOCDROP_API_KEYS), received none');
  return {
    host: argv.host,
    port: argv.port,
    dataDir: argv.dataDir,
    database: argv.database,
    filesDir: argv.files,
    apiKeys,
    publicUrl: argv.publicUrl,
    presignTtlSeconds: argv.presignTtl,
    maxUploadBytes: Math.round(argv.maxUploadMb * MIB),
    fetchAllowRanges: argv.fetchAllowRange,
    headersTimeoutMs: argv.headersTimeoutS * 1000,
    idleTimeoutMs: argv.idleTimeoutS * 1000,
    bodyTimeoutMs: argv.bodyTimeoutS * 1000,
    maxConnectionsPerIp: argv.maxConnectionsPerIp,
    inboundDomain: argv.inboundDomain,
    logger,
    jobConcurrency: argv.jobConcurrency,
    role: argv.role as ServiceOptions['role'],
    jobTimeoutSeconds: argv.jobTimeout,
    smtpPort: argv.smtpPort,
    smtpHost: argv.smtpHost,
    mailSmtp: argv.mailSmtpHost
      ? {
          host: argv.mailSmtpHost,
          port: argv.mailSmtpPort,
          secure: argv.mailSmtpSecure,
          user: argv.mailSmtpUser,
          pass: process.env[SERVE_SECRET_ENV.mailSmtpPass],
          from: argv.mailFrom,
        }
      : undefined,
    accountEmail: argv.accountEmail,
    llm: llmOptionsFrom(argv, process.env[SERVE_SECRET_ENV.llmApiKey]),
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

/** A failed listen in words a person can act on (the address is in the error: SMTP has its own port). */
function listenError(err: NodeJS.ErrnoException & { address?: string; port?: number }): Error {
  const at = err.address === undefined ? 'the address' : err.port ? `${err.address}:${err.port}` : err.address;
  if (err.code === 'EADDRINUSE') return new Error(`${at} is already in use: stop the process listening there or choose another port`);
  if (err.code === 'EACCES') return new Error(`not allowed to listen on ${at} (ports below 1024 need privileges): choose another port`);
  if (err.code === 'EADDRNOTAVAIL') return new Error(`cannot listen on ${at}: no local interface has that address (check --host)`);
  return err;
}

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Run the self-hosted document extraction and classification service',
  builder: (y) => y.options(serveOptions) as never,
  // A bad option or a busy port is one line on stderr and exit 1, not the help text and a stack trace.
  handler: reportingErrors('serve', async (argv: ServeArgs) => {
    const logger = createLogger({ level: argv.logLevel, name: 'docdrop-serve', format: logFormatFor(parseLogFormat(argv.logFormat)) });
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
    const service = await startService(toServiceOptions(argv, logger)).catch((err: NodeJS.ErrnoException) => {
      throw listenError(err);
    });
    logger.info({ url: redactUrl(service.url), dataDir: argv.dataDir, store: service.context.db.engine, files: service.context.files.root, accounts: service.context.options.apiKeys.length }, `docdrop serve listening at ${redactUrl(service.url)}`);
    // Under systemd (Type=notify): ready once listening; the watchdog proves the event loop turns.
    const notifier = openNotifier(logger);
    notifier.send({ READY: 1, STATUS: `listening at ${redactUrl(service.url)}` });
    const watchdogMs = watchdogIntervalMs();
    const stopWatchdog =
      notifier.enabled && watchdogMs !== null
        ? startWatchdog({ scheduler: realScheduler, intervalMs: watchdogMs, keepAlive: () => notifier.send({ WATCHDOG: 1 }), logger })
        : () => undefined;
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        logger.info({ signal }, 'shutting down');
        stopWatchdog();
        notifier.send({ STOPPING: 1 });
        notifier.close();
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
  }),
};
