// One message, each step repeatable after a crash: unless the ledger already has it, fetch it, drop its
// attachments (attachment-drop.ts) and commit "dropped"; then the mailbox's after-action. Source-neutral:
// IMAP (imap-message-source.ts) and Maildir (maildir-source.ts) each say how to fetch and how to finish.
import type { MailLedger, MessageKey } from '../../ledger/mail-ledger.js';

/** One message where it is kept. */
export interface MessageSource {
  /** The raw message, or undefined when it is gone meanwhile (expunged, moved away by someone else). */
  fetch(): Promise<Buffer | undefined>;
  /** The mailbox's after: (flag seen, move or delete); repeatable, and a message already gone is no error. */
  finish(): Promise<void>;
}

export interface MessageHandlerDeps {
  ledger: Pick<MailLedger, 'mailDropped' | 'recordMailDropped'>;
  /** Writes the message's attachments into the inbox (or gives the message up); returns the paths written. */
  drop(source: Buffer, key: MessageKey): Promise<string[]>;
}

export async function handleMessage(key: MessageKey, message: MessageSource, d: MessageHandlerDeps): Promise<void> {
  if (!(await d.ledger.mailDropped(key))) {
    const source = await message.fetch();
    if (!source) return;
    const files = await d.drop(source, key);
    await d.ledger.recordMailDropped(key, files);
  }
  await message.finish();
}
