// The SQLite adapter: DATA_DIR/service.db (WAL), brought to the latest migration at open. better-sqlite3
// is synchronous, so each call completes before its promise is returned, in call order.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { runMigrations } from '../../shared/sqlite-migrations.js';
import { loadSecret } from './presign-key-file.js';
import { createRepos, type ServiceStore } from './service-store.js';
import { migrations as defaultMigrations, type Migration } from './sqlite-schema.js';
import type { SqlExecutor, SqlResult, SqlStatement } from './sql.js';

export function openSqliteDb(dataDir: string, migrations: Migration[] = defaultMigrations): Database.Database {
  const db = new Database(join(dataDir, 'service.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  runMigrations(db, migrations.map((m) => m.sql), 'service.db');
  return db;
}

export function sqliteExecutor(db: Database.Database): SqlExecutor {
  // Prepared once per SQL text: preparing a statement cost more than running it on every poll.
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let s = statements.get(sql);
    if (!s) statements.set(sql, (s = db.prepare(sql)));
    return s;
  };
  const exec = (s: SqlStatement): SqlResult => {
    const st = prepare(s.sql);
    const params = s.params ?? [];
    return st.reader ? { rows: st.all(...params) as Record<string, unknown>[], changes: 0 } : { rows: [], changes: st.run(...params).changes };
  };
  return {
    all: async <T>(sql: string, params: readonly unknown[] = []) => prepare(sql).all(...params) as T[],
    get: async <T>(sql: string, params: readonly unknown[] = []) => prepare(sql).get(...params) as T | undefined,
    run: async (sql, params = []) => prepare(sql).run(...params).changes,
    // IMMEDIATE: the write lock is taken before the first read, as the service's other writers do.
    batch: async (stmts) => db.transaction(() => stmts.map(exec)).immediate(),
  };
}

/** The default store: one process on one machine. The presign secret stays in DATA_DIR/presign.key. */
export function openSqliteStore(dataDir: string): ServiceStore {
  const db = openSqliteDb(dataDir);
  return {
    engine: 'sqlite',
    ...createRepos(sqliteExecutor(db)),
    presignSecret: async () => loadSecret(dataDir),
    checkWritable: async () => {
      // Writing the schema version back as it is: a real commit that changes nothing.
      db.transaction(() => db.pragma(`user_version = ${Number(db.pragma('user_version', { simple: true }))}`)).immediate();
    },
    close: async () => {
      db.close();
    },
  };
}
