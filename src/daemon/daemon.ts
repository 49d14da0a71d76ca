// Assembles the daemon: service (remote or embedded), one shared request limiter, the client, the rules'
// targets resolved once, the ledger, the pipeline, folder intake and mailbox intake (which drops mail
// attachments into a rule's folder). Start order matters: targets are resolved before any file is taken
// (an unknown Workflow stops the start), and the pipeline resumes the ledger's unfinished inputs before
// intake reports new ones.
import { dirname, join } from 'node:path';
import type { RequestInfo } from '../api/http.js';
import { ServiceClient } from '../api/client.js';
import { createLogger, type Logger } from '../shared/logger.js';
import { redactUrl } from '../shared/redact-url.js';
import type { DaemonConfig } from './config/config.js';
import { createRuleFolders, ensureExampleWorkflow, startEmbeddedService, type EmbeddedService } from './embedded.js';
import { announceEmbeddedService } from './embedded-discovery.js';
import type { Ledger } from './ledger/ledger.js';
import { openLedger, type LedgerStore } from './ledger/open-ledger.js';
import { createOutputsWriter } from './pipeline/outputs-writer.js';
import { Pipeline, type PollingPolicy } from './pipeline/pipeline.js';
import { createDisposition, createFileInspector, createPipelineApi } from './pipeline/adapters.js';
import { incompleteWaitMs } from './inputs/inspect-file.js';
import type { PipelineRule } from './pipeline/ports.js';
import { createRequestLimiter, createStepQueues } from './pipeline/rate-limit.js';
import { resolveTargets, type ResolvedTarget } from './pipeline/resolve-targets.js';
import { startIntake } from './intake/folder/folder-intake.js';
import { findWatchOverlaps } from './intake/folder/overlap.js';
import { startMailIntake } from './intake/mail/imap-intake.js';

export interface DaemonOptions {
  logger?: Logger;
  /** Sees every API request (each retry too): benchmarks count requests per file with it. */
  onRequest?: (info: RequestInfo) => void;
}

export interface RunningDaemon {
  pipeline: Pipeline;
  ledger: Ledger;
  client: ServiceClient;
  /** Base URL of the service in use (the embedded one's loopback URL included). */
  serviceUrl: string;
  /** Stops intake, lets steps in flight finish (their outcome committed), closes ledger and service. */
  stop(): Promise<void>;
}

/** Connects to the configured service (starting the embedded one if asked) with the shared limiter. */
export async function connectService(
  config: DaemonConfig,
  logger: Logger,
  onRequest?: (info: RequestInfo) => void,
): Promise<{ client: ServiceClient; url: string; embedded: EmbeddedService | null }> {
  let embedded: EmbeddedService | null = null;
  let url = config.service.base_url;
  let apiKey = config.service.api_key;
  if (url === 'embedded') {
    embedded = await startEmbeddedService(config, logger);
    url = embedded.url;
    apiKey = embedded.apiKey;
  }
  const client = configuredClient(config, url, apiKey, onRequest);
  if (embedded) {
    try {
      if (await ensureExampleWorkflow(client)) logger.info({ workflow: 'Invoices' }, 'created the example Workflow');
      await createRuleFolders(config);
    } catch (err) {
      await embedded.close();
      throw err;
    }
  }
  return { client, url, embedded };
}

/** A client of the service at `url` with the config's request limit and the daemon's short in-call retries. */
export function configuredClient(config: DaemonConfig, url: string, apiKey: string, onRequest?: (info: RequestInfo) => void): ServiceClient {
  const limiter = createRequestLimiter(config.service.requests_per_second);
  return new ServiceClient({
    baseUrl: url,
    apiKey,
    limiter: (fn) => limiter.add(fn),
    // A couple of quick in-call retries absorb a blip; anything longer is the pipeline's ledger-backed
    // backoff, which survives a restart and frees the upload/poll slot while it waits.
    retry: { retries: 2, minDelayMs: 250, maxDelayMs: 2000, maxRetryAfterMs: 5000 },
    ...(onRequest ? { onRequest } : {}),
  });
}

