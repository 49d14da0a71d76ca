// The mail intake's bookkeeping: which IMAP messages already had their attachments dropped into an inbox,
// so a restart neither drops them twice nor skips one. A port of its own beside the input Ledger: the
// mail intake gets only this. The SQLite adapter keeps it in the same database (table mail_messages).

/** One IMAP message: UIDs are stable only while the folder's UIDVALIDITY stays the same. */
export interface MailKey {
  mailbox: string;
  uidValidity: string;
  uid: number;
}

export interface MailStats {
  mailbox: string;
  messages: number;
  files: number;
  lastAt: number;
}

export interface MailLedger {
  /** Whether this IMAP message's attachments were already dropped into its inbox. */
  mailDropped(key: MailKey): Promise<boolean>;
  /** Records that an IMAP message's attachments are in the inbox (before it is flagged or moved). One commit. */
  recordMailDropped(key: MailKey, files: string[]): Promise<void>;
  /** Highest UID taken from this mailbox under this UIDVALIDITY, 0 if none. */
  lastMailUid(mailbox: string, uidValidity: string): Promise<number>;
  /** Per mailbox: messages taken, files dropped, time of the last one (ms); for `docdrop status`. */
  mailStats(): Promise<MailStats[]>;
}
