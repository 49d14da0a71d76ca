// One check of a mailbox folder: which messages are new, then each handed to the message handler in UID
// order.
import type { ImapFlow } from 'imapflow';
import type { MailboxConfig } from '../../config/config.js';
import type { MailKey, MailLedger } from '../../ledger/mail-ledger.js';
import { withFolder } from './imap-connection.js';

export async function checkMailbox(
  c: ImapFlow,
  mb: MailboxConfig,
  ledger: Pick<MailLedger, 'lastMailUid'>,
  handle: (c: ImapFlow, key: MailKey) => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  const { uidValidity, uids } = await withFolder(c, mb.folder, async () => {
    const uidValidity = String((c.mailbox as { uidValidity: bigint }).uidValidity);
    return { uidValidity, uids: await newMessages(c, mb, ledger, uidValidity) };
  });
  for (const uid of uids) {
    if (signal.aborted) return;
    await handle(c, { mailbox: mb.name, uidValidity, uid });
  }
}

/**
 * UIDs to take, ascending. after: move/delete leave only new mail in the folder, so all of it. after:
 * seen: the unseen ones, and those above the last UID taken even if someone read them meanwhile.
 */
async function newMessages(c: ImapFlow, mb: MailboxConfig, ledger: Pick<MailLedger, 'lastMailUid'>, uidValidity: string): Promise<number[]> {
  if (mb.after !== 'seen') return ((await c.search({ all: true }, { uid: true })) || []).sort((a, b) => a - b);
  const unseen = (await c.search({ seen: false }, { uid: true })) || [];
  const last = await ledger.lastMailUid(mb.name, uidValidity);
  // "N:*" always matches the newest message, even below N: hence the filter.
  const newer = last > 0 ? ((await c.search({ uid: `${last + 1}:*` }, { uid: true })) || []).filter((u) => u > last) : [];
  return [...new Set([...unseen, ...newer])].sort((a, b) => a - b);
}
