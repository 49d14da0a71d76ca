// What happens to an input file at the end: moved to processed/failed/duplicates folders (never over an
// existing name: "scan (1).pdf"), deleted, or kept. Every operation may be repeated after a crash: if the
// ledger did not get to record the result, the rerun finds the file already at its destination (same
// size and sha256 under the name or one of its " (n)" variants) and returns that path instead of moving
// or copying anything again.
// Two things are never touched: a file reached through a symlink below the watched folder (it may lie
// outside every configured folder: it is read in place and left there), and a file replaced under the
// input's name since it was taken (other bytes are another input: size and sha256 are checked again).
import { lstat, stat, unlink } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { atomicWriteFile } from '../../shared/atomic-write.js';
import type { DocdropCode } from '../../shared/errors.js';
import { specTimestamp } from '../../shared/time.js';
import { expandPlaceholders, moveFileUnique, numberedName, sanitiseFileName } from '../../shared/safe-paths.js';
import type { RuleConfig } from '../config/config.js';
import { sha256File } from './inspect-file.js';
import type { InputRecord } from '../ledger/ledger.js';

export type DispositionRule = Pick<RuleConfig, 'name' | 'watch' | 'after'>;
export type DispositionInput = Pick<InputRecord, 'path' | 'size' | 'sha256'> & Partial<Pick<InputRecord, 'id' | 'createdAt' | 'mtimeMs'>>;

export interface FailureReason {
  message: string;
  /** docdrop's code (docs/errors.md), e.g. 'unsupported_file_type', 'job_failed', 'api_error'; written as `kind`. */
  reason?: DocdropCode;
  status?: number | string | null;
  code?: string | null;
  user_error_msg?: string | null;
  request_id?: string | null;
  document_id?: string | null;
}

/**
 * Moves a processed input to after.processed_dir ({rule}, {date} = `when`). Returns its new path, its own
 * path when it is left in place (reached through a symlink), or null if it is gone (or replaced).
 */
export async function moveToProcessed(rule: DispositionRule, input: DispositionInput, when: Date): Promise<string | null> {
  if (await reachedThroughLink(rule, input.path)) return input.path;
  return moveOnce(input, folder(rule.after.processed_dir, rule, when));
}

/** Moves a failed input to after.failed_dir and writes `<name>.error.json` beside it. */
export async function moveToFailed(
  rule: DispositionRule,
  input: DispositionInput,
  reason: FailureReason,
  when: Date = new Date(),
): Promise<string | null> {
  if (await reachedThroughLink(rule, input.path)) return input.path; // the ledger keeps the reason
  return moveWithNote(input, folder(rule.after.failed_dir, rule, when), '.error.json', {
    file: path.basename(input.path),
    original_path: input.path,
    rule: rule.name,
    reason: reason.message,
    kind: reason.reason ?? null,
    status: reason.status ?? null,
    code: reason.code ?? null,
    user_error_msg: reason.user_error_msg ?? null,
    request_id: reason.request_id ?? null,
    document_id: reason.document_id ?? null,
    input_id: input.id ?? null,
    sha256: input.sha256,
    time: specTimestamp(when),
  });
}

/** Moves a skipped duplicate to after.duplicates_dir with `<name>.duplicate.json` naming the input it repeats. */
export async function moveDuplicate(
  rule: DispositionRule,
  input: DispositionInput,
  original: InputRecord,
  when: Date = new Date(),
): Promise<string | null> {
  if (await reachedThroughLink(rule, input.path)) return input.path;
  return moveWithNote(input, folder(rule.after.duplicates_dir, rule, when), '.duplicate.json', {
    file: path.basename(input.path),
    original_path: input.path,
    rule: rule.name,
    sha256: input.sha256,
    duplicate_of: {
      input_id: original.id,
      file: path.basename(original.path),
      path: original.path,
      now_at: original.finalPath,
      state: original.state,
      request_id: original.requestId,
      first_seen: specTimestamp(new Date(original.createdAt)),
    },
    note: `same content (sha256) as ${path.basename(original.path)}, already taken by rule "${rule.name}"; not processed again`,
    time: specTimestamp(when),
  });
}

/**
 * Deletes the input; a file already gone (or replaced by other content) counts as deleted. Returns its
 * own path when it is left in place (reached through a symlink), else null.
 */
export async function deleteInput(rule: DispositionRule, input: DispositionInput): Promise<string | null> {
  if (await reachedThroughLink(rule, input.path)) return input.path;
  const source = await stat(input.path).catch(() => null);
  if (source && (await sameInput(input, source))) await unlinkIfThere(input.path);
  return null;
}

async function unlinkIfThere(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * Whether the file now at the input's path still holds the input's bytes. A rename over it or a rewrite in
 * place makes it another input, which this one's disposal must not move. Size and mtime as taken mean
 * untouched, as they do for the check before upload; when the mtime moved, the sha256 decides (a `touch`
 * is no new content), so only a changed file is read again.
 */
async function sameInput(input: DispositionInput, source: Stats): Promise<boolean> {
  if (!source.isFile() || source.size !== input.size) return false;
  if (input.mtimeMs !== undefined && source.mtimeMs === input.mtimeMs) return true;
  return (await sha256File(input.path).catch(() => null)) === input.sha256;
}

/** Whether the file lies below the watched folder through a symlink (to a file or a folder). */
async function reachedThroughLink(rule: DispositionRule, file: string): Promise<boolean> {
  const rel = path.relative(rule.watch, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
  let at = rule.watch;
  for (const part of rel.split(path.sep)) {
    at = path.join(at, part);
    if ((await lstat(at).catch(() => null))?.isSymbolicLink()) return true;
  }
  return false;
}

function folder(template: string, rule: DispositionRule, when: Date): string {
  return expandPlaceholders(template, { rule: rule.name, date: when });
}

async function moveOnce(input: DispositionInput, dir: string): Promise<string | null> {
  const source = await stat(input.path).catch(() => null);
  const already = await findMoved(input, dir, source);
  if (already) {
    // The move had linked (or, across file systems, copied) the file but not yet removed the source
    // when we crashed.
    if (source && (await sameInput(input, source))) await unlinkIfThere(input.path);
    return already;
  }
  if (!source || !(await sameInput(input, source))) return null;
  return moveFileUnique(input.path, dir);
}

/**
 * The earlier result of this very move, if any: the names moveFileUnique would have chosen ("name",
 * "name (1)", ...), contiguous because each was claimed in turn. While the source still exists on the
 * same file system, only a hard link to it counts (an identical earlier file of the same name is another
 * input's); otherwise size and then sha256 decide.
 */
async function findMoved(input: DispositionInput, dir: string, source: Stats | null): Promise<string | null> {
  const safe = sanitiseFileName(path.basename(input.path));
  for (let i = 0; i < 10_000; i++) {
    const candidate = path.join(dir, numberedName(safe, i));
    if (candidate === input.path) continue;
    const st = await stat(candidate).catch(() => null);
    if (!st) return null;
    if (!st.isFile() || st.size !== input.size) continue;
    if (source && source.dev === st.dev) {
      if (source.ino === st.ino) return candidate;
      continue;
    }
    if ((await sha256File(candidate)) === input.sha256) return candidate;
  }
  return null;
}

/** Moves the input, then writes the note beside it atomically (rewritten on a rerun, so never half there). */
async function moveWithNote(input: DispositionInput, dir: string, suffix: string, note: Record<string, unknown>): Promise<string | null> {
  const dest = await moveOnce(input, dir);
  if (dest !== null) await atomicWriteFile(`${dest}${suffix}`, `${JSON.stringify(note, null, 2)}\n`);
  return dest;
}
