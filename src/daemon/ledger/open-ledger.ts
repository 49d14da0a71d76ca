// The one place a ledger is opened from the config's `state` section: the daemon, `docdrop status`,
// `docdrop retry`, the one-shot `docdrop process` and the benches all come through here, so every
// `state` setting takes effect everywhere. `state.url` selects PostgreSQL (several daemons sharing one
// ledger), else `state.path` is a SQLite file.
import { redactUrl } from '../../shared/redact-url.js';
import type { Ledger } from './ledger.js';
import type { MailLedger } from './mail-ledger.js';
import { openPgLedger } from './pg-ledger.js';
import { openSqliteLedger } from './sqlite-ledger.js';

/** The `state` section of the daemon config (DaemonConfig['state']); ':memory:' is a throwaway ledger. */
export interface LedgerSettings {
  path: string;
  /** SQLite `synchronous`: 'normal' loses nothing committed on kill -9, 'full' nothing on a power cut either. */
  synchronous: 'normal' | 'full';
  /** A postgres:// URL: the ledger lives in that database instead of the SQLite file at `path`. */
  url?: string;
}

/** One store holds both ports: inputs for the pipeline and commands, mail bookkeeping for the mail intake. */
export type LedgerStore = Ledger & MailLedger;

export interface OpenLedgerOptions {
  /** Milliseconds since epoch for record and event times and claim leases; injectable for tests. */
  clock?: () => number;
}

export async function openLedger(state: LedgerSettings, opts: OpenLedgerOptions = {}): Promise<LedgerStore> {
  if (state.url !== undefined) return openPgLedger(state.url, opts);
  return openSqliteLedger(state.path, { synchronous: state.synchronous, ...opts });
}

/** Where the ledger is, as it may be logged or printed: the URL without its password, or the file. */
export function describeLedger(state: Pick<LedgerSettings, 'path' | 'url'>): string {
  return state.url !== undefined ? redactUrl(state.url) : state.path;
}
