// Schema of the service's PostgreSQL store: the tables of sqlite-schema.ts with PostgreSQL types, plus
// the shared secrets table. Numbered and append-only (step N is the array position + 1): never edit a
// shipped entry, add a new one. Ids, timestamps and titles are compared byte-wise (COLLATE "C") as
// SQLite compares them, whatever the database's default collation: paging orders by them.
export const POSTGRES_MIGRATIONS: readonly { name: string; sql: string }[] = [
  {
    name: 'documents, parser_runs, templates, classifiers, jobs, webhook_deliveries, service_secrets',
    sql: `
      CREATE TABLE documents (
        document_id    TEXT COLLATE "C" PRIMARY KEY,
        account_id     TEXT COLLATE "C" NOT NULL,
        state          TEXT NOT NULL CHECK (state IN ('reserved', 'ready')),
        source_name    TEXT NOT NULL,
        file_name      TEXT NOT NULL,
        file_extension TEXT NOT NULL DEFAULT '',
        num_pages      INTEGER NOT NULL DEFAULT 0,
        meta_tags      TEXT NOT NULL DEFAULT '{}',
        content        TEXT,
        byte_size      BIGINT NOT NULL DEFAULT 0,
        created_at     TEXT COLLATE "C" NOT NULL,
        updated_at     TEXT COLLATE "C" NOT NULL
      );
      CREATE INDEX documents_account_page ON documents (account_id, state, created_at DESC, document_id DESC);

      CREATE TABLE parser_runs (
        id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        document_id    TEXT COLLATE "C" NOT NULL REFERENCES documents(document_id) ON DELETE CASCADE,
        template_id    TEXT COLLATE "C" NOT NULL,
        template_title TEXT NOT NULL,
        request_id     TEXT COLLATE "C" NOT NULL,
        params         TEXT NOT NULL DEFAULT '{}',
        datetime       TEXT COLLATE "C" NOT NULL
      );
      CREATE INDEX parser_runs_document ON parser_runs (document_id, id);

      CREATE TABLE templates (
        seq               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        template_id       TEXT COLLATE "C" NOT NULL UNIQUE,
        account_id        TEXT COLLATE "C" NOT NULL,
        template_title    TEXT COLLATE "C" NOT NULL,
        template_type     TEXT NOT NULL,
        template_category TEXT NOT NULL,
        template_schema   TEXT NOT NULL,
        email_id          TEXT NOT NULL UNIQUE,
        webhook_url       TEXT,
        parser_config     TEXT NOT NULL,
        created_at        TEXT COLLATE "C" NOT NULL,
        updated_at        TEXT COLLATE "C" NOT NULL,
        deleted_at        TEXT
      );
      CREATE UNIQUE INDEX templates_title ON templates (account_id, template_title) WHERE deleted_at IS NULL;
      CREATE INDEX templates_account ON templates (account_id, seq);
      CREATE INDEX templates_email ON templates (lower(email_id)) WHERE deleted_at IS NULL;

      CREATE TABLE classifiers (
        seq           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        classifier_id TEXT COLLATE "C" NOT NULL UNIQUE,
        account_id    TEXT COLLATE "C" NOT NULL,
        name          TEXT NOT NULL,
        configs       TEXT NOT NULL,
        created_at    TEXT COLLATE "C" NOT NULL,
        updated_at    TEXT COLLATE "C" NOT NULL,
        deleted_at    TEXT
      );
      CREATE INDEX classifiers_account ON classifiers (account_id, seq);

      CREATE TABLE jobs (
        request_id TEXT COLLATE "C" PRIMARY KEY,
        account TEXT COLLATE "C" NOT NULL,
        document_id TEXT COLLATE "C" NOT NULL,
        template_id TEXT COLLATE "C",
        template_title TEXT,
        template_type TEXT,
        classifier_id TEXT COLLATE "C",
        submitted_via TEXT NOT NULL CHECK (submitted_via IN ('run_parser', 'extract')),
        params TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'completed', 'failed', 'exception')),
        result TEXT,
        user_error_msg TEXT,
        classification TEXT,
        confidence_scores TEXT,
        classify_credits DOUBLE PRECISION NOT NULL DEFAULT 0,
        credits_used DOUBLE PRECISION NOT NULL DEFAULT 0,
        engine TEXT,
        selected_pages_file TEXT,
        created_at TEXT COLLATE "C" NOT NULL,
        updated_at TEXT COLLATE "C" NOT NULL
      );
      CREATE INDEX jobs_unfinished ON jobs (status) WHERE status IN ('pending', 'processing');
      CREATE INDEX jobs_by_template ON jobs (account, template_id, created_at);

      CREATE TABLE webhook_deliveries (
        delivery_id TEXT COLLATE "C" PRIMARY KEY,
        account TEXT COLLATE "C" NOT NULL,
        request_id TEXT COLLATE "C" NOT NULL,
        url TEXT NOT NULL,
        body TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT NOT NULL,
        last_error TEXT,
        last_status INTEGER,
        created_at TEXT COLLATE "C" NOT NULL,
        updated_at TEXT COLLATE "C" NOT NULL
      );
      CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_request ON webhook_deliveries (request_id);

      -- Secrets every serve process must share (the pre-signed URL key), written once by whichever starts first.
      CREATE TABLE service_secrets (
        name  TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
];
