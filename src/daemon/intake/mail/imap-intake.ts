// IMAP intake: drops the attachments of new mail into a rule's watched folder, where the folder intake
// takes them like any dropped file. Per message, in this order, each step repeatable after a crash:
//   1. write every attachment atomically under a name fixed by (mailbox, UIDVALIDITY, UID, part), so a
//      rerun rewrites the same files (and one already taken is a content duplicate, skipped by the rule);
//   2. commit "dropped" to the ledger;
//   3. flag the message \Seen, move or delete it (after:).
// A message with nothing to drop, or whose attachments fail to be written 3 times in a row, is kept as
// <name>.eml in the rule's failed folder with the reason. A message the mailbox's filter does not take
// (mail-filter.ts) is recorded as skipped and left on the server as it is.
// Pieces: check-loop.ts (connection, poll and reconnect), check-mailbox.ts (which messages are new),
// message-handler.ts (steps 2-3), attachment-drop.ts (step 1), failed-message.ts, imap-connection.ts.
import type { MailboxConfig, RuleConfig } from '../../config/config.js';
import type { MailLedger } from '../../ledger/mail-ledger.js';
import type { Logger } from '../../../shared/logger.js';
import { createAttachmentDrop } from './attachment-drop.js';
import { startCheckLoop, type MailboxStatus } from './check-loop.js';
import { checkMailbox } from './check-mailbox.js';
import { connectImap } from './imap-connection.js';
import { compileMailFilter } from './mail-filter.js';
import { handleMessage } from './message-handler.js';

export type { MailboxStatus };

export interface MailIntakeOptions {
  mailbox: MailboxConfig;
  rule: Pick<RuleConfig, 'name' | 'watch' | 'after'>;
  ledger: Pick<MailLedger, 'mailOutcome' | 'recordMailDropped' | 'recordMailSkipped' | 'recordMailFile' | 'lastMailUid'>;
  /** A folder of the daemon's own (next to the ledger) where a message's .eml waits on its way to the failed folder. */
  workDir: string;
  logger: Logger;
  /** Reconnect delays grow from here to 60 s. */
  reconnectMinMs?: number;
  /** Told after each connect attempt (alerts): logged in, or why not; `authentication`: the server refused the login. */
  onStatus?: (status: MailboxStatus) => void;
}

export interface MailIntake {
  /** Checks the folder now and resolves when that check is done (tests, benches). */
  checkNow(): Promise<void>;
  stop(): Promise<void>;
  /** Logged in now or not, and the last error (readiness, metrics). */
  status(): MailboxStatus;
}

export function startMailIntake(opts: MailIntakeOptions): MailIntake {
  const { mailbox: mb, ledger } = opts;
  const log = opts.logger.child({ mailbox: mb.name });
  const filter = compileMailFilter(mb.filter);
  const drop = createAttachmentDrop({ mailboxName: mb.name, rule: opts.rule, workDir: opts.workDir, filter, ledger, log });
  return startCheckLoop({
    connect: (onNewMail, signal) => connectImap(mb, log, onNewMail, signal),
    check: (c, signal) => checkMailbox(c, mb, ledger, (c, key) => handleMessage(c, key, { mailbox: mb, ledger, filter, drop, log }), signal),
    pollMs: mb.poll_s * 1000,
    reconnectMinMs: opts.reconnectMinMs ?? 1000,
    log,
    ...(opts.onStatus ? { onStatus: opts.onStatus } : {}),
  });
}
