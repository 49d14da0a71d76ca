// One message, each step repeatable after a crash: unless the ledger already has it, fetch it, drop its
// attachments (attachment-drop.ts) and commit "dropped"; then flag, move or delete it (after:).
import type { ImapFlow } from 'imapflow';
import type { MailboxConfig } from '../../config/config.js';
import type { MailKey, MailLedger } from '../../ledger/mail-ledger.js';
import { withFolder } from './imap-connection.js';

export interface MessageHandlerDeps {
  mailbox: MailboxConfig;
  ledger: Pick<MailLedger, 'mailDropped' | 'recordMailDropped'>;
  /** Writes the message's attachments into the inbox (or gives the message up); returns the paths written. */
  drop(source: Buffer, key: MailKey): Promise<string[]>;
}

export async function handleMessage(c: ImapFlow, key: MailKey, d: MessageHandlerDeps): Promise<void> {
  if (!(await d.ledger.mailDropped(key))) {
    const source = await withFolder(c, d.mailbox.folder, async () => {
      const msg = await c.fetchOne(String(key.uid), { source: true }, { uid: true });
      return msg ? msg.source : undefined;
    });
    if (!source) return; // expunged meanwhile
    const files = await d.drop(source, key);
    await d.ledger.recordMailDropped(key, files);
  }
  await withFolder(c, d.mailbox.folder, () => applyAfterAction(c, d.mailbox, key.uid));
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
