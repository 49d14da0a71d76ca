// What the daemon gives a mailbox's intake, IMAP (imap-intake.ts) or Maildir (maildir-intake.ts), and what it gets back.
import type { RuleConfig } from '../../config/config.js';
import type { MailLedger } from '../../ledger/mail-ledger.js';
import type { Logger } from '../../../shared/logger.js';
import type { CheckLoop, MailboxStatus } from './check-loop.js';

export interface MailIntakeParts {
  rule: Pick<RuleConfig, 'name' | 'watch' | 'after'>;
  ledger: Pick<MailLedger, 'mailOutcome' | 'recordMailDropped' | 'recordMailSkipped' | 'recordMailFile' | 'lastMailUid'>;
  /** A folder of the daemon's own (next to the ledger) where a message's .eml waits on its way to the failed folder. */
  workDir: string;
  logger: Logger;
  /** Reconnect (or Maildir reopen) delays grow from here to 60 s. */
  reconnectMinMs?: number;
  /** Told after each connect attempt (alerts): logged in (Maildir: opened), or why not; `authentication`: the server refused the login. */
  onStatus?: (status: MailboxStatus) => void;
}

/** checkNow(): checks now and resolves when that check is done (tests, benches); status(): readiness, metrics. */
export type MailIntake = CheckLoop;
