// `docdrop retry`: puts failed and timed_out inputs back into the flow, in the same ledger row (one input,
// one row, whatever its history; the events keep every attempt).
// - timed_out: back to `submitted` with its request_id, polled again at once (the job may have finished).
// - failed: the file is moved back from failed_dir to the folder it was found in (its .error.json is
//   removed) and the row resumes at the first step not done: `written` when its outputs were written
//   before it failed (the final move failed), so only the move is repeated and no row is written twice;
//   `extracted` when it has a result whose write failed; otherwise `queued`, for a fresh upload. We bring the file back rather than re-reading it in failed_dir because failed_dir is a
//   managed folder intake never watches, and a person can see in the inbox that the file is queued again.
//   The daemon (running now or at its next start) takes the row from the ledger; intake sees an active
//   row at that path and leaves the file to it.
// Order: the row is committed first, held for HOLD_MS so a running daemon does not start it before the
// file is back, then the file is moved and the hold released. A crash inside that window leaves the file
// in failed_dir; the daemon then finds no file and fails the input as input_vanished.
import { mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { uniquePath } from '../../shared/safe-paths.js';
import type { InputRecord, Ledger } from '../ledger/ledger.js';

export interface RetryOutcome {
  id: number;
  path: string;
  from: 'failed' | 'timed_out';
  ok: boolean;
  message: string;
}

const HOLD_MS = 60_000;

export async function retryInput(ledger: Ledger, record: InputRecord, now = Date.now()): Promise<RetryOutcome> {
  const base = { id: record.id, path: record.path };
  if (record.state === 'timed_out') {
    await ledger.transition(record.id, 'timed_out', 'submitted', { attempts: 0, nextAttemptAt: now, lastError: null, event: { kind: 'retry' } });
    return { ...base, from: 'timed_out', ok: true, message: `job ${record.requestId} will be polled again` };
  }
  if (record.state !== 'failed') {
    throw new Error(`input ${record.id} is ${record.state}; only failed and timed_out inputs can be retried`);
  }
  const src = record.finalPath;
  if (src === record.path) {
    // Left in place (reached through a symlink): never moved by docdrop, not even back.
    return { ...base, from: 'failed', ok: false, message: `it was left where it was found (reached through a symlink); change it or copy it into the inbox` };
  }
  if (!src || !(await exists(src))) {
    return { ...base, from: 'failed', ok: false, message: `its file is no longer in failed_dir (${src ?? 'never moved there'}); drop it into the inbox again` };
  }
  await mkdir(dirname(record.path), { recursive: true });
  // The original name may be taken by a newer file meanwhile: never overwrite, take `name (1).pdf`.
  const taken = (await exists(record.path)) || (await ledger.findActiveByPath(record.rule, record.path)) !== null;
  const dest = taken ? await uniquePath(dirname(record.path), basename(record.path)) : record.path;
  // Resume at the first step not done: the move, the output write (the result is kept), or the upload.
  const to = (record.result?.outputs?.length ?? 0) > 0 ? 'written' : record.result ? 'extracted' : 'queued';
  try {
    await ledger.transition(record.id, 'failed', to, {
      path: dest,
      finalPath: null,
      attempts: 0,
      nextAttemptAt: now + HOLD_MS,
      lastError: null,
      // A fresh upload gets fresh ids; a written or extracted input keeps its own (its outputs are named by them).
      ...(to === 'queued' ? { documentId: null, requestId: null } : {}),
      event: { kind: 'retry', movedBackFrom: src, movedBackTo: dest },
    });
  } catch (err) {
    if (taken) await unlink(dest).catch(() => undefined); // the empty placeholder uniquePath reserved
    throw err;
  }
  await rename(src, dest);
  await rm(`${src}.error.json`, { force: true });
  await ledger.recordAttempt(record.id, { nextAttemptAt: now, event: { released: true } });
  return {
    ...base,
    from: 'failed',
    ok: true,
    message: {
      written: `moved back to ${dest}; its outputs are already written, so it will only be moved on`,
      extracted: `moved back to ${dest}; its kept extraction result will be written`,
      queued: `moved back to ${dest}; it will be uploaded again`,
    }[to],
  };
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}
