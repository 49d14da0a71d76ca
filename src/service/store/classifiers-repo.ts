// SQL for saved Classifiers. Settings live as one JSON column (`configs`), as the wire shape nests them.
import type { Db } from './db.js';
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

export function createClassifiersRepo(db: Db) {
  const insert = db.prepare(`INSERT INTO classifiers (classifier_id, account_id, name, configs, created_at, updated_at)
    VALUES (@classifier_id, @account_id, @name, @configs, @now, @now)`);
  const byId = db.prepare<[string], ClassifierRow>('SELECT * FROM classifiers WHERE classifier_id = ?');
  const update = db.prepare('UPDATE classifiers SET name = @name, configs = @configs, updated_at = @now WHERE classifier_id = @classifier_id');
  const remove = db.prepare('UPDATE classifiers SET deleted_at = ? WHERE classifier_id = ? AND deleted_at IS NULL');
  const page = db.prepare<[string, number, number], ClassifierRow>(
    'SELECT * FROM classifiers WHERE account_id = ? AND deleted_at IS NULL AND seq > ? ORDER BY seq LIMIT ?',
  );

  return {
    insert(c: { classifier_id: string; account_id: string; name: string; configs: ClassifierConfigs; now: string }): void {
      insert.run({ ...c, configs: JSON.stringify(c.configs) });
    },
    get(classifierId: string): ClassifierRow | undefined {
      const r = byId.get(classifierId);
      return r && !r.deleted_at ? r : undefined;
    },
    getAny(classifierId: string): ClassifierRow | undefined {
      return byId.get(classifierId);
    },
    update(classifierId: string, name: string, configs: ClassifierConfigs, now: string): void {
      update.run({ classifier_id: classifierId, name, configs: JSON.stringify(configs), now });
    },
    delete(classifierId: string, now: string): boolean {
      return remove.run(now, classifierId).changes === 1;
    },
    list(accountId: string, afterSeq: number, limit: number): { rows: ClassifierRow[]; more: boolean } {
      const rows = page.all(accountId, afterSeq, limit + 1);
      return { rows: rows.slice(0, limit), more: rows.length > limit };
    },
  };
}

export type ClassifiersRepo = ReturnType<typeof createClassifiersRepo>;
