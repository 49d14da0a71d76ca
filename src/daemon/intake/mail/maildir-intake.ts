// Maildir intake: the IMAP intake's steps (imap-intake.ts) on a local Maildir a MTA or fetchmail
// delivers to: the mailbox's filter (mail-filter.ts; a message it does not take is recorded skipped and
// left where it is), attachments written atomically (attachment-drop.ts), "dropped" committed, then the
// after-action as a rename or unlink (maildir-source.ts); the same message handler, ledger and check loop
// (a folder change stands in for IDLE, poll_s for the rest).
import type { MaildirMailboxConfig } from '../../config/config.js';
import { createAttachmentDrop } from './attachment-drop.js';
import { startCheckLoop } from './check-loop.js';
import type { MailIntake, MailIntakeParts } from './intake-options.js';
import { compileMailFilter } from './mail-filter.js';
import { listUnseen, maildirKey, maildirMessage, openMaildir } from './maildir-source.js';
import { handleMessage } from './message-handler.js';

export function startMaildirIntake(opts: MailIntakeParts & { mailbox: MaildirMailboxConfig }): MailIntake {
  const { mailbox: mb, ledger } = opts;
  const log = opts.logger.child({ mailbox: mb.name });
  const filter = compileMailFilter(mb.filter);
  const drop = createAttachmentDrop({ mailboxName: mb.name, rule: opts.rule, workDir: opts.workDir, filter, ledger, log });
  return startCheckLoop({
    connect: async (onNewMail, signal) => {
      const open = await openMaildir(mb.maildir, onNewMail, signal);
      log.info({ maildir: mb.maildir }, 'maildir opened');
      return open;
    },
    check: async (_open, signal) => {
      for (const entry of await listUnseen(mb.maildir)) {
        if (signal.aborted) return;
        await handleMessage(maildirKey(mb, entry), maildirMessage(mb, entry), { ledger, filter, drop, log });
      }
    },
    disconnect: (open) => open.close(),
    pollMs: mb.poll_s * 1000,
    reconnectMinMs: opts.reconnectMinMs ?? 1000,
    log,
    ...(opts.onStatus ? { onStatus: opts.onStatus } : {}),
  });
}
