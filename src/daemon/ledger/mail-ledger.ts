// The mail intake's bookkeeping: which messages (IMAP or Maildir) already had their attachments dropped into an inbox,
// so a restart neither drops them twice nor skips one. A port of its own beside the input Ledger: the
// mail intake gets only this. The SQLite adapter keeps it in the same database (table mail_messages).

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
  messages: number;
  files: number;
  lastAt: number;
}

export interface MailLedger {
  /** Whether this message's attachments were already dropped into its inbox. */
  mailDropped(key: MessageKey): Promise<boolean>;
  /** Records that a message's attachments are in the inbox (before it is flagged or moved). One commit. */
  recordMailDropped(key: MessageKey, files: string[]): Promise<void>;
  /** Highest UID taken from this mailbox under this UIDVALIDITY, 0 if none. */
  lastMailUid(mailbox: string, uidValidity: string): Promise<number>;
  /** Per mailbox: messages taken, files dropped, time of the last one (ms); for `docdrop status`. */
  mailStats(): Promise<MailStats[]>;
}
