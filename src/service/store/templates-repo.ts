// SQL for Workflows (templates). Deletes are soft so paging keys and run history keep resolving.
import type { Db } from './db.js';
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

export function createTemplatesRepo(db: Db) {
  const insert = db.prepare(`INSERT INTO templates (template_id, account_id, template_title, template_type, template_category,
    template_schema, email_id, webhook_url, parser_config, created_at, updated_at)
    VALUES (@template_id, @account_id, @template_title, @template_type, @template_category,
    @template_schema, @email_id, @webhook_url, @parser_config, @now, @now)`);
  const byId = db.prepare<[string], TemplateRow>('SELECT * FROM templates WHERE template_id = ?');
  const byEmail = db.prepare<[string], TemplateRow>('SELECT * FROM templates WHERE lower(email_id) = lower(?) AND deleted_at IS NULL');
  const titleTaken = db.prepare<[string, string], { n: number }>(
    'SELECT 1 AS n FROM templates WHERE account_id = ? AND template_title = ? AND deleted_at IS NULL',
  );
  const update = db.prepare(`UPDATE templates SET template_type = @template_type, template_schema = @template_schema,
    webhook_url = @webhook_url, parser_config = @parser_config, updated_at = @now WHERE template_id = @template_id`);
  const remove = db.prepare('UPDATE templates SET deleted_at = ? WHERE template_id = ? AND deleted_at IS NULL');
  const page = db.prepare<[string, number, number], TemplateRow>(
    'SELECT * FROM templates WHERE account_id = ? AND deleted_at IS NULL AND seq > ? ORDER BY seq LIMIT ?',
  );

  return {
    insert(t: TemplateValues & { template_id: string; account_id: string; template_title: string; template_category: string; email_id: string; now: string }): void {
      insert.run({ ...t, template_schema: JSON.stringify(t.template_schema), parser_config: JSON.stringify(t.parser_config) });
    },
    /** Live templates only; a deleted one reads as missing. */
    get(templateId: string): TemplateRow | undefined {
      const r = byId.get(templateId);
      return r && !r.deleted_at ? r : undefined;
    },
    /** Including deleted ones (paging keys, history). */
    getAny(templateId: string): TemplateRow | undefined {
      return byId.get(templateId);
    },
    /** For inbound e-mail: the live template whose email_id is this address. */
    getByEmail(address: string): TemplateRow | undefined {
      return byEmail.get(address);
    },
    titleTaken(accountId: string, title: string): boolean {
      return titleTaken.get(accountId, title) !== undefined;
    },
    update(templateId: string, v: TemplateValues, now: string): void {
      update.run({ ...v, template_id: templateId, template_schema: JSON.stringify(v.template_schema), parser_config: JSON.stringify(v.parser_config), now });
    },
    delete(templateId: string, now: string): boolean {
      return remove.run(now, templateId).changes === 1;
    },
    /** Creation order; afterSeq 0 = first page. Fetches limit+1 to tell whether more exist. */
    list(accountId: string, afterSeq: number, limit: number): { rows: TemplateRow[]; more: boolean } {
      const rows = page.all(accountId, afterSeq, limit + 1);
      return { rows: rows.slice(0, limit), more: rows.length > limit };
    },
  };
}

export type TemplatesRepo = ReturnType<typeof createTemplatesRepo>;
