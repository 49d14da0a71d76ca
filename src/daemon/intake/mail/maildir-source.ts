// A local Maildir as the mail intake sees it. Delivery writes a message into tmp/ and renames it into
// new/, so a file in new/ or cur/ is always whole; tmp/ is never read or touched. A message is known by
// its name, the file's base name before the ":2," info whose letters are its flags (S: seen); the name
// stays the same while flags change or the file moves from new/ to cur/, so it is the ledger's key.
// After-actions: seen → cur/<name>:2,<flags with S>; move → the Maildir++ folder .<move_to>/cur/;
// delete → unlink. Each is one rename or unlink: repeatable, and a message already gone is done.
// The filter reads only a message's header section, and takes its delivery time from the file's mtime
// (what dovecot reports as INTERNALDATE for Maildir); a message the filter skips is not renamed at all.
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readFile, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { MaildirMailboxConfig } from '../../config/config.js';
import type { MaildirKey } from '../../ledger/mail-ledger.js';
import type { Connection } from './check-loop.js';
import type { MailHeaders } from './mail-filter.js';
import type { MessageSource } from './message-handler.js';

const INFO = ':2,';

export interface MaildirEntry {
  /** The unique name (before ":2,"). */
  name: string;
  /** The flag letters after ":2," ("" in new/). */
  flags: string;
  path: string;
}

/** An opened Maildir: its new/ and cur/ watched; unusable once a watch broke (the check loop opens it again). */
export interface OpenMaildir extends Connection {
  close(): Promise<void>;
}

/**
 * Checks new/ and cur/ exist, then watches both: any change there calls `onChange` (a hint to check
 * again; the poll catches what a watch misses). Plain fs.watch, not chokidar: chokidar re-reads the whole
 * folder on each event, and cur/ holds every message ever read.
 */
export async function openMaildir(dir: string, onChange: () => void, signal: AbortSignal): Promise<OpenMaildir> {
  await checkMaildir(dir);
  signal.throwIfAborted();
  const conn = { usable: true, close: async () => watchers.forEach((w) => w.close()) };
  const broken = () => {
    conn.usable = false;
    onChange(); // wakes the loop, which then sees it unusable and opens the Maildir again
  };
  const watchers: FSWatcher[] = [];
  try {
    for (const sub of ['new', 'cur']) watchers.push(watch(join(dir, sub), { persistent: true }, onChange).on('error', broken));
  } catch (err) {
    await conn.close();
    throw err;
  }
  return conn;
}

/** Throws unless `dir` has new/ and cur/ (also `docdrop doctor`). */
export async function checkMaildir(dir: string): Promise<void> {
  for (const sub of ['new', 'cur']) {
    const s = await stat(join(dir, sub)).catch(() => undefined);
    if (!s?.isDirectory()) throw new Error(`no Maildir at ${dir}: ${sub}/ is missing (the MTA or fetchmail creates it with the first delivery)`);
  }
}

/** What to take: every message in new/ and the ones in cur/ without the S flag, in name (delivery) order. */
export async function listUnseen(dir: string): Promise<MaildirEntry[]> {
  const entries = [...(await entriesIn(dir, 'new')), ...(await entriesIn(dir, 'cur')).filter((e) => !e.flags.includes('S'))];
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function entriesIn(dir: string, sub: 'new' | 'cur'): Promise<MaildirEntry[]> {
  const files = await readdir(join(dir, sub), { withFileTypes: true });
  return files.filter((f) => f.isFile() && !f.name.startsWith('.')).map((f) => ({ ...parseName(f.name), path: join(dir, sub, f.name) }));
}

function parseName(file: string): { name: string; flags: string } {
  const i = file.indexOf(INFO);
  return i < 0 ? { name: file, flags: '' } : { name: file.slice(0, i), flags: file.slice(i + INFO.length) };
}

/** The message now (a mail client may have moved it from new/ to cur/ or changed its flags), or undefined once gone. */
async function locate(dir: string, name: string): Promise<MaildirEntry | undefined> {
  for (const sub of ['new', 'cur'] as const) {
    const found = (await entriesIn(dir, sub)).find((e) => e.name === name);
    if (found) return found;
  }
  return undefined;
}

/** Runs `fn` on the entry; if its file moved meanwhile, once more where it is now; nothing if it is gone. */
async function atCurrentPath<T>(dir: string, entry: MaildirEntry, fn: (e: MaildirEntry) => Promise<T>): Promise<T | undefined> {
  try {
    return await fn(entry);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const now = await locate(dir, entry.name);
    return now ? fn(now) : undefined;
  }
}

export function maildirMessage(mb: MaildirMailboxConfig, entry: MaildirEntry): MessageSource {
  return {
    headers: () => atCurrentPath(mb.maildir, entry, readHeaders),
    fetch: () => atCurrentPath(mb.maildir, entry, (e) => readFile(e.path)),
    finish: async () => {
      await atCurrentPath(mb.maildir, entry, (e) => applyAfterAction(mb, e));
    },
  };
}

/** Sender address and subject from the header section alone; delivered when the file was last written. */
async function readHeaders(e: MaildirEntry): Promise<MailHeaders> {
  const [raw, s] = await Promise.all([readFile(e.path), stat(e.path)]);
  const blank = /\r?\n\r?\n/.exec(raw.toString('latin1'));
  const head = await simpleParser(blank ? raw.subarray(0, blank.index + blank[0].length) : raw, { skipHtmlToText: true, skipTextToHtml: true });
  return { from: head.from?.value[0]?.address ?? null, subject: head.subject ?? '', receivedAt: s.mtime };
}

async function applyAfterAction(mb: MaildirMailboxConfig, e: MaildirEntry): Promise<void> {
  if (mb.after === 'delete') return unlink(e.path);
  if (mb.after === 'seen') {
    if (e.flags.includes('S') && e.path.startsWith(join(mb.maildir, 'cur'))) return;
    return rename(e.path, join(mb.maildir, 'cur', `${e.name}${INFO}${withFlag(e.flags, 'S')}`));
  }
  const folder = await maildirFolder(mb.maildir, mb.move_to!);
  return rename(e.path, join(folder, 'cur', `${e.name}${INFO}${e.flags}`));
}

/** Flags are kept in ASCII order, each once (the Maildir convention). */
function withFlag(flags: string, flag: string): string {
  return [...new Set([...flags, flag])].sort().join('');
}

/** The Maildir++ folder .<name> with its new/ cur/ tmp/ and the maildirfolder marker, created when missing. */
async function maildirFolder(dir: string, name: string): Promise<string> {
  const folder = join(dir, `.${name}`);
  for (const sub of ['new', 'cur', 'tmp']) await mkdir(join(folder, sub), { recursive: true });
  await writeFile(join(folder, 'maildirfolder'), '', { flag: 'a' });
  return folder;
}

export const maildirKey = (mb: MaildirMailboxConfig, e: MaildirEntry): MaildirKey => ({ mailbox: mb.name, name: e.name });
