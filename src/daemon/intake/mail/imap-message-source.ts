// An IMAP message as the message handler sees it: its envelope alone (for the filter, so mail that does
// not match is never downloaded), fetched by UID, then flagged \Seen, moved or deleted.
import type { FetchMessageObject, ImapFlow } from 'imapflow';
import type { MailboxConfig } from '../../config/config.js';
import type { MailKey } from '../../ledger/mail-ledger.js';
import { withFolder } from './imap-connection.js';
import type { MailHeaders } from './mail-filter.js';
import type { MessageSource } from './message-handler.js';

export function imapMessage(c: ImapFlow, mb: MailboxConfig, key: MailKey): MessageSource {
  return {
    headers: () =>
      withFolder(c, mb.folder, async () => {
        const msg = await c.fetchOne(String(key.uid), { envelope: true, internalDate: true }, { uid: true });
        return msg ? headersOf(msg) : undefined;
      }),
    fetch: () =>
      withFolder(c, mb.folder, async () => {
        const msg = await c.fetchOne(String(key.uid), { source: true }, { uid: true });
        return msg ? msg.source : undefined;
      }),
    finish: () => withFolder(c, mb.folder, () => applyAfterAction(c, mb, key.uid)),
  };
}

/** Sender address, subject, and when the server received it (INTERNALDATE; the Date header if missing). */
function headersOf(m: FetchMessageObject): MailHeaders {
  const received = m.internalDate ?? m.envelope?.date;
  const receivedAt = received === undefined ? null : new Date(received);
  return {
    from: m.envelope?.from?.[0]?.address ?? null,
    subject: m.envelope?.subject ?? '',
    receivedAt: receivedAt && !Number.isNaN(receivedAt.getTime()) ? receivedAt : null,
  };
}

/** Flags the message \Seen, deletes it or moves it to move_to, as the mailbox's `after` says. */
async function applyAfterAction(c: ImapFlow, mb: MailboxConfig, uid: number): Promise<void> {
  const range = String(uid);
  let done: unknown;
  if (mb.after === 'seen') done = await c.messageFlagsAdd(range, ['\\Seen'], { uid: true });
  else if (mb.after === 'delete') done = await c.messageDelete(range, { uid: true });
  else {
    await c.mailboxCreate(mb.move_to!).catch(() => undefined); // exists already, usually
    done = await c.messageMove(range, mb.move_to!, { uid: true });
  }
  // Refused (e.g. a folder name the server rejects): retried with backoff, the attachments stay dropped once.
  if (!done) throw new Error(`the server refused to ${mb.after === 'move' ? `move the message to "${mb.move_to}"` : mb.after === 'seen' ? 'flag the message \\Seen' : 'delete the message'}`);
}
