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
// message-handler.ts (filter, steps 2-3, shared with Maildir: maildir-intake.ts), imap-message-source.ts
// (envelope, fetch, after-action), mail-filter.ts, attachment-drop.ts (step 1), failed-message.ts,
// imap-connection.ts, mailbox-login.ts (password or OAuth2: oauth2-token.ts, oauth2-endpoint.ts).
import type { AnyMailboxConfig } from '../../config/config.js';
import { createAttachmentDrop } from './attachment-drop.js';
import { startCheckLoop, type MailboxStatus } from './check-loop.js';
import { checkMailbox } from './check-mailbox.js';
import { logoutImap } from './imap-connection.js';
import { imapMessage } from './imap-message-source.js';
import type { MailIntake, MailIntakeParts } from './intake-options.js';
import { mailboxConnector } from './mailbox-login.js';
import { compileMailFilter } from './mail-filter.js';
import { startMaildirIntake } from './maildir-intake.js';
import { handleMessage } from './message-handler.js';

export type { MailboxStatus, MailIntake, MailIntakeParts };

export interface MailIntakeOptions extends MailIntakeParts {
  /** An IMAP mailbox, or a Maildir one (handed to maildir-intake.ts: one entry for the daemon and tests). */
  mailbox: AnyMailboxConfig;
}

export function startMailIntake(opts: MailIntakeOptions): MailIntake {
  const { mailbox: mb, ledger } = opts;
  if (mb.maildir !== undefined) return startMaildirIntake({ ...opts, mailbox: mb });
  const log = opts.logger.child({ mailbox: mb.name });
  const filter = compileMailFilter(mb.filter);
  const drop = createAttachmentDrop({ mailboxName: mb.name, rule: opts.rule, workDir: opts.workDir, filter, ledger, log });
  return startCheckLoop({
    connect: mailboxConnector(mb, log),
    check: (c, signal) => checkMailbox(c, mb, ledger, (c, key) => handleMessage(key, imapMessage(c, mb, key), { ledger, filter, drop, log }), signal),
    disconnect: logoutImap,
    pollMs: mb.poll_s * 1000,
    reconnectMinMs: opts.reconnectMinMs ?? 1000,
    log,
    ...(opts.onStatus ? { onStatus: opts.onStatus } : {}),
  });
}
