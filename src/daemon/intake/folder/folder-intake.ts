// Intake: reports every stable file in the rules' watched folders to the pipeline, once per content
// version (size+mtime), including files that were there before the start. See intake-rule.ts for one
// folder's life, intake-filter.ts for what is never reported, intake-file-checks.ts for the checks the
// pipeline runs before upload.
import { watch as chokidarWatch } from 'chokidar';
import type { Logger } from '../../../shared/logger.js';
import { every, realScheduler, type Scheduler } from '../../../shared/scheduler.js';
import type { RuleConfig } from '../../config/config.js';
import { NativeFolderWatcher } from './native-watch.js';
import { RuleIntake, type IntakeFile, type WatchFactory } from './rule-watcher.js';

export type { IntakeFile };
export { inspectFile, sha256File, type FileInspection } from '../../inputs/inspect-file.js';

export interface IntakeOptions {
  logger: Logger;
  /** Called once per stable file version. A throw (or rejection) makes intake offer the file again later. */
  onFile: (rule: RuleConfig, file: IntakeFile) => Promise<void> | void;
  /** Managed folders (output/processed/failed/duplicates), the state database: never reported. */
  ignorePaths: readonly string[];
  /** Period of the full rescan that catches what a watcher missed. */
  rescanIntervalMs: number;
  /** How often each watched folder's presence (and device) is checked. Default 2000 ms. */
  folderCheckMs?: number;
  /** Clock and timers of the stability window, presence checks and rescans; a VirtualScheduler in tests. */
  scheduler?: Scheduler;
  /** Native watcher, or chokidar's when polling; replaceable so tests can inject watcher errors (e.g. ENOSPC). */
  watch?: WatchFactory;
}

export interface Intake {
  /** Offer this file again once it is stable, e.g. a PDF whose end is not written yet. */
  requeue(rule: string, path: string): void;
  /** Scan every present folder now (e.g. after `docdrop retry`). */
  rescan(): Promise<void>;
  /**
   * A config reload: starts watching added rules' folders, stops removed ones (waiting for their onFile
   * calls in flight) and restarts a rule whose settings (or the managed folders to skip) changed.
   */
  update(rules: readonly RuleConfig[], opts: Pick<IntakeOptions, 'ignorePaths' | 'rescanIntervalMs'>): Promise<void>;
  /** Stops watchers and timers and waits for onFile calls in flight. */
  stop(): Promise<void>;
}

export async function startIntake(rules: readonly RuleConfig[], opts: IntakeOptions): Promise<Intake> {
  let warnedWatchLimit = false;
  const scheduler = opts.scheduler ?? realScheduler;
  let ignorePaths = opts.ignorePaths;
  const ruleIntake = (rule: RuleConfig) =>
    new RuleIntake(rule, {
      logger: opts.logger,
      onFile: opts.onFile,
      ignorePaths,
      scheduler,
      watch: opts.watch ?? defaultWatch,
      onWatchLimit: (r, err) => {
        const fields = { rule: r.name, folder: r.watch, code: err.code };
        if (warnedWatchLimit) return void opts.logger.debug(fields, 'out of inotify watches: polling');
        warnedWatchLimit = true;
        opts.logger.warn(
          fields,
          'out of inotify watches: falling back to polling (slower, more CPU). Raise the limit, e.g. ' +
            '`sysctl fs.inotify.max_user_watches=524288`, or set watch_mode: poll for this rule',
        );
      },
    });
  const byName = new Map(rules.map((rule) => [rule.name, ruleIntake(rule)]));
  await Promise.all([...byName.values()].map((i) => i.checkPresence()));
  const stopPresence = every(scheduler, opts.folderCheckMs ?? 2000, () => byName.forEach((i) => void i.checkPresence()));
  let stopRescan = every(scheduler, opts.rescanIntervalMs, () => byName.forEach((i) => void i.rescan()));
  let stopping: Promise<void> | null = null;
  return {
    requeue(rule, path) {
      byName.get(rule)?.requeue(path);
    },
    async rescan() {
      await Promise.all([...byName.values()].map((i) => i.rescan()));
    },
    async update(next, nextOpts) {
      if (stopping) return;
      if (nextOpts.rescanIntervalMs !== opts.rescanIntervalMs) {
        stopRescan();
        stopRescan = every(scheduler, nextOpts.rescanIntervalMs, () => byName.forEach((i) => void i.rescan()));
        opts = { ...opts, rescanIntervalMs: nextOpts.rescanIntervalMs };
      }
      const ignoreChanged = !sameJson(ignorePaths, nextOpts.ignorePaths);
      ignorePaths = nextOpts.ignorePaths;
      const wanted = new Map(next.map((r) => [r.name, r]));
      // A restarted watcher scans its folder again; the pipeline knows every file it took already.
      const restart = [...byName].filter(([name, i]) => !wanted.has(name) || ignoreChanged || !sameJson(i.rule, wanted.get(name)));
      await Promise.all(restart.map(([, i]) => i.stop()));
      for (const [name] of restart) byName.delete(name);
      const started = next.filter((r) => !byName.has(r.name)).map(ruleIntake);
      for (const i of started) byName.set(i.rule.name, i);
      await Promise.all(started.map((i) => i.checkPresence()));
    },
    stop() {
      stopping ??= (async () => {
        stopPresence();
        stopRescan();
        await Promise.all([...byName.values()].map((i) => i.stop()));
      })();
      return stopping;
    },
  };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const defaultWatch: WatchFactory = (root, options) => (options.usePolling ? chokidarWatch(root, options) : new NativeFolderWatcher(root));
