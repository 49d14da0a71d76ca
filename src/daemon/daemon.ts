// Assembles the daemon: service (remote or embedded), one shared request limiter, the client, the config's
// Workflow and Classifier definitions applied, the rules' targets resolved once, the ledger, the pipeline, folder intake and mailbox intake (which drops mail
// attachments into a rule's folder). Start order matters: targets are resolved before any file is taken
// (an unknown Workflow stops the start), and the pipeline resumes the ledger's unfinished inputs before
// intake reports new ones.
import { dirname, join } from 'node:path';
import type { RequestInfo } from '../api/http.js';
import { ServiceClient } from '../api/client.js';
import { createLogger, type Logger } from '../shared/logger.js';
import { redactUrl } from '../shared/redact-url.js';
import type { DaemonConfig } from './config/config.js';
import { createRuleFolders, startEmbeddedService, type EmbeddedService } from './embedded.js';
import { applyConfigDefinitions } from './definitions/config-definitions.js';
import { announceEmbeddedService } from './embedded-discovery.js';
import type { Ledger } from './ledger/ledger.js';
import type { MailOrigins } from './ledger/mail-ledger.js';
import { describeLedger, openLedger, type LedgerStore } from './ledger/open-ledger.js';
import { Pipeline, type PollingPolicy } from './pipeline/pipeline.js';
import { createFileInspector } from './pipeline/adapters.js';
import { defaultInstanceId } from './pipeline/input-claims.js';
import { pipelineSettings } from './pipeline/pipeline-settings.js';
import { createRequestLimiter, createStepQueues } from './pipeline/rate-limit.js';
import { requestLimiters, type RequestLimiterFactory } from './pipeline/shared-rate-limit.js';
import { resolveTargets, type ResolvedTarget } from './pipeline/resolve-targets.js';
import { startIntake } from './intake/folder/folder-intake.js';
import { findWatchOverlaps } from './intake/folder/overlap.js';
import { startMailIntake } from './intake/mail/imap-intake.js';
import { observeTransitions } from './ledger/observed-ledger.js';
import { createNotifier, type Notifier } from './notify/notifier.js';
import { notifySettings } from './notify/settings.js';
import { notifyOnTransition } from './notify/transition-events.js';
import { createDaemonMetrics, noMetrics } from './health/daemon-metrics.js';
import { startDaemonHealth } from './health/daemon-health.js';
import { startMailIntakes } from './intake/mail/mail-intakes.js';
import { Reloader, type ReloadListener, type ReloadOutcome } from './reload/reloader.js';

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
  /** Alerts by e-mail; update(notifySettings(config)) replaces its settings (reload). */
  notifier: Notifier;
  /** Base URL of the health listener (/healthz, /readyz, /metrics); null when `health.listen` is unset. */
  healthUrl: string | null;
  /** The config in use (the last one a reload applied). */
  readonly config: DaemonConfig;
  /** Applies a new config without dropping work in flight, or refuses it (logged) and keeps the running one. */
  reload(next: DaemonConfig): Promise<ReloadOutcome>;
  /** Re-reads a config file and applies it like reload(); a file that does not load is refused. */
  reloadFile(path: string): Promise<ReloadOutcome>;
  /** Called after each applied reload: parts wired outside the daemon (e.g. e-mail alerts) take their new settings. */
  onReload(listener: ReloadListener): void;
  /** Stops intake, lets steps in flight finish (their outcome committed), closes ledger and service. */
  stop(): Promise<void>;
}

/** Connects to the configured service (starting the embedded one if asked) with the shared limiter (`limiters`: this process's own by default). */
export async function connectService(
  config: DaemonConfig,
  logger: Logger,
  onRequest?: (info: RequestInfo) => void,
  limiters?: RequestLimiterFactory,
): Promise<ConfiguredClient & { url: string; apiKey: string; embedded: EmbeddedService | null }> {
  let embedded: EmbeddedService | null = null;
  let url = config.service.base_url;
  let apiKey = config.service.api_key;
  if (url === 'embedded') {
    embedded = await startEmbeddedService(config, logger);
    url = embedded.url;
    apiKey = embedded.apiKey;
  }
  const configured = configuredClient(config, url, apiKey, onRequest, limiters);
  if (embedded) {
    try {
      await createRuleFolders(config);
    } catch (err) {
      await embedded.close();
      throw err;
    }
  }
  return { ...configured, url, apiKey, embedded };
}

