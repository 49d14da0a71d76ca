// Documents and their parser_runs history: the port (DocumentsRepo) and its one SQL implementation,
// run by either engine (sql.ts).
import type { DocumentsPageKey, ParserRun, ParserRunParams } from '../../api/types.js';
import { containsPattern, type SqlExecutor } from './sql.js';

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

export interface DocumentsRepo {
  /** A ready document (multipart upload, inbound e-mail). */
  create(d: NewDocument): Promise<void>;
  /** Reserves an id for the pre-signed flow; invisible until confirmed. */
  reserve(d: { document_id: string; account_id: string; file_name: string; now: string }): Promise<void>;
  /** Turns a reservation into a ready document; false when it was not (or no longer) reserved. */
  confirm(d: { document_id: string; file_name: string; file_extension: string; num_pages: number; byte_size: number; now: string }): Promise<boolean>;
  get(documentId: string): Promise<DocumentRow | undefined>;
  /** Newest first; keyset paging on (created_at, document_id). */
  list(q: ListQuery): Promise<{ rows: DocumentRow[]; more: boolean }>;
  parserRuns(documentId: string): Promise<ParserRun[]>;
  /** Called by the jobs side when a run is accepted, so GET /v1/documents/{id} shows the history. */
  addParserRun(run: NewParserRun): Promise<void>;
  /** Text an extraction read from the document: searched by search_term, needed by standalone classify. */
  setContent(documentId: string, text: string, now: string): Promise<void>;
}

const INSERT = `INSERT INTO documents
  (document_id, account_id, state, source_name, file_name, file_extension, num_pages, meta_tags, byte_size, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** The parser_runs insert, also used inside a job's submission batch (job-store.ts). */
export function insertParserRun(run: NewParserRun): { sql: string; params: unknown[] } {
  return {
    sql: 'INSERT INTO parser_runs (document_id, template_id, template_title, request_id, params, datetime) VALUES (?, ?, ?, ?, ?, ?)',
    params: [run.document_id, run.template_id, run.template_title, run.request_id, JSON.stringify(run.params), run.datetime],
  };
}

export function createDocumentsRepo(sql: SqlExecutor): DocumentsRepo {
  return {
    async create(d) {
      await sql.run(INSERT, [d.document_id, d.account_id, 'ready', d.source_name, d.file_name, d.file_extension, d.num_pages, JSON.stringify(d.meta_tags ?? {}), d.byte_size, d.now, d.now]);
    },
    async reserve(d) {
      await sql.run(INSERT, [d.document_id, d.account_id, 'reserved', 'api', d.file_name, '', 0, '{}', 0, d.now, d.now]);
    },
    async confirm(d) {
      const changed = await sql.run(
        `UPDATE documents SET state = 'ready', file_name = ?, file_extension = ?, num_pages = ?, byte_size = ?, created_at = ?, updated_at = ?
         WHERE document_id = ? AND state = 'reserved'`,
        [d.file_name, d.file_extension, d.num_pages, d.byte_size, d.now, d.now, d.document_id],
      );
      return changed === 1;
    },
    get(documentId) {
      return sql.get<DocumentRow>('SELECT * FROM documents WHERE document_id = ?', [documentId]);
    },
    async list(q) {
      const where = ['account_id = ?', "state = 'ready'"];
      const params: unknown[] = [q.accountId];
      if (q.after) {
        where.push('(created_at < ? OR (created_at = ? AND document_id < ?))');
        params.push(q.after.created_at, q.after.created_at, q.after.document_id);
      }
      if (q.searchTerm) {
        where.push("(lower(file_name) LIKE ? ESCAPE '\\' OR lower(coalesce(content, '')) LIKE ? ESCAPE '\\')");
        const pattern = containsPattern(q.searchTerm);
        params.push(pattern, pattern);
      }
      // limit+1 tells whether more exist.
      const rows = await sql.all<DocumentRow>(
        `SELECT * FROM documents WHERE ${where.join(' AND ')} ORDER BY created_at DESC, document_id DESC LIMIT ?`,
        [...params, q.limit + 1],
      );
      return { rows: rows.slice(0, q.limit), more: rows.length > q.limit };
    },
    async parserRuns(documentId) {
      const rows = await sql.all<{ template_id: string; template_title: string; request_id: string; params: string; datetime: string }>(
        'SELECT template_id, template_title, request_id, params, datetime FROM parser_runs WHERE document_id = ? ORDER BY id',
        [documentId],
      );
      return rows.map((r) => ({ ...r, params: JSON.parse(r.params) as ParserRunParams }));
    },
    async addParserRun(run) {
      const { sql: text, params } = insertParserRun(run);
      await sql.run(text, params);
    },
    async setContent(documentId, text, now) {
      await sql.run('UPDATE documents SET content = ?, updated_at = ? WHERE document_id = ?', [text, now, documentId]);
    },
  };
}
