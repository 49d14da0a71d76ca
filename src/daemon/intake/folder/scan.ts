// A full, symlink-safe walk of a watched folder: the truth that watcher events only hint at. Symlinks are
// followed (a link is something a person put there on purpose), each real folder is entered at most once
// per walk (device+inode), so a link loop or two links to one folder cannot hang or double-report. A link
// whose target lies in a managed folder (processed/failed/output) is skipped like the folder itself.
import { opendir, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import type { PathFilter } from './filter.js';

export interface ScanOptions {
  recursive: boolean;
  filter: PathFilter;
  onFile: (path: string, stats: Stats) => void;
  /** Each folder the walk enters, the root first (the native watcher watches them). */
  onDir?: (path: string) => void;
  /** A folder or entry that could not be read (not ENOENT, which is just a race with a delete). */
  onError: (path: string, err: NodeJS.ErrnoException) => void;
  /** Checked between entries so stop() does not wait for a walk of a huge tree. */
  signal?: AbortSignal;
}

export async function scanFolder(root: string, opts: ScanOptions): Promise<void> {
  const seen = new Set<string>();
  const rootStats = await stat(root);
  seen.add(`${rootStats.dev}:${rootStats.ino}`);
  opts.onDir?.(root);
  await walk(root, true, seen, opts);
}

async function walk(dir: string, isRoot: boolean, seen: Set<string>, opts: ScanOptions): Promise<void> {
  let handle;
  try {
    handle = await opendir(dir);
  } catch (err) {
    if (isRoot) throw err;
    report(dir, err, opts);
    return;
  }
  const subdirs: string[] = [];
  for await (const entry of handle) {
    if (opts.signal?.aborted) return;
    const path = join(dir, entry.name);
    if (!entry.isSymbolicLink() && !entry.isDirectory() && !entry.isFile()) continue; // sockets, fifos, devices
    let st: Stats;
    try {
      st = await stat(path);
      if (entry.isSymbolicLink() && opts.filter.isManaged(await realpath(path))) continue;
    } catch (err) {
      report(path, err, opts); // includes broken links (ENOENT: ignored) and ELOOP
      continue;
    }
    if (st.isDirectory()) {
      if (!opts.recursive || !opts.filter.enterDir(path)) continue;
      const key = `${st.dev}:${st.ino}`;
      if (seen.has(key)) continue; // a link loop, or a second way into a folder already walked
      seen.add(key);
      opts.onDir?.(path);
      subdirs.push(path);
    } else if (st.isFile() && opts.filter.acceptFile(path)) {
      opts.onFile(path, st);
    }
  }
  for (const sub of subdirs) await walk(sub, false, seen, opts);
}

function report(path: string, err: unknown, opts: ScanOptions): void {
  const e = err as NodeJS.ErrnoException;
  if (e.code !== 'ENOENT') opts.onError(path, e);
}
