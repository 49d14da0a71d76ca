// The mail intake's bookkeeping: which messages (IMAP or Maildir) already had their attachments dropped into an inbox,
// so a restart neither drops them twice nor skips one; which ones the mailbox's filter left alone, so
// they are not fetched again every poll; and which mail each dropped file came from (output columns). A port of its own beside the input Ledger: the
// mail intake gets only this. The SQLite adapter keeps it in the same database (tables mail_messages, maildir_messages and mail_files).

/** One IMAP message: UIDs are stable only while the folder's UIDVALIDITY stays the same. */
export interface MailKey {
  mailbox: string;
  uidValidity: string;
  uid: number;
}

/**
 * One Maildir message: its unique name (the file's base name before the ":2," info), which never changes
 * while flags are added or the file moves between new/ and cur/. Maildir has no UIDs, so this is its whole key.
 */
export interface MaildirKey {
  mailbox: string;
  name: string;
}

/** A message of either source. */
export type MessageKey = MailKey | MaildirKey;

export const isMaildirKey = (key: MessageKey): key is MaildirKey => 'name' in key;

/** The part of a message's key that names its files ("<uidValidity>-<uid>" or the Maildir name). */
export function messageLabel(key: MessageKey): string {
  return isMaildirKey(key) ? key.name : `${key.uidValidity}-${key.uid}`;
}

export interface MailStats {
  mailbox: string;
  /** Messages whose attachments (or body) were dropped. */
  messages: number;
  files: number;
  /** Messages the filter left untouched on the server. */
  skipped: number;
  /** The last message recorded, taken or skipped (ms). */
  lastAt: number;
}

/** What the ledger knows of a message: its files dropped, left alone by the filter, or nothing yet. */
export type MailOutcome = 'dropped' | 'skipped' | null;

/** The mail a dropped file came from, as its rule's output shows it (output.include_mail). */
export interface MailOrigin {
  from: string | null;
  subject: string | null;
  /** ISO 8601 (the Date header), null when the mail has none. */
  date: string | null;
  messageId: string | null;
}

/** A dropped file (by the path it was written to and its content) and the message it came from. */
export interface MailFile extends MailOrigin {
  path: string;
  sha256: string;
  key: MessageKey;
}

/** Reads where a file came from; what the outputs writer gets of the mail ledger. */
export interface MailOrigins {
  /** The mail a file with this path and content was dropped from, or null (not from a mailbox). */
  mailOrigin(path: string, sha256: string): Promise<MailOrigin | null>;
}

export interface MailLedger extends MailOrigins {
  /** Whether this message's attachments were already dropped into its inbox. */
  mailDropped(key: MessageKey): Promise<boolean>;
  /** Dropped, skipped, or not seen yet (null). */
  mailOutcome(key: MessageKey): Promise<MailOutcome>;
  /** Records that the filter left this message alone (`reason`), so it is never fetched again. One commit. */
  recordMailSkipped(key: MessageKey, reason: string): Promise<void>;
  /** Records where a file comes from, before it is written into the inbox (a rewrite after a crash replaces it). */
  recordMailFile(file: MailFile): Promise<void>;
  /** Records that a message's attachments are in the inbox (before it is flagged or moved). One commit. */
  recordMailDropped(key: MessageKey, files: string[]): Promise<void>;
  /** Highest UID taken or skipped from this IMAP mailbox under this UIDVALIDITY, 0 if none. */
  lastMailUid(mailbox: string, uidValidity: string): Promise<number>;
  /** Per mailbox: messages taken, files dropped, messages skipped, time of the last one (ms); for `docdrop status`. */
  mailStats(): Promise<MailStats[]>;
}
