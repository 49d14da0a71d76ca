// The one place a ledger is opened from the config's `state` section: the daemon, `docdrop status`,
// `docdrop retry`, the one-shot `docdrop process` and the benches all come through here, so every
// `state` setting takes effect everywhere. A PostgreSQL ledger plugs in here (chosen by the settings).
import type { Ledger } from './ledger.js';
import type { MailLedger } from './mail-ledger.js';
import { openSqliteLedger } from './sqlite-ledger.js';

/** The `state` section of the daemon config (DaemonConfig['state']); ':memory:' is a throwaway ledger. */
export interface LedgerSettings {
  path: string;
  /** SQLite `synchronous`: 'normal' loses nothing committed on kill -9, 'full' nothing on a power cut either. */
  synchronous: 'normal' | 'full';
}

/** One store holds both ports: inputs for the pipeline and commands, mail bookkeeping for the mail intake. */
export type LedgerStore = Ledger & MailLedger;

export interface OpenLedgerOptions {
  /** Milliseconds since epoch for record and event times and claim leases; injectable for tests. */
  clock?: () => number;
}

export async function openLedger(state: LedgerSettings, opts: OpenLedgerOptions = {}): Promise<LedgerStore> {
  return openSqliteLedger(state.path, { synchronous: state.synchronous, ...opts });
}
