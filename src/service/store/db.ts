// Opens DATA_DIR/service.db (WAL) and brings it to the latest migration, one transaction per step.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { runMigrations } from '../../shared/sqlite-migrations.js';
import { migrations as defaultMigrations, type Migration } from './migrations.js';

export type Db = Database.Database;

export function openDb(dataDir: string, migrations: Migration[] = defaultMigrations): Db {
  const db = new Database(join(dataDir, 'service.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  runMigrations(db, migrations.map((m) => m.sql), 'service.db');
  return db;
}
