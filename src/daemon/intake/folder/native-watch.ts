// The watcher of watch_mode native: one fs.watch (inotify) per folder, each event passed on as a hint for
// the one path it names. chokidar is not used here because it re-reads (readdir + lstat of every entry) the
// whole folder on each event and holds a watch per file: with thousands of files in an inbox that cost grows
// with the square of the folder size. Folders to watch come from intake's scans (addDir), which already
// follow links safely and skip litter and managed folders. Polling (watch_mode poll, or the fallback after
// ENOSPC) stays with chokidar.
import { watch, type FSWatcher } from 'node:fs';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';

export interface FolderWatcher {
  /** 'change': something happened at this path (created, written, renamed, deleted). */
  on(event: 'add' | 'change' | 'unlink' | 'unlinkDir', fn: (path: string) => void): this;
  on(event: 'error', fn: (err: unknown) => void): this;
  close(): Promise<void>;
}

export class NativeFolderWatcher extends EventEmitter implements FolderWatcher {
  private readonly dirs = new Map<string, FSWatcher>();
  private closed = false;

  constructor(readonly root: string) {
    super();
    this.addDir(root);
  }

  /** Starts watching one folder (not its subfolders). A failure (ENOSPC, EMFILE) is emitted as 'error'. */
  addDir(dir: string): void {
    if (this.closed || this.dirs.has(dir)) return;
    let w: FSWatcher;
    try {
      w = watch(dir, { persistent: true }, (_type, name) => {
        // No name: the kernel dropped the detail (queue overflow); only a scan can tell what changed.
        this.emit('change', name ? join(dir, name.toString()) : dir);
      });
    } catch (err) {
      queueMicrotask(() => this.emit('error', err));
      return;
    }
    // The folder itself went away (deleted, unmounted): its watch is dead, forget it.
    w.on('error', (err) => {
      this.removeDir(dir);
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && dir !== this.root) this.emit('error', err);
      if (dir === this.root) this.emit('unlinkDir', dir);
    });
    this.dirs.set(dir, w);
  }

  removeDir(dir: string): void {
    this.dirs.get(dir)?.close();
    this.dirs.delete(dir);
  }

  hasDir(dir: string): boolean {
    return this.dirs.has(dir);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.dirs.values()) w.close();
    this.dirs.clear();
  }
}