export interface ConfiguredClient {
  client: ServiceClient;
  /** The shared request limiter's queue (metrics); a reload may replace the limiter behind it. */
  limiter: { readonly size: number; readonly pending: number };
  /** A reload's new requests_per_second; calls already queued keep the old pace. */
  setRequestsPerSecond(perSecond: number): void;
}

/** A client of the service at `url` with the config's request limit and the daemon's short in-call retries. */
export function configuredClient(
  config: DaemonConfig,
  url: string,
  apiKey: string,
  onRequest?: (info: RequestInfo) => void,
  limiters: RequestLimiterFactory = (n) => createRequestLimiter(n),
): ConfiguredClient {
  let perSecond = config.service.requests_per_second;
  let limiter = limiters(perSecond, { url, apiKey });
  const client = new ServiceClient({
    baseUrl: url,
    apiKey,
    limiter: (fn) => limiter.add(fn),
    // A couple of quick in-call retries absorb a blip; anything longer is the pipeline's ledger-backed
    // backoff, which survives a restart and frees the upload/poll slot while it waits.
    retry: { retries: 2, minDelayMs: 250, maxDelayMs: 2000, maxRetryAfterMs: 5000 },
    ...(onRequest ? { onRequest } : {}),
  });
  return {
    client,
    limiter: {
      get size() {
        return limiter.size;
      },
      get pending() {
        return limiter.pending;
      },
    },
    setRequestsPerSecond(n) {
      if (n !== perSecond) [limiter, perSecond] = [limiters(n, { url, apiKey }), n];
    },
  };
}

/** The daemon's pipeline over a config's rules, with the real adapters. `polling` overrides are for tests; `mailOrigins` (the mail ledger) fills output.include_mail. */
export function buildPipeline(
  config: DaemonConfig,
  client: ServiceClient,
  ledger: Ledger,
  targets: ReadonlyMap<string, ResolvedTarget>,
  logger: Logger,
  polling?: Partial<PollingPolicy>,
  mailOrigins?: MailOrigins,
): Pipeline {
  const { concurrency, ...settings } = pipelineSettings(config.rules, config.service, client, targets, [], mailOrigins);
  return new Pipeline({
    ...settings,
    ...(config.instance.id !== undefined ? { owner: config.instance.id } : {}),
    leaseMs: config.instance.lease_ms,
    ledger,
    files: createFileInspector(),
    queues: createStepQueues({ uploadConcurrency: concurrency!.upload, pollConcurrency: concurrency!.poll }),
    polling: { ...settings.polling, ...polling },
    logger,
  });
}

