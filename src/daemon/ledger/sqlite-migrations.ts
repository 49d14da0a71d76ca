// Schema of the SQLite ledger. Numbered migrations, only ever appended: migration N brings a database
// from user_version N-1 to N. Never edit a released one; add the next. Run by src/shared/sqlite-migrations.ts.

/**
 * Where-clause of an active (non-final) input, as the partial indexes below were created with it: SQLite
 * uses a partial index only for a query repeating this text, so the adapter's queries use this constant.
 * Frozen like the migrations; test/daemon/ledger-sqlite.test.ts checks it still names FINAL_STATES.
 */
export const ACTIVE = `state NOT IN ('done', 'failed', 'duplicate')`;

export const MIGRATIONS: readonly string[] = [
  // 1: one row per input, one row per event.
  `
  CREATE TABLE inputs (
    id              INTEGER PRIMARY KEY,
    rule            TEXT    NOT NULL,
    path            TEXT    NOT NULL,
    size            INTEGER NOT NULL,
    mtime_ms        REAL    NOT NULL,
    sha256          TEXT    NOT NULL,
    state           TEXT    NOT NULL,
    document_id     TEXT,
    request_id      TEXT,
    result          TEXT,              -- JSON of InputResult
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,  -- ms since epoch
    last_error      TEXT,
    final_path      TEXT,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE events (
    id       INTEGER PRIMARY KEY,
    input_id INTEGER NOT NULL REFERENCES inputs(id),
    at       INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    detail   TEXT                      -- JSON
  ) STRICT;
  CREATE INDEX events_by_input ON events(input_id, id);
  -- One active (non-final) input per rule+path; also serves findActiveByPath.
  CREATE UNIQUE INDEX inputs_active_path ON inputs(rule, path) WHERE ${ACTIVE};
  -- listDue: only active rows are indexed, so finished inputs cost nothing however many there are.
  CREATE INDEX inputs_due ON inputs(next_attempt_at, id) WHERE ${ACTIVE};
  CREATE INDEX inputs_sha ON inputs(rule, sha256, id);
  CREATE INDEX inputs_state ON inputs(state, id);
  CREATE INDEX inputs_rule ON inputs(rule, id);
  `,
  // 2: IMAP messages whose attachments are already in an inbox, so a restart does not drop them again.
  `
  CREATE TABLE mail_messages (
    mailbox      TEXT    NOT NULL,
    uid_validity TEXT    NOT NULL,
    uid          INTEGER NOT NULL,
    files        TEXT    NOT NULL,  -- JSON list of the paths written
    at           INTEGER NOT NULL,
    PRIMARY KEY (mailbox, uid_validity, uid)
  ) STRICT;
  `,
  // 3: claims of several writers sharing the ledger (Ledger.claim): one live holder per input.
  `
  CREATE TABLE claims (
    input_id INTEGER PRIMARY KEY REFERENCES inputs(id),
    owner    TEXT    NOT NULL,
    until    INTEGER NOT NULL  -- ms since epoch; the claim is free again from then
  ) STRICT;
  `,
  // 4: stable files not taken yet because they do not look complete (Ledger.setWaiting), for `docdrop status`.
  `
  CREATE TABLE waiting (
    rule   TEXT    NOT NULL,
    path   TEXT    NOT NULL,
    size   INTEGER NOT NULL,
    reason TEXT    NOT NULL,  -- 'empty' | 'incomplete'
    since  INTEGER NOT NULL,  -- ms since epoch
    until  INTEGER NOT NULL,  -- ms since epoch: taken as it is from then
    PRIMARY KEY (rule, path)
  ) STRICT;
  `,
  // 5: Maildir messages whose attachments are already in an inbox, by their unique name (Maildir has no UIDs).
  `
  CREATE TABLE maildir_messages (
    mailbox TEXT    NOT NULL,
    name    TEXT    NOT NULL,  -- the file's base name before the ":2," info
    files   TEXT    NOT NULL,  -- JSON list of the paths written
    at      INTEGER NOT NULL,
    PRIMARY KEY (mailbox, name)
  ) STRICT;
  `,
  // 6: mail a mailbox's filter did not take (recorded once, never fetched again), IMAP or Maildir, and where
  // each dropped attachment came from (from, subject, date, Message-ID), for rules whose output includes them.
  `
  ALTER TABLE mail_messages ADD COLUMN skipped TEXT;     -- why the filter left it; NULL: its files were dropped
  ALTER TABLE maildir_messages ADD COLUMN skipped TEXT;  -- the same for Maildir messages
  CREATE TABLE mail_files (
    path         TEXT    NOT NULL,  -- the attachment as dropped into the inbox
    sha256       TEXT    NOT NULL,
    mailbox      TEXT    NOT NULL,
    message      TEXT    NOT NULL,  -- "<uid_validity>-<uid>" (IMAP) or the Maildir name
    mail_from    TEXT,
    subject      TEXT,
    date         TEXT,              -- ISO 8601, from the Date header
    message_id   TEXT,
    PRIMARY KEY (path, sha256)
  ) STRICT;
  `,
];
