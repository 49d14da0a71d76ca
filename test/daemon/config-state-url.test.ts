// state.url: a PostgreSQL ledger instead of the SQLite file; exclusive with state.path, expanded from the
// environment like any value, and never printed with its password.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeConfig, parseConfig } from '../../src/daemon/config/config.js';
import { describeLedger } from '../../src/daemon/ledger/open-ledger.js';
import { restartOnlyChanges } from '../../src/daemon/reload/config-changes.js';
import { BASE, problems } from './config-problems.js';

const rules = `rules:\n  - name: invoices\n    watch: ./in\n    workflow: Invoices\n`;

test('state.url selects PostgreSQL: ${ENV} expanded, path kept at its default for local files, no SQLite files ignored', () => {
  const c = parseConfig(`state:\n  url: postgres://docdrop:\${PGPASS}@db.local:5432/docdrop\n${rules}`, { baseDir: BASE, env: { PGPASS: 's3cret' } });
  assert.equal(c.state.url, 'postgres://docdrop:s3cret@db.local:5432/docdrop');
  assert.equal(c.state.path, '/srv/docdrop/config/var/state.db', 'its folder still holds the mail work folder and embedded key');
  assert.ok(!c.ignore_paths.some((p) => p.startsWith('/srv/docdrop/config/var/state.db')), 'no SQLite files to ignore');
  assert.equal(describeLedger(c.state), 'postgres://***@db.local:5432/docdrop');
  assert.doesNotMatch(JSON.stringify(describeConfig(c)), /s3cret/);
  const sqlite = parseConfig(rules, { baseDir: BASE, env: {} });
  assert.equal(sqlite.state.url, undefined);
  assert.equal(describeLedger(sqlite.state), '/srv/docdrop/config/var/state.db');
});

test('state.path and state.url together, or a URL that is not postgres://, are refused without echoing a password', () => {
  assert.deepEqual(problems(`state:\n  path: ./var/x.db\n  url: postgres://u@h/d\n${rules}`), [
    'state: set path (a SQLite file) or url (a PostgreSQL database), not both',
  ]);
  const p = problems(`state:\n  url: mysql://u:hunter2@h/d\n${rules}`);
  assert.equal(p.length, 1);
  assert.match(p[0]!, /^state\.url: expected a postgres:\/\/ or postgresql:\/\/ URL, got "mysql:\/\/\*\*\*@h\/d"$/);
  assert.equal(parseConfig(`state:\n  url: postgresql://u@h/d\n${rules}`, { baseDir: BASE, env: {} }).state.url, 'postgresql://u@h/d');
});

test('a reload cannot move the ledger to another database', () => {
  const a = parseConfig(`state:\n  url: postgres://u@h/one\n${rules}`, { baseDir: BASE, env: {} });
  const b = parseConfig(`state:\n  url: postgres://u@h/two\n${rules}`, { baseDir: BASE, env: {} });
  assert.match(restartOnlyChanges(a, b).join('\n'), /^state\.url: cannot change while the daemon runs/);
});
