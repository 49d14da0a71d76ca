// Intake of one rule's watched folder: a watcher for prompt hints (intake-native-watch.ts, or chokidar when
// polling), full scans for truth (at
// start, periodically, and whenever the folder reappears), and the stability tracker deciding when a file
// is taken. The folder may be missing at start or vanish later (an unmounted share): each transition is
// logged once and the folder is picked up again when it returns.
import { lstat, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { ChokidarOptions } from 'chokidar';
import type { Logger } from '../../../shared/logger.js';
import type { Scheduler } from '../../../shared/scheduler.js';
import type { RuleConfig } from '../../config/config.js';
import { createPathFilter, type PathFilter } from './filter.js';
import { NativeFolderWatcher, type FolderWatcher } from './native-watch.js';
import { scanFolder } from './scan.js';
import { StabilityTracker } from './stability.js';

export interface IntakeFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** Starts a watcher on one folder: chokidar's `watch` fits; the default picks NativeFolderWatcher unless polling. */
export type WatchFactory = (root: string, options: ChokidarOptions) => FolderWatcher;

export interface RuleIntakeOptions {
  logger: Logger;
  onFile: (rule: RuleConfig, file: IntakeFile) => Promise<void> | void;
  ignorePaths: readonly string[];
  scheduler: Scheduler;
  watch: WatchFactory;
  /** Called once when the first watcher of the process runs out of inotify watches. */
  onWatchLimit: (rule: RuleConfig, err: NodeJS.ErrnoException) => void;
}

type Presence = 'unknown' | 'present' | 'missing';

const signature = (st: { size: number; mtimeMs: number }) => `${st.size}:${st.mtimeMs}`;
const WATCH_LIMIT_CODES = new Set(['ENOSPC', 'EMFILE']);

export class RuleIntake {
  private readonly root: string;
  private readonly filter: PathFilter;
  private readonly tracker: StabilityTracker;
  /** Files handed to onFile, by path, with the size:mtime they had; not reported again unless changed. */
  private readonly reported = new Map<string, string>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly scanAbort = new AbortController();
  private presence: Presence = 'unknown';
  private rootId: string | null = null;
  private polling: boolean;
  private watcher: FolderWatcher | null = null;
  /** Paths whose hint is being checked; true when another event came meanwhile (check once more). */
  private readonly hinting = new Map<string, boolean>();
  private scanning: Promise<void> | null = null;
  private rescanAgain = false;
  private readonly loggedErrors = new Set<string>();
  private stopped = false;

  constructor(
    readonly rule: RuleConfig,
    private readonly opts: RuleIntakeOptions,
  ) {
    this.root = rule.watch;
    this.polling = rule.watch_mode === 'poll';
    this.filter = createPathFilter(this.root, rule, opts.ignorePaths);
    this.tracker = new StabilityTracker({
      stableMs: rule.stable_ms,
      scheduler: opts.scheduler,
      onStable: (path, st) => this.stable(path, st),
    });
  }

  /** Checks whether the folder is there (and is the same mount); starts or stops watching on a change. */
  async checkPresence(): Promise<void> {
    if (this.stopped) return;
    let st: Stats | null = null;
    try {
      st = await stat(this.root);
      if (!st.isDirectory()) st = null;
    } catch {
      st = null;
    }
    if (this.stopped) return;
    const log = this.opts.logger;
    if (!st) {
      if (this.presence === 'missing') return;
      const first = this.presence === 'unknown';
      this.presence = 'missing';
      this.rootId = null;
      await this.closeWatcher();
      this.reported.clear();
      log.warn(
        { rule: this.rule.name, folder: this.root },
        first ? 'watched folder does not exist yet; waiting for it to appear' : 'watched folder vanished; waiting for it to come back',
      );
      return;
    }
    // A share mounted over the folder (or unmounted from it) keeps the path but changes the device; a folder
    // deleted and re-created between two checks changes the inode. Either way the old watch is dead.
    const id = `${st.dev}:${st.ino}`;
    const remounted = this.presence === 'present' && this.rootId !== id;
    if (this.presence === 'present' && !remounted) return;
    const wasMissing = this.presence === 'missing';
    this.presence = 'present';
    this.rootId = id;
    if (remounted) {
      log.warn({ rule: this.rule.name, folder: this.root }, 'watched folder changed device (mounted or unmounted); watching it afresh');
      await this.closeWatcher();
      this.reported.clear();
    } else if (wasMissing) {
      log.info({ rule: this.rule.name, folder: this.root }, 'watched folder appeared; watching it');
    }
    this.startWatcher();
    await this.rescan();
  }

  /** Walks the whole folder and asks the stability tracker about every file not yet reported as it is. */
  rescan(): Promise<void> {
    if (this.stopped || this.presence !== 'present') return Promise.resolve();
    if (this.scanning) {
      this.rescanAgain = true; // something asked while a walk ran: walk once more after it
      return this.scanning;
    }
    this.scanning = this.scanOnce().finally(() => {
      this.scanning = null;
      if (this.rescanAgain && !this.stopped) {
        this.rescanAgain = false;
        void this.rescan();
      }
    });
    return this.scanning;
  }

  requeue(path: string): void {
    this.reported.delete(path);
    this.tracker.touch(path);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.scanAbort.abort();
    this.tracker.stop();
    await this.closeWatcher();
    await this.scanning?.catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
  }

  private async scanOnce(): Promise<void> {
    const seen = new Set<string>();
    try {
      await scanFolder(this.root, {
        recursive: this.rule.recursive,
        filter: this.filter,
        signal: this.scanAbort.signal,
        onDir: (dir) => this.nativeWatcher()?.addDir(dir),
        onFile: (path, st) => {
          seen.add(path);
          if (this.reported.get(path) !== signature(st)) this.tracker.touch(path);
        },
        onError: (path, err) => this.logOnce(`scan:${path}:${err.code}`, { path, code: err.code }, 'cannot read a path in the watched folder; skipping it'),
      });
    } catch {
      await this.checkPresence(); // the root itself failed: it vanished
      return;
    }
    if (this.scanAbort.signal.aborted) return;
    // Files gone since the last scan (moved away by disposition, deleted) need no memory.
    for (const path of this.reported.keys()) if (!seen.has(path)) this.reported.delete(path);
  }

  private stable(path: string, st: Stats): void {
    const sig = signature(st);
    if (this.stopped || this.reported.get(path) === sig || !this.filter.acceptFile(path)) return;
    this.reported.set(path, sig);
    const file = { path, size: st.size, mtimeMs: st.mtimeMs };
    const p = (async () => {
      try {
        await this.opts.onFile(this.rule, file);
      } catch (err) {
        // Forget it, so the next change or rescan offers it again.
        this.reported.delete(path);
        this.opts.logger.warn({ rule: this.rule.name, path, err: (err as Error).message }, 'intake: handling a stable file failed; it will be offered again');
      }
    })();
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /** The native watcher, which needs to be told the subfolders the scans find; null when chokidar watches. */
  private nativeWatcher(): NativeFolderWatcher | null {
    return this.watcher instanceof NativeFolderWatcher ? this.watcher : null;
  }

  private startWatcher(): void {
    if (this.watcher || this.stopped) return;
    const interval = this.rule.poll_interval_ms;
    const w = this.opts.watch(this.root, {
      ignoreInitial: true, // the scan that follows reports what is already there
      followSymlinks: false, // chokidar does not survive link loops; the scan follows links safely
      depth: this.rule.recursive ? undefined : 0,
      usePolling: this.polling,
      interval,
      binaryInterval: interval,
      ignored: (path: string, stats?: Stats) =>
        path !== this.root && (stats?.isFile() ? !this.filter.acceptFile(path) : !this.filter.enterDir(path)),
    });
    w.on('add', (path) => this.hint(path));
    w.on('change', (path) => this.hint(path));
    w.on('unlink', (path) => this.forget(path));
    w.on('unlinkDir', (path) => {
      if (path === this.root) void this.checkPresence();
    });
    w.on('error', (err) => void this.watchError(err as NodeJS.ErrnoException));
    this.watcher = w;
  }

  /**
   * An event is only a hint: a file is checked for stability, a new folder is scanned (and so watched), a
   * path that is gone is forgotten. Events for one path while its check runs are folded into one more check.
   */
  private hint(path: string): void {
    if (this.stopped) return;
    if (path === this.root) return void this.rescan(); // an event without a name: look at everything
    if (this.hinting.has(path)) return void this.hinting.set(path, true);
    this.hinting.set(path, false);
    void followLink(path, (real) => this.filter.isManaged(real))
      .then(
        (st) => {
          if (!st) return; // a link into a managed folder
          if (st.isFile() && this.filter.acceptFile(path)) this.tracker.touch(path);
          else if (st.isDirectory() && this.rule.recursive && this.filter.enterDir(path)) void this.rescan();
        },
        () => this.forget(path), // gone (moved out, deleted)
      )
      .finally(() => {
        const again = this.hinting.get(path);
        this.hinting.delete(path);
        if (again) this.hint(path);
      });
  }

  private forget(path: string): void {
    this.reported.delete(path);
    this.tracker.forget(path);
    this.nativeWatcher()?.removeDir(path);
  }

  private async watchError(err: NodeJS.ErrnoException): Promise<void> {
    if (this.stopped) return;
    if (err.code && WATCH_LIMIT_CODES.has(err.code) && !this.polling) {
      this.opts.onWatchLimit(this.rule, err);
      this.polling = true;
      await this.closeWatcher();
      this.startWatcher();
      await this.rescan();
      return;
    }
    this.logOnce(`watch:${err.code ?? err.message}`, { code: err.code, err: err.message }, 'folder watcher error; relying on rescans');
    await this.checkPresence();
  }

  private async closeWatcher(): Promise<void> {
    const w = this.watcher;
    this.watcher = null;
    await w?.close();
  }

  private logOnce(key: string, fields: Record<string, unknown>, msg: string): void {
    if (this.loggedErrors.has(key)) return;
    this.loggedErrors.add(key);
    this.opts.logger.warn({ rule: this.rule.name, ...fields }, msg);
  }
}

/**
 * What `path` is, following a symlink; null for a link into a managed folder. lstat first: realpath
 * costs a readlink per path segment, paid on every event of every plain file otherwise. The folders
 * the event came from were checked when they were scanned.
 */
async function followLink(path: string, isManaged: (real: string) => boolean): Promise<Stats | null> {
  const st = await lstat(path);
  if (!st.isSymbolicLink()) return st;
  const [target, real] = await Promise.all([stat(path), realpath(path)]);
  return isManaged(real) ? null : target;
}
