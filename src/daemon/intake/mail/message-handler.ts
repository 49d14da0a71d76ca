// One message, each step repeatable after a crash: unless the ledger already has it, test its envelope
// against the mailbox's filter, fetch it, drop its attachments (attachment-drop.ts) and commit "dropped";
// then flag, move or delete it (after:). A message the filter leaves alone is committed "skipped" and
// never touched: not flagged, moved or deleted, and not fetched again on later checks.
import type { FetchMessageObject, ImapFlow } from 'imapflow';
import type { MailboxConfig } from '../../config/config.js';
import type { MailKey, MailLedger } from '../../ledger/mail-ledger.js';
import type { Logger } from '../../../shared/logger.js';
import type { DropResult } from './attachment-drop.js';
import { withFolder } from './imap-connection.js';
import type { MailFilter, MailHeaders } from './mail-filter.js';

export interface MessageHandlerDeps {
  mailbox: MailboxConfig;
  ledger: Pick<MailLedger, 'mailOutcome' | 'recordMailDropped' | 'recordMailSkipped'>;
  filter: Pick<MailFilter, 'testsHeaders' | 'headerMismatch'>;
  /** Writes the message's attachments into the inbox (or gives the message up); returns the paths written, or why it is skipped. */
  drop(source: Buffer, key: MailKey): Promise<DropResult>;
  log: Logger;
}

export async function handleMessage(c: ImapFlow, key: MailKey, d: MessageHandlerDeps): Promise<void> {
  const outcome = await d.ledger.mailOutcome(key);
  if (outcome === 'skipped') return;
  if (outcome === null && (await take(c, key, d)) !== 'dropped') return;
  await withFolder(c, d.mailbox.folder, () => applyAfterAction(c, d.mailbox, key.uid));
}

/** Fetches and drops a new message, or records it skipped; 'gone' when it was expunged meanwhile. */
async function take(c: ImapFlow, key: MailKey, d: MessageHandlerDeps): Promise<'dropped' | 'skipped' | 'gone'> {
  const fetchOne = (query: { source: true } | { envelope: true; internalDate: true }) =>
    withFolder(c, d.mailbox.folder, async () => (await c.fetchOne(String(key.uid), query, { uid: true })) || undefined);
  const skip = async (reason: string) => {
    await d.ledger.recordMailSkipped(key, reason);
    d.log.info({ uid: key.uid, reason }, 'mail left on the server: the filter does not take it');
    return 'skipped' as const;
  };
  if (d.filter.testsHeaders) {
    const head = await fetchOne({ envelope: true, internalDate: true });
    if (!head) return 'gone';
    const mismatch = d.filter.headerMismatch(headersOf(head), Date.now());
    if (mismatch) return skip(mismatch);
  }
  const source = (await fetchOne({ source: true }))?.source;
  if (!source) return 'gone';
  const result = await d.drop(source, key);
  if ('skipped' in result) return skip(result.skipped);
  await d.ledger.recordMailDropped(key, result.files);
  return 'dropped';
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
