// The mail intake's bookkeeping: which IMAP messages already had their attachments dropped into an inbox,
// so a restart neither drops them twice nor skips one; which ones the mailbox's filter left alone, so
// they are not fetched again every poll; and which mail each dropped file came from (output columns). A port of its own beside the input Ledger: the
// mail intake gets only this. The SQLite adapter keeps it in the same database (table mail_messages).

/** One IMAP message: UIDs are stable only while the folder's UIDVALIDITY stays the same. */
export interface MailKey {
  mailbox: string;
  uidValidity: string;
  uid: number;
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
  key: MailKey;
}

/** Reads where a file came from; what the outputs writer gets of the mail ledger. */
export interface MailOrigins {
  /** The mail a file with this path and content was dropped from, or null (not from a mailbox). */
  mailOrigin(path: string, sha256: string): Promise<MailOrigin | null>;
}

export interface MailLedger extends MailOrigins {
  /** Whether this IMAP message's attachments were already dropped into its inbox. */
  mailDropped(key: MailKey): Promise<boolean>;
  /** Dropped, skipped, or not seen yet (null). */
  mailOutcome(key: MailKey): Promise<MailOutcome>;
  /** Records that the filter left this message alone (`reason`), so it is never fetched again. One commit. */
  recordMailSkipped(key: MailKey, reason: string): Promise<void>;
  /** Records where a file comes from, before it is written into the inbox (a rewrite after a crash replaces it). */
  recordMailFile(file: MailFile): Promise<void>;
  /** Records that an IMAP message's attachments are in the inbox (before it is flagged or moved). One commit. */
  recordMailDropped(key: MailKey, files: string[]): Promise<void>;
  /** Highest UID taken or skipped in this mailbox under this UIDVALIDITY, 0 if none. */
  lastMailUid(mailbox: string, uidValidity: string): Promise<number>;
  /** Per mailbox: messages taken, files dropped, messages skipped, time of the last one (ms); for `docdrop status`. */
  mailStats(): Promise<MailStats[]>;
}
