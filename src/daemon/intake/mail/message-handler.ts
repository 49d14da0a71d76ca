// One message, each step repeatable after a crash: unless the ledger already has it, test its headers
// against the mailbox's filter, fetch it, drop its attachments (attachment-drop.ts) and commit "dropped";
// then the mailbox's after-action. A message the filter leaves alone is committed "skipped" and never
// touched: not flagged, moved or deleted, and not fetched again on later checks. Source-neutral: IMAP
// (imap-message-source.ts) and Maildir (maildir-source.ts) each say how to read and how to finish.
import { messageLabel, type MailLedger, type MessageKey } from '../../ledger/mail-ledger.js';
import type { Logger } from '../../../shared/logger.js';
import type { DropResult } from './attachment-drop.js';
import type { MailFilter, MailHeaders } from './mail-filter.js';

/** One message where it is kept. */
export interface MessageSource {
  /** Sender, subject and when it was received, read without the body (IMAP: the envelope); undefined when gone. */
  headers(): Promise<MailHeaders | undefined>;
  /** The raw message, or undefined when it is gone meanwhile (expunged, moved away by someone else). */
  fetch(): Promise<Buffer | undefined>;
  /** The mailbox's after: (flag seen, move or delete); repeatable, and a message already gone is no error. */
  finish(): Promise<void>;
}

export interface MessageHandlerDeps {
  ledger: Pick<MailLedger, 'mailOutcome' | 'recordMailDropped' | 'recordMailSkipped'>;
  filter: Pick<MailFilter, 'testsHeaders' | 'headerMismatch'>;
  /** Writes the message's attachments into the inbox (or gives the message up); returns the paths written, or why it is skipped. */
  drop(source: Buffer, key: MessageKey): Promise<DropResult>;
  log: Logger;
}

export async function handleMessage(key: MessageKey, message: MessageSource, d: MessageHandlerDeps): Promise<void> {
  const outcome = await d.ledger.mailOutcome(key);
  if (outcome === 'skipped') return;
  if (outcome === null && (await take(key, message, d)) !== 'dropped') return;
  await message.finish();
}

/** Fetches and drops a new message, or records it skipped; 'gone' when it disappeared meanwhile. */
async function take(key: MessageKey, message: MessageSource, d: MessageHandlerDeps): Promise<'dropped' | 'skipped' | 'gone'> {
  const skip = async (reason: string) => {
    await d.ledger.recordMailSkipped(key, reason);
    d.log.info({ message: messageLabel(key), reason }, 'mail left where it is: the filter does not take it');
    return 'skipped' as const;
  };
  if (d.filter.testsHeaders) {
    const head = await message.headers();
    if (!head) return 'gone';
    const mismatch = d.filter.headerMismatch(head, Date.now());
    if (mismatch) return skip(mismatch);
  }
  const source = await message.fetch();
  if (!source) return 'gone';
  const result = await d.drop(source, key);
  if ('skipped' in result) return skip(result.skipped);
  await d.ledger.recordMailDropped(key, result.files);
  return 'dropped';
}
