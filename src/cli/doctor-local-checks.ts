// `docdrop doctor`, the checks of this machine: folders and permissions, the ledger, inotify limits and
// free disk. They only look: nothing is created (a missing folder the daemon would create is a pass when
// its nearest existing parent is writable).
import { constants } from 'node:fs';
import { access, readdir, readFile, stat, statfs } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import type { DaemonConfig } from '../daemon/config/config.js';
import { describeLedger } from '../daemon/ledger/open-ledger.js';
import { pgLedgerVersion } from '../daemon/ledger/pg-migrations.js';

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'info';

export interface Check {
  status: CheckStatus;
  name: string;
  detail: string;
}

const check = (status: CheckStatus, name: string, detail: string): Check => ({ status, name, detail });

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function can(path: string, mode: number): Promise<boolean> {
  return access(path, mode).then(
    () => true,
    () => false,
  );
}

/** The closest folder at or above `path` that exists. */
async function nearestExisting(path: string): Promise<string> {
  let p = path;
  while (!(await exists(p)) && dirname(p) !== p) p = dirname(p);
  return p;
}

/** A folder the daemon writes into: writable if it exists, else creatable below its nearest existing parent. */
async function writableFolder(path: string): Promise<{ ok: boolean; why: string }> {
  const st = await stat(path).catch(() => null);
  if (st) {
    if (!st.isDirectory()) return { ok: false, why: `${path} is not a folder` };
    return (await can(path, constants.W_OK | constants.X_OK)) ? { ok: true, why: `${path} is writable` } : { ok: false, why: `${path} is not writable by this user` };
  }
  const parent = await nearestExisting(path);
  return (await can(parent, constants.W_OK | constants.X_OK))
    ? { ok: true, why: `${path} will be created (in ${parent})` }
    : { ok: false, why: `${path} is missing and ${parent} is not writable by this user` };
}

function stateFolder(config: DaemonConfig): string {
  return dirname(config.state.path) + sep;
}

export async function folderChecks(config: DaemonConfig): Promise<Check[]> {
  const out: Check[] = [];
  const embedded = config.service.base_url === 'embedded';
  for (const rule of config.rules) {
    const name = `rule ${rule.name}: watch folder`;
    const st = await stat(rule.watch).catch(() => null);
    if (!st) {
      // With embedded, `docdrop run` creates inboxes inside its state folder (embedded.ts createRuleFolders).
      if (embedded && rule.watch.startsWith(stateFolder(config))) out.push(check('pass', name, `${rule.watch} will be created at start (inside the state folder)`));
      else out.push(check('fail', name, `${rule.watch} does not exist (the daemon would wait for it: a typo or an unmounted share?)`));
    } else if (!st.isDirectory()) out.push(check('fail', name, `${rule.watch} is not a folder`));
    else if (!(await can(rule.watch, constants.R_OK | constants.X_OK))) out.push(check('fail', name, `${rule.watch} is not readable by this user`));
    else if (!(await can(rule.watch, constants.W_OK))) {
      // Failed inputs always move out to failed_dir; with after.success: keep, only those are stuck.
      const status = rule.after.success === 'keep' ? 'warn' : 'fail';
      out.push(check(status, name, `${rule.watch} is readable but not writable: inputs cannot be moved out of it (after.success: ${rule.after.success}; failed inputs too)`));
    } else out.push(check('pass', name, `${rule.watch} is readable`));

    const managed = await Promise.all(rule.managed_dirs.map(writableFolder));
    const bad = managed.filter((m) => !m.ok);
    if (bad.length > 0) for (const b of bad) out.push(check('fail', `rule ${rule.name}: managed folder`, b.why));
    else out.push(check('pass', `rule ${rule.name}: managed folders`, `${managed.length} folders writable or creatable (outputs, processed, failed, duplicates)`));
  }
  return out;
}

