// `docdrop retry`: puts failed and timed_out inputs back into the flow.
// - timed_out: back to `submitted` with its request_id, polled again at once (the job may have finished).
// - failed: the file is moved back from failed_dir to the folder it was found in (its .error.json is
//   removed), and intake takes it as a new input, with a fresh upload. The failed row stays as history
//   with a `retry` event. We bring the file back rather than re-reading it in failed_dir because failed_dir
//   is a managed folder intake never watches, and a person can see in the inbox that the file is queued
//   again. The daemon (running now or at its next start) picks it up like any dropped file.
import { mkdir, rename, rm, stat } from 'node:fs/promises';
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

export async function retryInput(ledger: Ledger, record: InputRecord, now = Date.now()): Promise<RetryOutcome> {
  const base = { id: record.id, path: record.path };
  if (record.state === 'timed_out') {
    await ledger.transition(record.id, 'timed_out', 'submitted', { attempts: 0, nextAttemptAt: now, lastError: null, event: { retry: true } });
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
  const dest = (await exists(record.path)) ? await uniquePath(dirname(record.path), basename(record.path)) : record.path;
  await rename(src, dest);
  await rm(`${src}.error.json`, { force: true });
  await ledger.recordAttempt(record.id, { event: { kind: 'retry', movedBackTo: dest } });
  return { ...base, from: 'failed', ok: true, message: `moved back to ${dest}; it will be taken as a new input` };
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}