export async function startDaemon(config: DaemonConfig, opts: DaemonOptions = {}): Promise<RunningDaemon> {
  // Before anything starts: two rules taking the same file would process it twice.
  const overlaps = findWatchOverlaps(config.rules, config.ignore_paths);
  if (overlaps.length > 0) throw new Error(`overlapping watched folders:\n${overlaps.map((p) => `  - ${p}`).join('\n')}`);
  // One owner id for the process's life: every log line and every claim on an input carries it.
  const instance = config.instance.id ?? defaultInstanceId();
  const logger = (opts.logger ?? createLogger({ level: config.log_level })).child({ instance });
  // Requests by kind (ids folded), logged at stop: how many calls each file costs, for operators and bench/.
  const requests = new Map<string, number>();
  const liveMetrics = config.health.listen ? createDaemonMetrics() : null;
  const metrics = liveMetrics ?? noMetrics;
  const onRequest = (info: RequestInfo) => {
    metrics.onRequest(info);
    const key = `${info.method} ${info.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, ':id')}`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
    opts.onRequest?.(info);
  };
  // Opened first: on PostgreSQL it also holds the request rate shared with the other daemons.
  const ledger: LedgerStore = await openLedger(config.state);
  const { client, url, apiKey, embedded, limiter, setRequestsPerSecond } = await connectService(config, logger, onRequest, requestLimiters(ledger)).catch(
    async (err: unknown) => {
      await ledger.close();
      throw err;
    },
  );
  let unannounce = async () => {};
  try {
    // Where other commands and curl find the embedded service while this daemon runs (see status).
    if (embedded) unannounce = await announceEmbeddedService(config, url);
    await applyConfigDefinitions(config, client, logger);
    const targets = await resolveTargets(
      config.rules.map((r) => ({ name: r.name, workflow: r.workflow, classifier: r.classifier })),
      client,
    );
    const notifier = createNotifier({
      settings: notifySettings(config),
      logger,
      serviceUrl: embedded ? `${url} (embedded)` : redactUrl(url),
      ping: () => client.listTemplates({ limit: 1 }),
    });
    // Failures, timeouts and finished inputs reach the notifier through the ledger's committed transitions.
    const observed = observeTransitions(ledger, notifyOnTransition(notifier), (err) => logger.error({ err: String(err) }, 'notify observer failed'));
    const owned = { ...config, instance: { ...config.instance, id: instance } };
    const pipeline = buildPipeline(owned, client, metrics.observe(observed), targets, logger, undefined, ledger);
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
    const mail = startMailIntakes(config, (mailbox, rule) =>
      startMailIntake({
        mailbox,
        rule,
        ledger: store,
        workDir: join(dirname(config.state.path), 'mail'),
        logger,
        onStatus: (s) =>
          notifier.record(
            s.loggedIn
              ? { type: 'mailbox_up', mailbox: mailbox.name }
              : { type: 'mailbox_down', mailbox: mailbox.name, reason: s.reason, authentication: s.authentication },
          ),
      }),
    );
    const reloader = new Reloader(config, targets, { client, pipeline, intake, mail, setRequestsPerSecond, logger, mailOrigins: store });
    reloader.onReload((next) => notifier.update(notifySettings(next)));
    // Its own client: outside the rate limiter's queue (a backlog must not time the probe out), no retries.
    const probe = new ServiceClient({ baseUrl: url, apiKey, retry: false, timeoutMs: 5000 });
    const health =
      liveMetrics && config.health.listen
        ? await startDaemonHealth({
            listen: config.health.listen,
            metrics: liveMetrics,
            ledger: store,
            lastTickAt: () => pipeline.lastTurnAt,
            queues: { ...pipeline.queues, requests: limiter },
            probeService: async () => void (await probe.listTemplates()),
            rules: config.rules,
            mailboxes: config.mailboxes.map((m) => ({ name: m.name, status: () => mail.status(m.name) })),
            logger,
          }).catch(async (err: unknown) => {
            await mail.stop();
            await intake.stop();
            await pipeline.stop();
            throw new Error(`health.listen ${config.health.listen}: ${(err as Error).message}`);
          })
        : null;
    logger.info(
      {
        service: embedded ? 'embedded' : redactUrl(url),
        leaseMs: config.instance.lease_ms,
        rules: config.rules.map((r) => r.name),
        mailboxes: config.mailboxes.map((m) => m.name),
        state: describeLedger(config.state),
      },
      'daemon started',
    );
    let stopping: Promise<void> | undefined;
    return {
      pipeline,
      ledger,
      client,
      serviceUrl: url,
      notifier,
      healthUrl: health?.url ?? null,
      get config() {
        return reloader.config;
      },
      reload: (next) => reloader.reload(next),
      reloadFile: (path) => reloader.reloadFile(path),
      onReload: (listener) => reloader.onReload(listener),
      stop: () =>
        (stopping ??= (async () => {
          await reloader.settled();
          await health?.close();
          await mail.stop();
          await intake.stop();
          await pipeline.stop();
          await notifier.stop();
          await store.close();
          await unannounce();
          await embedded?.close();
          const total = [...requests.values()].reduce((a, b) => a + b, 0);
          logger.info({ requests: { total, ...Object.fromEntries(requests) } }, 'daemon stopped');
        })()),
    };
  } catch (err) {
    await ledger.close();
    await unannounce();
    await embedded?.close();
    throw err;
  }
}
