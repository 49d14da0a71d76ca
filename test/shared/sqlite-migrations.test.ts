// The one SQLite migration runner (ledger and service.db): steps run once each, in order, and a database
// from a newer docdrop or a failing step leaves the database as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { runMigrations } from '../../src/shared/sqlite-migrations.js';

const STEPS = ['CREATE TABLE a (x INTEGER)', 'CREATE TABLE b (y INTEGER)'];
const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

test('runs only the steps a database has not had, each once, and records the version', () => {
  const db = new Database(':memory:');
  runMigrations(db, STEPS.slice(0, 1), 'test.db');
  assert.equal(db.pragma('user_version', { simple: true }), 1);
  runMigrations(db, STEPS, 'test.db');
  runMigrations(db, STEPS, 'test.db');
  assert.equal(db.pragma('user_version', { simple: true }), 2);
  assert.deepEqual(tables(db), ['a', 'b']);
  db.close();
});

test('a failing step is undone with its version bump, and the steps before it stay', () => {
  const db = new Database(':memory:');
  assert.throws(() => runMigrations(db, [...STEPS, 'CREATE TABLE c (z INTEGER); CREATE TABLE a (x INTEGER)'], 'test.db'), /already exists/);
  assert.equal(db.pragma('user_version', { simple: true }), 2);
  assert.deepEqual(tables(db), ['a', 'b']);
  db.close();
});

test('refuses a database at a newer version than the steps it knows, naming it', () => {
  const db = new Database(':memory:');
  db.pragma('user_version = 3');
  assert.throws(() => runMigrations(db, STEPS, 'service.db'), /service\.db is at schema version 3, newer than this docdrop \(2\); upgrade docdrop/);
  assert.deepEqual(tables(db), []);
  db.close();
});