export async function stateChecks(config: DaemonConfig): Promise<Check[]> {
  const db = config.state.path;
  const out: Check[] = [];
  if (config.state.url !== undefined) {
    const where = describeLedger(config.state);
    // Read only: doctor does not migrate; the daemon does at start.
    const v = await pgLedgerVersion(config.state.url).catch((err: unknown) => (err as Error).message);
    if (typeof v === 'string') out.push(check('fail', 'state database', `${where}: ${v}`));
    else if (v.current > v.latest) out.push(check('fail', 'state database', `${where} is at schema version ${v.current}, newer than this docdrop (${v.latest}); upgrade docdrop`));
    else out.push(check('pass', 'state database', `${where} answers (schema version ${v.current} of ${v.latest}; the daemon migrates it at start)`));
  } else if (await exists(db)) {
    // SQLite in WAL mode writes the -wal and -shm files beside the database: the folder must be writable too.
    const ok = (await can(db, constants.R_OK | constants.W_OK)) && (await can(dirname(db), constants.W_OK | constants.X_OK));
    out.push(check(ok ? 'pass' : 'fail', 'state database', ok ? `${db} is writable` : `${db} or its folder is not writable by this user`));
  } else {
    const f = await writableFolder(dirname(db));
    out.push(check(f.ok ? 'pass' : 'fail', 'state database', f.ok ? `${db} will be created` : f.why));
  }
  if (config.service.base_url === 'embedded') {
    const f = await writableFolder(config.service.embedded.data_dir);
    out.push(check(f.ok ? 'pass' : 'fail', 'embedded service data', f.why));
  }
  return out;
}

/** Folders below `root` (itself included) that a recursive native watch puts an inotify watch on. */
async function countFolders(root: string, recursive: boolean, cap: number): Promise<number> {
  let n = 0;
  const stack = [root];
  while (stack.length > 0 && n < cap) {
    const dir = stack.pop()!;
    n++;
    if (!recursive) continue;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) if (e.isDirectory()) stack.push(join(dir, e.name));
  }
  return n;
}

async function readLimit(path: string): Promise<number | null> {
  const n = Number((await readFile(path, 'utf8').catch(() => '')).trim());
  return Number.isFinite(n) && n > 0 ? n : null;
}

export async function inotifyChecks(config: DaemonConfig, procDir = '/proc/sys/fs/inotify'): Promise<Check[]> {
  const native = config.rules.filter((r) => r.watch_mode === 'native');
  if (native.length === 0) return [check('pass', 'inotify', 'no rule watches natively (watch_mode: poll)')];
  const watches = await readLimit(join(procDir, 'max_user_watches'));
  const instances = await readLimit(join(procDir, 'max_user_instances'));
  if (watches === null) return [check('warn', 'inotify', `cannot read ${procDir}/max_user_watches (not Linux?)`)];
  let folders = 0;
  for (const r of native) if (await exists(r.watch)) folders += await countFolders(r.watch, r.recursive, watches + 1);
  const limits = `max_user_watches ${watches}, max_user_instances ${instances ?? '?'}; ${folders} folders watched natively`;
  // The limit is per user, shared with every other program of that user (editors, sync clients).
  if (folders > watches) return [check('fail', 'inotify', `${limits}: too few watches (the daemon falls back to polling); raise fs.inotify.max_user_watches`)];
  if (folders > watches / 2) return [check('warn', 'inotify', `${limits}: more than half the per-user watches; consider raising fs.inotify.max_user_watches`)];
  if (instances !== null && instances < 2) return [check('warn', 'inotify', `${limits}: a single inotify instance per user leaves none for other programs`)];
  return [check('pass', 'inotify', limits)];
}

/** Free space on each file system the daemon writes to (watch, managed, state and service folders). */
export async function diskChecks(config: DaemonConfig, minFreeMb: number): Promise<Check[]> {
  const folders = [
    ...config.rules.flatMap((r) => [r.watch, ...r.managed_dirs]),
    dirname(config.state.path),
    ...(config.service.base_url === 'embedded' ? [config.service.embedded.data_dir] : []),
  ];
  const byDevice = new Map<number, { path: string; folders: string[] }>();
  for (const f of folders) {
    const at = await nearestExisting(f);
    const dev = (await stat(at)).dev;
    const entry = byDevice.get(dev) ?? { path: at, folders: [] };
    entry.folders.push(f);
    byDevice.set(dev, entry);
  }
  const out: Check[] = [];
  for (const { path, folders: on } of byDevice.values()) {
    const s = await statfs(path);
    const freeMb = Math.floor((s.bavail * s.bsize) / 1024 / 1024);
    const share = s.blocks > 0 ? Math.round((100 * s.bavail) / s.blocks) : 0;
    const detail = `${freeMb} MB free (${share}%) on the file system of ${path} (${on.length} folder${on.length === 1 ? '' : 's'}); threshold ${minFreeMb} MB`;
    out.push(check(freeMb < minFreeMb ? 'fail' : freeMb < 2 * minFreeMb ? 'warn' : 'pass', 'free disk', detail));
  }
  return out;
}
