// Saved Classifiers: the port (ClassifiersRepo) and its one SQL implementation (sql.ts). Settings live as
// one JSON column (`configs`), as the wire shape nests them.
import type { SqlExecutor } from './sql.js';
import type { Classifier, ClassifierConfigs } from '../../api/types.js';

export interface ClassifierRow {
  seq: number;
  classifier_id: string;
  account_id: string;
  name: string;
  configs: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export function toClassifier(r: ClassifierRow): Classifier {
  return {
    classifier_id: r.classifier_id,
    name: r.name,
    user_id: r.account_id,
    configs: JSON.parse(r.configs) as ClassifierConfigs,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export interface ClassifiersRepo {
  insert(c: { classifier_id: string; account_id: string; name: string; configs: ClassifierConfigs; now: string }): Promise<void>;
  /** Live Classifiers only; a deleted one reads as missing. */
  get(classifierId: string): Promise<ClassifierRow | undefined>;
  /** Including deleted ones (paging keys). */
  getAny(classifierId: string): Promise<ClassifierRow | undefined>;
  update(classifierId: string, name: string, configs: ClassifierConfigs, now: string): Promise<void>;
  /** False when it was deleted already. */
  delete(classifierId: string, now: string): Promise<boolean>;
  /** Creation order; afterSeq 0 = first page. */
  list(accountId: string, afterSeq: number, limit: number): Promise<{ rows: ClassifierRow[]; more: boolean }>;
}

export function createClassifiersRepo(sql: SqlExecutor): ClassifiersRepo {
  const byId = (id: string) => sql.get<ClassifierRow>('SELECT * FROM classifiers WHERE classifier_id = ?', [id]);
  return {
    async insert(c) {
      await sql.run('INSERT INTO classifiers (classifier_id, account_id, name, configs, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
        c.classifier_id, c.account_id, c.name, JSON.stringify(c.configs), c.now, c.now,
      ]);
    },
    async get(classifierId) {
      const r = await byId(classifierId);
      return r && !r.deleted_at ? r : undefined;
    },
    getAny: byId,
    async update(classifierId, name, configs, now) {
      await sql.run('UPDATE classifiers SET name = ?, configs = ?, updated_at = ? WHERE classifier_id = ?', [name, JSON.stringify(configs), now, classifierId]);
    },
    async delete(classifierId, now) {
      return (await sql.run('UPDATE classifiers SET deleted_at = ? WHERE classifier_id = ? AND deleted_at IS NULL', [now, classifierId])) === 1;
    },
    async list(accountId, afterSeq, limit) {
      // limit+1 tells whether more exist.
      const rows = await sql.all<ClassifierRow>('SELECT * FROM classifiers WHERE account_id = ? AND deleted_at IS NULL AND seq > ? ORDER BY seq LIMIT ?', [accountId, afterSeq, limit + 1]);
      return { rows: rows.slice(0, limit), more: rows.length > limit };
    },
  };
}
