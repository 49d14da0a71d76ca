// Opens DATA_DIR/service.db (WAL) and brings it to the latest migration, one transaction per step.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { migrations as defaultMigrations, type Migration } from './migrations.js';

export type Db = Database.Database;

export function openDb(dataDir: string, migrations: Migration[] = defaultMigrations): Db {
  const db = new Database(join(dataDir, 'service.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, migrations);
  return db;
}

export function migrate(db: Db, migrations: Migration[]): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(`service.db is at schema version ${current}, newer than this docdrop (${migrations.length}); upgrade docdrop`);
  }
  for (let v = current; v < migrations.length; v++) {
    db.transaction(() => {
      db.exec(migrations[v].sql);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
