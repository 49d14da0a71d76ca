// Writes a message's attachments (those its mailbox's filter takes; or, with parse_body, its body as a PDF
// when it has none taken) into the rule's inbox under names fixed by the message's key (mailbox,
// UIDVALIDITY and UID, or the Maildir name) and part, so a rerun after a crash rewrites the same files.
// Each file's origin (from, subject, date, Message-ID) is committed to the ledger before the file is
// written, so the outputs writer always finds it. A message with nothing to drop, or whose attachments
// fail to be written MAX_DROP_ATTEMPTS times in a row (once, when the error is permanent:
// src/shared/errors.ts), is kept as .eml in the failed folder; one whose attachments the filter all
// leaves out is skipped.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type Attachment, type ParsedMail } from 'mailparser';
import { atomicWriteFile } from '../../../shared/atomic-write.js';
import { classifyError } from '../../../shared/errors.js';
import { extensionOf, kindOfMimeType } from '../../../shared/file-kind.js';
import type { Logger } from '../../../shared/logger.js';
import { mailBodyPdf } from '../../../shared/mail-body-pdf.js';
import { sanitiseFileName } from '../../../shared/safe-paths.js';
import { isMaildirKey, messageLabel, type MailLedger, type MailOrigin, type MessageKey } from '../../ledger/mail-ledger.js';
import { keepMessageAsFailed, type FailedMessageTarget } from './failed-message.js';
import type { MailFilter } from './mail-filter.js';

const MAX_DROP_ATTEMPTS = 3;

export interface AttachmentDropOptions extends FailedMessageTarget {
  mailboxName: string;
  filter: Pick<MailFilter, 'testsAttachments' | 'takesAttachment' | 'parseBody'>;
  ledger: Pick<MailLedger, 'recordMailFile'>;
  log: Logger;
}

/** The paths written ([] for a message given up as failed), or why the filter leaves the message alone. */
export type DropResult = { files: string[] } | { skipped: string };

/**
 * drop(), retried on the next checks; a message that fails MAX_DROP_ATTEMPTS times in a row, or once with
 * a permanent error, is kept as .eml in the failed folder with the error, so one bad message cannot hold
 * up the mailbox forever.
 */
export function createAttachmentDrop(o: AttachmentDropOptions): (source: Buffer, key: MessageKey) => Promise<DropResult> {
  /** Consecutive failed drops per message (by its label). */
  const failures = new Map<string, number>();
  return async (source, key) => {
    const id = messageLabel(key);
    try {
      const result = await drop(source, key, o);
      failures.delete(id);
      return result;
    } catch (err) {
      const n = (failures.get(id) ?? 0) + 1;
      failures.set(id, n);
      const permanent = classifyError(err).failureClass === 'permanent';
      if (n < MAX_DROP_ATTEMPTS && !permanent) throw err;
      failures.delete(id);
      const reason = `its attachments could not be written${permanent ? '' : ` after ${n} attempts`}: ${(err as Error).message}`;
      await keepMessageAsFailed(o, source, `${o.mailboxName}-${id}.eml`, reason, 'mail_unreadable', keyMeta(key));
      return { files: [] };
    }
  };
}

/** Writes the message's attachments (or body) into the inbox; returns their paths, or why it is skipped. */
async function drop(source: Buffer, key: MessageKey, o: AttachmentDropOptions): Promise<DropResult> {
  const parsed = await simpleParser(source, { skipHtmlToText: !o.filter.parseBody, skipTextToHtml: true, skipImageLinks: true });
  const prefix = `${o.mailboxName}-${messageLabel(key)}`;
  // Images the HTML body shows (logos, signatures: cid-referenced) are not documents.
  const parts = parsed.attachments.filter((a) => !a.related);
  const meta = { ...keyMeta(key), messageId: parsed.messageId, from: parsed.from?.text, subject: parsed.subject };
  // Numbered among all the parts, so a name stays the same whatever the filter.
  const docs = parts.flatMap((part, i) => {
    const name = attachmentName(part);
    return o.filter.takesAttachment(name) ? [{ name: `${prefix}-${i + 1}-${sanitiseFileName(name)}`, content: part.content }] : [];
  });
  if (docs.length === 0 && o.filter.parseBody) {
    const body = await mailBodyPdf(parsed);
    if (body) docs.push({ name: `${prefix}-body-${body.fileName}`, content: Buffer.from(body.pdf) });
  }
  if (docs.length === 0) {
    const bodyToo = o.filter.parseBody ? ', and its body is empty' : '';
    // A filter on attachment names says which mail is wanted: one with none of them is not, and stays on the server.
    if (o.filter.testsAttachments) return { skipped: `no attachment matches filter.attachments${bodyToo}` };
    await keepMessageAsFailed(o, source, `${prefix}.eml`, `the message has no attachment to process${bodyToo}`, 'no_attachment', meta);
    return { files: [] };
  }
  const origin = originOf(parsed);
  const files: string[] = [];
  await mkdir(o.rule.watch, { recursive: true });
  for (const d of docs) {
    const path = join(o.rule.watch, sanitiseFileName(d.name));
    await o.ledger.recordMailFile({ ...origin, path, sha256: createHash('sha256').update(d.content).digest('hex'), key });
    await atomicWriteFile(path, d.content);
    files.push(path);
  }
  o.log.info({ ...meta, files }, 'mail attachments dropped into the inbox');
  return { files };
}

function originOf(mail: ParsedMail): MailOrigin {
  const date = mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date.toISOString() : null;
  // "Name <address>" unquoted, for a cell people read (mailparser's text quotes the name).
  const from = (mail.from?.value ?? []).map((a) => (a.name ? `${a.name} <${a.address ?? ''}>` : (a.address ?? ''))).join(', ');
  return { from: from || null, subject: mail.subject ?? null, date, messageId: mail.messageId ?? null };
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
