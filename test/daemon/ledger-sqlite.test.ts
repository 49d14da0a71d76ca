import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { openSqliteLedger } from '../../src/daemon/ledger/sqlite-ledger.js';
import { FINAL_STATES } from '../../src/daemon/ledger/ledger.js';
import { ACTIVE, MIGRATIONS } from '../../src/daemon/ledger/sqlite-migrations.js';
import { runMigrations } from '../../src/shared/sqlite-migrations.js';
import { ledgerConformance } from './ledger-conformance.js';

const dir = await mkdtemp(join(tmpdir(), 'docdrop-ledger-'));
after(() => rm(dir, { recursive: true, force: true }));
let n = 0;

ledgerConformance(
  'sqlite',
  (opts) => openSqliteLedger(join(dir, `conf-${++n}.db`), opts),
  async (opts) => {
    const path = join(dir, `pair-${++n}.db`);
    return [await openSqliteLedger(path, opts), await openSqliteLedger(path, opts)];
  },
);

test('opens in WAL mode at the latest schema version and migrates only once', async () => {
  const path = join(dir, 'pragmas.db');
  const ledger = await openSqliteLedger(path);
  await ledger.close();
  const db = new Database(path, { readonly: true });
  try {
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
  } finally {
    db.close();
  }
  const again = await openSqliteLedger(path);
  assert.equal((await again.list({})).length, 0, 'reopening runs no migration twice');
  await again.close();
});

test('writes asked for in the same turn commit together, and a failing one undoes only itself', async () => {
  const path = join(dir, 'group-commit.db');
  const ledger = await openSqliteLedger(path);
  const input = (name: string) => ({ rule: 'r', path: `/in/${name}.pdf`, size: 1, mtimeMs: 1, sha256: name });
  const [a, b] = await Promise.all([ledger.addInput(input('a')), ledger.addInput(input('b'))]);
  const outcomes = await Promise.allSettled([
    ledger.transition(a.record.id, 'queued', 'uploaded', { documentId: 'doc-a' }),
    ledger.transition(b.record.id, 'submitted', 'extracted', {}), // b is queued: a conflict
    ledger.recordAttempt(b.record.id, { attempts: 1, lastError: 'busy' }),
  ]);
  assert.equal(outcomes[0].status, 'fulfilled');
  assert.equal(outcomes[1].status, 'rejected');
  assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /is queued, not submitted/);
  assert.equal(outcomes[2].status, 'fulfilled');
  await ledger.close();
  const again = await openSqliteLedger(path);
  assert.equal((await again.get(a.record.id))?.documentId, 'doc-a', 'the good write was committed');
  const bNow = await again.get(b.record.id);
  assert.equal(bNow?.state, 'queued');
  assert.equal(bNow?.lastError, 'busy', 'the write after the failed one was committed too');
  assert.deepEqual((await again.events(b.record.id)).map((e) => e.kind), ['queued', 'error'], 'the failed write left no event');
  await again.close();
});

test('the frozen where-clause of the partial indexes names exactly the final states', () => {
  assert.equal(ACTIVE, `state NOT IN (${FINAL_STATES.map((s) => `'${s}'`).join(', ')})`);
});

test('a ledger from before claims (schema 2) gains them on open and keeps its inputs and mail', async () => {
  const path = join(dir, 'schema-2.db');
  const db = new Database(path);
  runMigrations(db, MIGRATIONS.slice(0, 2), 'old ledger');
  db.prepare(`INSERT INTO inputs (rule, path, size, mtime_ms, sha256, state, next_attempt_at, created_at, updated_at)
              VALUES ('r', '/in/a.pdf', 1, 1, 'sha', 'submitted', 0, 0, 0)`).run();
  db.prepare(`INSERT INTO mail_messages (mailbox, uid_validity, uid, files, at) VALUES ('ap', '7', 3, '[]', 0)`).run();
  db.close();
  const ledger = await openSqliteLedger(path);
  try {
    assert.equal(ledger.readPragma('user_version'), MIGRATIONS.length);
    assert.equal((await ledger.get(1))?.state, 'submitted');
    assert.equal(await ledger.lastMailUid('ap', '7'), 3);
    assert.equal((await ledger.claim(1, 'daemon-a', 1000))?.owner, 'daemon-a');
  } finally {
    await ledger.close();
  }
});

test('refuses a database written by a newer docdrop', async () => {
  const path = join(dir, 'newer.db');
  const db = new Database(path);
  db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
  db.close();
  await assert.rejects(openSqliteLedger(path), /newer than this docdrop/);
});

test('keeps every committed transition when the writing process is killed with SIGKILL', async () => {
  const path = join(dir, 'killed.db');
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fixtures/ledger-writer.ts', import.meta.url)), path], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const reported: [number, string][] = [];
  let buf = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  child.stdout.on('data', (chunk: Buffer) => {
    buf += chunk.toString();
    const lines = buf.split('\n');
    buf = lines.pop() ?? '';
    for (const line of lines) {
      const [id, state] = line.split(' ');
      reported.push([Number(id), state]);
    }
    // Kill at an arbitrary point mid-flow, after a few hundred commits.
    if (reported.length >= 400 && child.exitCode === null) child.kill('SIGKILL');
  });
  await exited;
  assert.equal(child.signalCode, 'SIGKILL');
  assert.ok(reported.length >= 400);

  const ledger = await openSqliteLedger(path);
  try {
    const byId = new Map<number, string[]>();
    for (const [id, state] of reported) byId.set(id, [...(byId.get(id) ?? []), state]);
    for (const [id, states] of byId) {
      const kinds = (await ledger.events(id)).map((e) => e.kind);
      assert.deepEqual(kinds.slice(0, states.length), states, `input ${id} lost a committed transition`);
      const rec = await ledger.get(id);
      assert.equal(rec?.state, kinds.at(-1), 'row and event log agree');
    }
  } finally {
    await ledger.close();
  }
});
