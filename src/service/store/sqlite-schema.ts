// Schema of service.db (SQLite). Numbered and append-only: never edit a shipped entry, add a new one.
// Every table, the jobs tables included, is created here; the number is the array position + 1.
// postgres-schema.ts holds the same tables for PostgreSQL: a change here needs its twin there.
export interface Migration {
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  {
    name: 'documents, parser_runs, templates, classifiers',
    sql: `
      CREATE TABLE documents (
        document_id    TEXT PRIMARY KEY,
        account_id     TEXT NOT NULL,
        -- 'reserved': upload_url issued, bytes not yet confirmed; 'ready': visible in the API
        state          TEXT NOT NULL CHECK (state IN ('reserved', 'ready')),
        source_name    TEXT NOT NULL,
        file_name      TEXT NOT NULL,
        file_extension TEXT NOT NULL DEFAULT '',
        num_pages      INTEGER NOT NULL DEFAULT 0,
        meta_tags      TEXT NOT NULL DEFAULT '{}',
        -- text read by an earlier extraction (filled by the jobs side); NULL until then
        content        TEXT,
        byte_size      INTEGER NOT NULL DEFAULT 0,
        created_at     TEXT NOT NULL,
        updated_at     TEXT NOT NULL
      );
      CREATE INDEX documents_account_page ON documents (account_id, state, created_at DESC, document_id DESC);

      CREATE TABLE parser_runs (
        id             INTEGER PRIMARY KEY,
        document_id    TEXT NOT NULL REFERENCES documents(document_id) ON DELETE CASCADE,
        template_id    TEXT NOT NULL,
        template_title TEXT NOT NULL,
        request_id     TEXT NOT NULL,
        params         TEXT NOT NULL DEFAULT '{}',
        datetime       TEXT NOT NULL
      );
      CREATE INDEX parser_runs_document ON parser_runs (document_id, id);

      CREATE TABLE templates (
        seq               INTEGER PRIMARY KEY,
        template_id       TEXT NOT NULL UNIQUE,
        account_id        TEXT NOT NULL,
        template_title    TEXT NOT NULL,
        template_type     TEXT NOT NULL,
        template_category TEXT NOT NULL,
        template_schema   TEXT NOT NULL,
        email_id          TEXT NOT NULL UNIQUE,
        webhook_url       TEXT,
        parser_config     TEXT NOT NULL,
        created_at        TEXT NOT NULL,
        updated_at        TEXT NOT NULL,
        -- soft delete: the row stays so paging keys and parser_runs history keep resolving
        deleted_at        TEXT
      );
      CREATE UNIQUE INDEX templates_title ON templates (account_id, template_title) WHERE deleted_at IS NULL;
      CREATE INDEX templates_account ON templates (account_id, seq);

      CREATE TABLE classifiers (
        seq           INTEGER PRIMARY KEY,
        classifier_id TEXT NOT NULL UNIQUE,
        account_id    TEXT NOT NULL,
        name          TEXT NOT NULL,
        configs       TEXT NOT NULL,
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        deleted_at    TEXT
      );
      CREATE INDEX classifiers_account ON classifiers (account_id, seq);
    `,
  },
  {
    // src/service/store/job-store.ts: one row per request_id; params/result/confidence_scores are JSON.
    name: 'jobs',
    sql: `
      CREATE TABLE jobs (
        request_id TEXT PRIMARY KEY,
        account TEXT NOT NULL,
        document_id TEXT NOT NULL,
        template_id TEXT,
        template_title TEXT,
        template_type TEXT,
        classifier_id TEXT,
        submitted_via TEXT NOT NULL CHECK (submitted_via IN ('run_parser', 'extract')),
        params TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'completed', 'failed', 'exception')),
        result TEXT,
        user_error_msg TEXT,
        classification TEXT,
        confidence_scores TEXT,
        classify_credits REAL NOT NULL DEFAULT 0,
        credits_used REAL NOT NULL DEFAULT 0,
        engine TEXT,
        selected_pages_file TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX jobs_unfinished ON jobs (status) WHERE status IN ('pending', 'processing');
      CREATE INDEX jobs_by_template ON jobs (account, template_id, created_at);
    `,
  },
  {
    // src/service/store/webhook-deliveries-repo.ts: the webhook ledger. One row per delivery; `body` is the
    // exact bytes sent (and signed) on every attempt. The secret is not stored: it derives from the API key.
    name: 'webhook_deliveries',
    sql: `
      CREATE TABLE webhook_deliveries (
        delivery_id TEXT PRIMARY KEY,
        account TEXT NOT NULL,
        request_id TEXT NOT NULL,
        url TEXT NOT NULL,
        body TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        -- epoch milliseconds of the next attempt while pending
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT,
        last_status INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_request ON webhook_deliveries (request_id);
    `,
  },
];
