// SQL for documents and their parser_runs history.
import type { Db } from './db.js';
import type { DocumentsPageKey, ParserRun, ParserRunParams } from '../../api/types.js';

export interface DocumentRow {
  document_id: string;
  account_id: string;
  state: 'reserved' | 'ready';
  source_name: string;
  file_name: string;
  file_extension: string;
  num_pages: number;
  meta_tags: string;
  content: string | null;
  byte_size: number;
  created_at: string;
  updated_at: string;
}

export interface NewDocument {
  document_id: string;
  account_id: string;
  source_name: string;
  file_name: string;
  file_extension: string;
  num_pages: number;
  byte_size: number;
  meta_tags?: Record<string, unknown>;
  now: string;
}

export interface NewParserRun {
  document_id: string;
  template_id: string;
  template_title: string;
  request_id: string;
  params: ParserRunParams;
  datetime: string;
}

export interface ListQuery {
  accountId: string;
  limit: number;
  after?: DocumentsPageKey;
  searchTerm?: string;
}

export function createDocumentsRepo(db: Db) {
  const insert = db.prepare(`INSERT INTO documents
    (document_id, account_id, state, source_name, file_name, file_extension, num_pages, meta_tags, byte_size, created_at, updated_at)
    VALUES (@document_id, @account_id, @state, @source_name, @file_name, @file_extension, @num_pages, @meta_tags, @byte_size, @now, @now)`);
  const byId = db.prepare<[string], DocumentRow>('SELECT * FROM documents WHERE document_id = ?');
  const confirm = db.prepare(`UPDATE documents SET state = 'ready', file_name = @file_name, file_extension = @file_extension,
    num_pages = @num_pages, byte_size = @byte_size, created_at = @now, updated_at = @now WHERE document_id = @document_id AND state = 'reserved'`);
  const runsOf = db.prepare<[string], { template_id: string; template_title: string; request_id: string; params: string; datetime: string }>(
    'SELECT template_id, template_title, request_id, params, datetime FROM parser_runs WHERE document_id = ? ORDER BY id',
  );
  const insertRun = db.prepare(`INSERT INTO parser_runs (document_id, template_id, template_title, request_id, params, datetime)
    VALUES (@document_id, @template_id, @template_title, @request_id, @params, @datetime)`);
  const setContent = db.prepare('UPDATE documents SET content = ?, updated_at = ? WHERE document_id = ?');

  return {
    /** A ready document (multipart upload, inbound e-mail). */
    create(d: NewDocument): void {
      insert.run({ ...d, state: 'ready', meta_tags: JSON.stringify(d.meta_tags ?? {}) });
    },
    /** Reserves an id for the pre-signed flow; invisible until confirmed. */
    reserve(d: { document_id: string; account_id: string; file_name: string; now: string }): void {
      insert.run({ ...d, state: 'reserved', source_name: 'api', file_extension: '', num_pages: 0, meta_tags: '{}', byte_size: 0 });
    },
    /** Turns a reservation into a ready document; false when it was not (or no longer) reserved. */
    confirm(d: { document_id: string; file_name: string; file_extension: string; num_pages: number; byte_size: number; now: string }): boolean {
      return confirm.run(d).changes === 1;
    },
    get(documentId: string): DocumentRow | undefined {
      return byId.get(documentId);
    },
    /** Newest first; keyset paging on (created_at, document_id). Fetches limit+1 to tell whether more exist. */
    list(q: ListQuery): { rows: DocumentRow[]; more: boolean } {
      const where = ['account_id = @accountId', "state = 'ready'"];
      const params: Record<string, unknown> = { accountId: q.accountId, limit: q.limit + 1 };
      if (q.after) {
        where.push('(created_at < @afterCreated OR (created_at = @afterCreated AND document_id < @afterId))');
        params.afterCreated = q.after.created_at;
        params.afterId = q.after.document_id;
      }
      if (q.searchTerm) {
        where.push("(instr(lower(file_name), @term) > 0 OR instr(lower(coalesce(content, '')), @term) > 0)");
        params.term = q.searchTerm.toLowerCase();
      }
      const rows = db
        .prepare<[Record<string, unknown>], DocumentRow>(
          `SELECT * FROM documents WHERE ${where.join(' AND ')} ORDER BY created_at DESC, document_id DESC LIMIT @limit`,
        )
        .all(params);
      return { rows: rows.slice(0, q.limit), more: rows.length > q.limit };
    },
    parserRuns(documentId: string): ParserRun[] {
      return runsOf.all(documentId).map((r) => ({ ...r, params: JSON.parse(r.params) as ParserRunParams }));
    },
    /** Called by the jobs side when a run is accepted, so GET /v1/documents/{id} shows the history. */
    addParserRun(run: NewParserRun): void {
      insertRun.run({ ...run, params: JSON.stringify(run.params) });
    },
    /** Text an extraction read from the document: searched by search_term, needed by standalone classify. */
    setContent(documentId: string, text: string, now: string): void {
      setContent.run(text, now, documentId);
    },
  };
}

export type DocumentsRepo = ReturnType<typeof createDocumentsRepo>;
