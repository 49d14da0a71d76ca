// While `docdrop run` keeps an embedded service, it says where in a small file beside the ledger, so a
// person (curl) and the other commands (try, doctor, process) reach that service instead of starting a
// second one with a second job runner on the same data dir. The key stays in its own file
// (embeddedKeyPath); this one holds no secret, but is mode 600 all the same.
import { createConnection } from 'node:net';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { atomicWriteFile } from '../shared/atomic-write.js';
import type { DaemonConfig } from './config/config.js';
import { embeddedKeyPath } from './embedded.js';

export interface EmbeddedServiceNote {
  url: string;
  pid: number;
  started_at: string;
}

export type EmbeddedServiceState =
  | { running: true; note: EmbeddedServiceNote; keyPath: string }
  | { running: false; keyPath: string; /** Why a note that was found does not count (stale). */ stale?: string };

export function embeddedNotePath(config: DaemonConfig): string {
  return join(dirname(config.state.path), 'embedded-service.json');
}

/** Written by the daemon once its embedded service listens; returns the function that removes it. */
export async function announceEmbeddedService(config: DaemonConfig, url: string): Promise<() => Promise<void>> {
  const path = embeddedNotePath(config);
  const note: EmbeddedServiceNote = { url, pid: process.pid, started_at: new Date().toISOString() };
  await atomicWriteFile(path, `${JSON.stringify(note)}\n`, { mode: 0o600 });
  return async () => {
    // Only our own note: a daemon started after us (a mistake, but possible) keeps its one.
    const current = await readNote(path);
    if (current?.pid === process.pid) await rm(path, { force: true });
  };
}

/** The running daemon's embedded service, when its note names a live process whose port answers. */
export async function findEmbeddedService(config: DaemonConfig): Promise<EmbeddedServiceState> {
  const keyPath = embeddedKeyPath(config);
  const note = await readNote(embeddedNotePath(config));
  if (!note) return { running: false, keyPath };
  if (!processAlive(note.pid)) return { running: false, keyPath, stale: `process ${note.pid} is gone` };
  if (!(await answers(note.url))) return { running: false, keyPath, stale: `${note.url} does not answer` };
  return { running: true, note, keyPath };
}

async function readNote(path: string): Promise<EmbeddedServiceNote | null> {
  try {
    const v = JSON.parse(await readFile(path, 'utf8')) as Partial<EmbeddedServiceNote>;
    if (typeof v.url !== 'string' || typeof v.pid !== 'number' || typeof v.started_at !== 'string') return null;
    return { url: v.url, pid: v.pid, started_at: v.started_at };
  } catch {
    return null; // missing, or cut short by a crash mid-write: as good as none
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

/** A TCP connect to the note's port: the pid may have been reused by another program. */
function answers(url: string): Promise<boolean> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const sock = createConnection({ host: u.hostname, port: Number(u.port || 80) });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
    sock.setTimeout(1000, () => done(false));
  });
}
