// Workflows (templates): the port (TemplatesRepo) and its one SQL implementation (sql.ts). Deletes are
// soft so paging keys and run history keep resolving.
import type { SqlExecutor } from './sql.js';
import type { ParserConfig, TemplateSchema, Workflow } from '../../api/types.js';

export interface TemplateRow {
  seq: number;
  template_id: string;
  account_id: string;
  template_title: string;
  template_type: string;
  template_category: string;
  template_schema: string;
  email_id: string;
  webhook_url: string | null;
  parser_config: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface TemplateValues {
  template_type: string;
  template_schema: TemplateSchema;
  webhook_url: string | null;
  parser_config: ParserConfig;
}

export function toWorkflow(r: TemplateRow): Workflow {
  return {
    template_id: r.template_id,
    template_title: r.template_title,
    template_type: r.template_type,
    template_category: r.template_category,
    template_schema: JSON.parse(r.template_schema) as TemplateSchema,
    email_id: r.email_id,
    webhook_url: r.webhook_url,
    parser_config: JSON.parse(r.parser_config) as ParserConfig,
    created_at: r.created_at,
  };
}

export type NewTemplate = TemplateValues & { template_id: string; account_id: string; template_title: string; template_category: string; email_id: string; now: string };

export interface TemplatesRepo {
  insert(t: NewTemplate): Promise<void>;
  /** Live templates only; a deleted one reads as missing. */
  get(templateId: string): Promise<TemplateRow | undefined>;
  /** Including deleted ones (paging keys, history). */
  getAny(templateId: string): Promise<TemplateRow | undefined>;
  /** For inbound e-mail: the live template whose email_id is this address. */
  getByEmail(address: string): Promise<TemplateRow | undefined>;
  titleTaken(accountId: string, title: string): Promise<boolean>;
  update(templateId: string, v: TemplateValues, now: string): Promise<void>;
  /** False when it was deleted already. */
  delete(templateId: string, now: string): Promise<boolean>;
  /** Creation order; afterSeq 0 = first page. */
  list(accountId: string, afterSeq: number, limit: number): Promise<{ rows: TemplateRow[]; more: boolean }>;
}

export function createTemplatesRepo(sql: SqlExecutor): TemplatesRepo {
  const byId = (id: string) => sql.get<TemplateRow>('SELECT * FROM templates WHERE template_id = ?', [id]);
  return {
    async insert(t) {
      await sql.run(
        `INSERT INTO templates (template_id, account_id, template_title, template_type, template_category,
           template_schema, email_id, webhook_url, parser_config, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [t.template_id, t.account_id, t.template_title, t.template_type, t.template_category, JSON.stringify(t.template_schema), t.email_id, t.webhook_url,
          JSON.stringify(t.parser_config), t.now, t.now],
      );
    },
    async get(templateId) {
      const r = await byId(templateId);
      return r && !r.deleted_at ? r : undefined;
    },
    getAny: byId,
    getByEmail(address) {
      return sql.get<TemplateRow>('SELECT * FROM templates WHERE lower(email_id) = lower(?) AND deleted_at IS NULL', [address]);
    },
    async titleTaken(accountId, title) {
      return (await sql.get('SELECT 1 AS n FROM templates WHERE account_id = ? AND template_title = ? AND deleted_at IS NULL', [accountId, title])) !== undefined;
    },
    async update(templateId, v, now) {
      await sql.run(
        'UPDATE templates SET template_type = ?, template_schema = ?, webhook_url = ?, parser_config = ?, updated_at = ? WHERE template_id = ?',
        [v.template_type, JSON.stringify(v.template_schema), v.webhook_url, JSON.stringify(v.parser_config), now, templateId],
      );
    },
    async delete(templateId, now) {
      return (await sql.run('UPDATE templates SET deleted_at = ? WHERE template_id = ? AND deleted_at IS NULL', [now, templateId])) === 1;
    },
    async list(accountId, afterSeq, limit) {
      // limit+1 tells whether more exist.
      const rows = await sql.all<TemplateRow>('SELECT * FROM templates WHERE account_id = ? AND deleted_at IS NULL AND seq > ? ORDER BY seq LIMIT ?', [accountId, afterSeq, limit + 1]);
      return { rows: rows.slice(0, limit), more: rows.length > limit };
    },
  };
}