/** The daemon's pipeline over a config's rules, with the real adapters. `polling` overrides are for tests. */
export function buildPipeline(
  config: DaemonConfig,
  client: ServiceClient,
  ledger: Ledger,
  targets: ReadonlyMap<string, ResolvedTarget>,
  logger: Logger,
  polling?: Partial<PollingPolicy>,
): Pipeline {
  const rules = new Map<string, PipelineRule>(
    config.rules.map((r) => [
      r.name,
      { name: r.name, target: targets.get(r.name)!, duplicates: r.duplicates, afterSuccess: r.after.success, incompleteWaitMs: incompleteWaitMs(r.stable_ms) },
    ]),
  );
  const p = config.service.polling;
  return new Pipeline({
    ledger,
    api: createPipelineApi(client, config.service.submit, new Map(config.rules.map((r) => [r.name, r.options]))),
    outputs: createOutputsWriter(new Map(config.rules.map((r) => [r.name, r.output]))),
    disposition: createDisposition(new Map(config.rules.map((r) => [r.name, r]))),
    files: createFileInspector(),
    rules,
    queues: createStepQueues({ uploadConcurrency: config.service.upload_concurrency, pollConcurrency: config.service.poll_concurrency }),
    polling: {
      initialMs: p.initial_s * 1000,
      maxMs: p.max_s * 1000,
      giveUpAfterMs: p.give_up_after_s * 1000,
      // timed_out jobs: checked again every few minutes, not forgotten.
      slowRecheckMs: Math.max(60_000, p.max_s * 4000),
      ...polling,
    },
    logger,
  });
}

export async function startDaemon(config: DaemonConfig, opts: DaemonOptions = {}): Promise<RunningDaemon> {
  // Before anything starts: two rules taking the same file would process it twice.
  const overlaps = findWatchOverlaps(config.rules, config.ignore_paths);
  if (overlaps.length > 0) throw new Error(`overlapping watched folders:\n${overlaps.map((p) => `  - ${p}`).join('\n')}`);
  const logger = opts.logger ?? createLogger({ level: config.log_level });
  // Requests by kind (ids folded), logged at stop: how many calls each file costs, for operators and bench/.
  const requests = new Map<string, number>();
  const onRequest = (info: RequestInfo) => {
    const key = `${info.method} ${info.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, ':id')}`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
    opts.onRequest?.(info);
  };
  const { client, url, embedded } = await connectService(config, logger, onRequest);
  let ledger: LedgerStore | null = null;
  let unannounce = async () => {};
  try {
    // Where other commands and curl find the embedded service while this daemon runs (see status).
    if (embedded) unannounce = await announceEmbeddedService(config, url);
    const targets = await resolveTargets(
      config.rules.map((r) => ({ name: r.name, workflow: r.workflow, classifier: r.classifier })),
      client,
    );
    ledger = await openLedger(config.state);
    const pipeline = buildPipeline(config, client, ledger, targets, logger);
    pipeline.start();
    const intake = await startIntake(config.rules, {
      ignorePaths: config.ignore_paths,
      rescanIntervalMs: config.rescan_interval_s * 1000,
      logger,
      onFile: async (rule, file) => {
        await pipeline.accept(rule.name, file.path);
      },
    });
    const store = ledger;
    const mail = config.mailboxes.map((mailbox) =>
      startMailIntake({
        mailbox,
        rule: config.rules.find((r) => r.name === mailbox.rule)!,
        ledger: store,
        workDir: join(dirname(config.state.path), 'mail'),
        logger,
      }),
    );
    logger.info(
      { service: embedded ? 'embedded' : redactUrl(url), rules: config.rules.map((r) => r.name), mailboxes: config.mailboxes.map((m) => m.name), state: config.state.path },
      'daemon started',
    );
    let stopping: Promise<void> | undefined;
    return {
      pipeline,
      ledger,
      client,
      serviceUrl: url,
      stop: () =>
        (stopping ??= (async () => {
          await Promise.all(mail.map((m) => m.stop()));
          await intake.stop();
          await pipeline.stop();
          await store.close();
          await unannounce();
          await embedded?.close();
          const total = [...requests.values()].reduce((a, b) => a + b, 0);
          logger.info({ requests: { total, ...Object.fromEntries(requests) } }, 'daemon stopped');
        })()),
    };
  } catch (err) {
    await ledger?.close();
    await unannounce();
    await embedded?.close();
    throw err;
  }
}
