// Applies a new config to the running daemon (SIGHUP, `systemctl reload`) without dropping work in flight.
// All checks come first and a refused reload changes nothing: a file that does not load or validate, a
// setting that cannot change live (config-changes.ts), overlapping watched folders, or a rule whose
// Workflow or Classifier the service does not know. Then, in this order: the pipeline takes the new rules,
// adapters, polling and limits (so a newly watched folder's files find their rule), folder intake starts,
// stops or restarts watchers, the mailboxes follow, the log level changes, and listeners (e.g. e-mail
// alerts) get the new config. A removed rule's inputs already in the ledger still finish.
import type { ServiceClient } from '../../api/client.js';
import type { Logger } from '../../shared/logger.js';
import { loadConfig, type DaemonConfig, type RuleConfig } from '../config/config.js';
import type { Intake } from '../intake/folder/folder-intake.js';
import { findWatchOverlaps } from '../intake/folder/overlap.js';
import type { MailIntakes } from '../intake/mail/mail-intakes.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import { pipelineSettings } from '../pipeline/pipeline-settings.js';
import { resolveTargets, type ResolvedTarget } from '../pipeline/resolve-targets.js';
import { restartOnlyChanges, ruleChanges } from './config-changes.js';
import type { MailOrigins } from '../ledger/mail-ledger.js';

export type ReloadOutcome =
  | { applied: true; added: string[]; removed: string[]; changed: string[] }
  | { applied: false; problems: string[] };

/** Told after a reload was applied, with the new and the previous config (e.g. to re-read `notify:`). */
export type ReloadListener = (next: DaemonConfig, prev: DaemonConfig) => void | Promise<void>;

export interface ReloadParts {
  client: ServiceClient;
  pipeline: Pick<Pipeline, 'reconfigure'>;
  intake: Pick<Intake, 'update'>;
  mail: Pick<MailIntakes, 'update'>;
  setRequestsPerSecond(perSecond: number): void;
  logger: Logger;
  /** Where dropped mail attachments came from (output.include_mail). */
  mailOrigins?: MailOrigins;
}

export class Reloader {
  /** Every rule configured since the start, by name: a removed one's inputs still finish with its settings. */
  private readonly known = new Map<string, RuleConfig>();
  private readonly targets: Map<string, ResolvedTarget>;
  private readonly listeners: ReloadListener[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private current: DaemonConfig,
    targets: ReadonlyMap<string, ResolvedTarget>,
    private readonly parts: ReloadParts,
  ) {
    for (const r of current.rules) this.known.set(r.name, r);
    this.targets = new Map(targets);
  }

  get config(): DaemonConfig {
    return this.current;
  }

  onReload(listener: ReloadListener): void {
    this.listeners.push(listener);
  }

  /** Loads the file and applies it; a file that does not load is refused like any other reason. One at a time. */
  reloadFile(path: string, env: NodeJS.ProcessEnv = process.env): Promise<ReloadOutcome> {
    return this.serial(async () => {
      let next: DaemonConfig;
      try {
        next = await loadConfig(path, env);
      } catch (err) {
        return this.refuse([(err as Error).message]);
      }
      return this.apply(next);
    });
  }

  /** Applies an already loaded config. One at a time. */
  reload(next: DaemonConfig): Promise<ReloadOutcome> {
    return this.serial(() => this.apply(next));
  }

  /** Resolves once no reload is running (the daemon's stop waits for it, so no watcher starts after it). */
  async settled(): Promise<void> {
    await this.queue;
  }

  private serial(fn: () => Promise<ReloadOutcome>): Promise<ReloadOutcome> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private refuse(problems: string[]): ReloadOutcome {
    this.parts.logger.error({ problems }, `config reload refused; the running config stays in use:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    return { applied: false, problems };
  }

  private async apply(next: DaemonConfig): Promise<ReloadOutcome> {
    const prev = this.current;
    const fixed = restartOnlyChanges(prev, next);
    if (fixed.length > 0) return this.refuse(fixed);
    const overlaps = findWatchOverlaps(next.rules, next.ignore_paths);
    if (overlaps.length > 0) return this.refuse(overlaps.map((o) => `overlapping watched folders: ${o}`));
    const changes = ruleChanges(prev.rules, next.rules);
    let resolved: Map<string, ResolvedTarget>;
    try {
      resolved = changes.toResolve.length > 0 ? await resolveTargets(changes.toResolve, this.parts.client) : new Map();
    } catch (err) {
      return this.refuse([(err as Error).message]);
    }

    for (const [name, t] of resolved) this.targets.set(name, t);
    for (const r of next.rules) this.known.set(r.name, r);
    const names = new Set(next.rules.map((r) => r.name));
    const retired = [...this.known.values()].filter((r) => !names.has(r.name));
    const { logger } = this.parts;
    this.parts.pipeline.reconfigure(pipelineSettings(next.rules, next.service, this.parts.client, this.targets, retired, this.parts.mailOrigins));
    this.parts.setRequestsPerSecond(next.service.requests_per_second);
    await this.parts.intake.update(next.rules, { ignorePaths: next.ignore_paths, rescanIntervalMs: next.rescan_interval_s * 1000 });
    await this.parts.mail.update(next);
    if (next.log_level !== prev.log_level) logger.level = next.log_level;
    this.current = next;
    for (const listener of this.listeners) {
      try {
        await listener(next, prev);
      } catch (err) {
        logger.error({ err: (err as Error).message }, 'a part of the daemon could not take the reloaded config; it keeps its previous settings');
      }
    }
    const { added, removed, changed } = changes;
    logger.info({ added, removed, changed, mailboxes: next.mailboxes.map((m) => m.name) }, 'config reloaded');
    return { applied: true, added, removed, changed };
  }
}
