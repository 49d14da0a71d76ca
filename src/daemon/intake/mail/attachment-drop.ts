// Writes a message's attachments into the rule's inbox under names fixed by the message's key (mailbox,
// UIDVALIDITY and UID, or the Maildir name) and part, so a rerun after a crash rewrites the same files. A message with nothing to drop, or whose
// attachments fail to be written MAX_DROP_ATTEMPTS times in a row (once, when the error is permanent:
// src/shared/errors.ts), is kept as .eml in the failed folder.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type Attachment } from 'mailparser';
import { atomicWriteFile } from '../../../shared/atomic-write.js';
import { classifyError } from '../../../shared/errors.js';
import { extensionOf, kindOfMimeType } from '../../../shared/file-kind.js';
import type { Logger } from '../../../shared/logger.js';
import { sanitiseFileName } from '../../../shared/safe-paths.js';
import { isMaildirKey, messageLabel, type MessageKey } from '../../ledger/mail-ledger.js';
import { keepMessageAsFailed, type FailedMessageTarget } from './failed-message.js';

const MAX_DROP_ATTEMPTS = 3;

export interface AttachmentDropOptions extends FailedMessageTarget {
  mailboxName: string;
  log: Logger;
}

/**
 * drop(), retried on the next checks; a message that fails MAX_DROP_ATTEMPTS times in a row, or once with
 * a permanent error, is kept as .eml in the failed folder with the error, so one bad message cannot hold
 * up the mailbox forever.
 * Returns the paths written ([] for a message given up).
 */
export function createAttachmentDrop(o: AttachmentDropOptions): (source: Buffer, key: MessageKey) => Promise<string[]> {
  /** Consecutive failed drops per message (by its label). */
  const failures = new Map<string, number>();
  return async (source, key) => {
    const id = messageLabel(key);
    try {
      const files = await drop(source, key, o);
      failures.delete(id);
      return files;
    } catch (err) {
      const n = (failures.get(id) ?? 0) + 1;
      failures.set(id, n);
      const permanent = classifyError(err).failureClass === 'permanent';
      if (n < MAX_DROP_ATTEMPTS && !permanent) throw err;
      failures.delete(id);
      const reason = `its attachments could not be written${permanent ? '' : ` after ${n} attempts`}: ${(err as Error).message}`;
      await keepMessageAsFailed(o, source, `${o.mailboxName}-${id}.eml`, reason, 'mail_unreadable', keyMeta(key));
      return [];
    }
  };
}

/** Writes the message's attachments into the inbox; returns their paths. */
async function drop(source: Buffer, key: MessageKey, o: AttachmentDropOptions): Promise<string[]> {
  const parsed = await simpleParser(source, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
  const prefix = `${o.mailboxName}-${messageLabel(key)}`;
  // Images the HTML body shows (logos, signatures: cid-referenced) are not documents.
  const parts = parsed.attachments.filter((a) => !a.related);
  const meta = { ...keyMeta(key), messageId: parsed.messageId, from: parsed.from?.text, subject: parsed.subject };
  if (parts.length === 0) {
    await keepMessageAsFailed(o, source, `${prefix}.eml`, 'the message has no attachment to process', 'no_attachment', meta);
    return [];
  }
  const files: string[] = [];
  for (const [i, part] of parts.entries()) {
    const path = join(o.rule.watch, sanitiseFileName(`${prefix}-${i + 1}-${sanitiseFileName(attachmentName(part))}`));
    await mkdir(o.rule.watch, { recursive: true });
    await atomicWriteFile(path, part.content);
    files.push(path);
  }
  o.log.info({ ...meta, files }, 'mail attachments dropped into the inbox');
  return files;
}

/** How a message is named in the log: its UID, or its Maildir name. */
function keyMeta(key: MessageKey): Record<string, unknown> {
  return isMaildirKey(key) ? { message: key.name } : { uid: key.uid };
}

function attachmentName(part: Attachment): string {
  if (part.filename) return part.filename;
  const kind = kindOfMimeType(part.contentType);
  return `attachment${kind ? extensionOf(kind) : '.bin'}`;
}
