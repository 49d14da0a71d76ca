// Schema of the PostgreSQL ledger and its migration runner. Numbered steps, only ever appended: step N
// brings a database from version N-1 to N. Never edit a released one; add the next. The tables and
// columns are the SQLite ledger's (src/daemon/ledger/sqlite-migrations.ts), so the adapters share their
// row mapping (ledger-rows.ts); step 1 is that schema as it stood when PostgreSQL came.
import pg from 'pg';

/** Where-clause of an active (non-final) input; ON CONFLICT must repeat the partial index's predicate. */
export const ACTIVE = `state NOT IN ('done', 'failed', 'duplicate')`;

export const MIGRATIONS: readonly string[] = [
  // 1: inputs and their events, claims, waiting files, mail bookkeeping, and the shared request rate.
  `
  CREATE TABLE inputs (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    rule            TEXT             NOT NULL,
    path            TEXT             NOT NULL,
    size            BIGINT           NOT NULL,
    mtime_ms        DOUBLE PRECISION NOT NULL,
    sha256          TEXT             NOT NULL,
    state           TEXT             NOT NULL,
    document_id     TEXT,
    request_id      TEXT,
    result          TEXT,                       -- JSON of InputResult
    attempts        INTEGER          NOT NULL DEFAULT 0,
    next_attempt_at BIGINT           NOT NULL,  -- ms since epoch
    last_error      TEXT,
    final_path      TEXT,
    created_at      BIGINT           NOT NULL,
    updated_at      BIGINT           NOT NULL
  );
  CREATE TABLE events (
    id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    input_id BIGINT NOT NULL REFERENCES inputs(id),
    at       BIGINT NOT NULL,
    kind     TEXT   NOT NULL,
    detail   TEXT                               -- JSON
  );
  CREATE INDEX events_by_input ON events(input_id, id);
  -- One active (non-final) input per rule+path, across every daemon sharing the ledger: addInput's
  -- INSERT ... ON CONFLICT relies on it.
  CREATE UNIQUE INDEX inputs_active_path ON inputs(rule, path) WHERE ${ACTIVE};
  CREATE INDEX inputs_due ON inputs(next_attempt_at, id) WHERE ${ACTIVE};
  CREATE INDEX inputs_sha ON inputs(rule, sha256, id);
  CREATE INDEX inputs_state ON inputs(state, id);
  CREATE INDEX inputs_rule ON inputs(rule, id);
  CREATE TABLE claims (
    input_id BIGINT PRIMARY KEY REFERENCES inputs(id),
    owner    TEXT   NOT NULL,
    until    BIGINT NOT NULL                    -- ms since epoch; the claim is free again from then
  );
  CREATE TABLE waiting (
    rule   TEXT    NOT NULL,
    path   TEXT    NOT NULL,
    size   BIGINT  NOT NULL,
    reason TEXT    NOT NULL,                    -- 'empty' | 'incomplete'
    since  BIGINT  NOT NULL,
    until  BIGINT  NOT NULL,
    PRIMARY KEY (rule, path)
  );
  CREATE TABLE mail_messages (
    mailbox      TEXT    NOT NULL,
    uid_validity TEXT    NOT NULL,
    uid          BIGINT  NOT NULL,
    files        TEXT    NOT NULL,              -- JSON list of the paths written
    at           BIGINT  NOT NULL,
    skipped      TEXT,                          -- why the filter left it; NULL: its files were dropped
    PRIMARY KEY (mailbox, uid_validity, uid)
  );
  CREATE TABLE maildir_messages (
    mailbox TEXT   NOT NULL,
    name    TEXT   NOT NULL,
    files   TEXT   NOT NULL,
    at      BIGINT NOT NULL,
    skipped TEXT,
    PRIMARY KEY (mailbox, name)
  );
  CREATE TABLE mail_files (
    path       TEXT NOT NULL,
    sha256     TEXT NOT NULL,
    mailbox    TEXT NOT NULL,
    message    TEXT NOT NULL,                   -- "<uid_validity>-<uid>" (IMAP) or the Maildir name
    mail_from  TEXT,
    subject    TEXT,
    date       TEXT,
    message_id TEXT,
    PRIMARY KEY (path, sha256)
  );
  -- The request rate every daemon on this ledger shares (src/daemon/pipeline/shared-rate-limit.ts).
  CREATE TABLE rate_limits (
    key     TEXT             PRIMARY KEY,       -- service base URL + a hash of the API key, never the key
    next_at DOUBLE PRECISION NOT NULL           -- ms since epoch, database clock: the next free request slot
  );
  `,
];

// Any fixed bigint; advisory locks are per database, so every ledger in it (whatever its search_path)
// takes turns migrating, which costs nothing at start.
const MIGRATION_LOCK = 0x646f6364; // "docd"

/**
 * Runs the steps the database has not had yet, under an advisory lock so that daemons starting together
 * take turns (the second finds the work done), each step in a transaction with its version row. `name`
 * labels the database (without its password) in the error for a schema newer than this docdrop, which is
 * refused rather than written to.
 */
export async function runPgMigrations(pool: pg.Pool, steps: readonly string[], name: string): Promise<void> {
  const client = await pool.connect();
  let broken: unknown;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
      const { rows } = await client.query<{ v: number }>('SELECT COALESCE(MAX(version), 0)::int AS v FROM schema_migrations');
      const current = rows[0]!.v;
      if (current > steps.length) {
        throw new Error(`${name} is at schema version ${current}, newer than this docdrop (${steps.length}); upgrade docdrop`);
      }
      for (let v = current; v < steps.length; v++) {
        await client.query('BEGIN');
        try {
          await client.query(steps[v]!);
          await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [v + 1]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw err;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch((err: unknown) => (broken = err));
    }
  } finally {
    // A connection that could not unlock is not given back to the pool (it may still hold the lock).
    client.release(broken instanceof Error ? broken : undefined);
  }
}

/** The schema version of the ledger at `url` (0 before its first start) and this docdrop's; reads only. */
export async function pgLedgerVersion(url: string): Promise<{ current: number; latest: number }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rows: [table] } = await client.query<{ t: string | null }>(`SELECT to_regclass('schema_migrations')::text AS t`);
    if (!table?.t) return { current: 0, latest: MIGRATIONS.length };
    const { rows } = await client.query<{ v: number }>('SELECT COALESCE(MAX(version), 0)::int AS v FROM schema_migrations');
    return { current: rows[0]!.v, latest: MIGRATIONS.length };
  } finally {
    await client.end();
  }
}
