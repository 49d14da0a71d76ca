// Several daemons sharing one PostgreSQL ledger (state.url), each test in a database of its own: two and
// three `docdrop run` processes on one inbox pair, one killed with SIGKILL mid-run, and every database
// connection cut mid-run (pg_terminate_backend): work pauses and resumes, every input ends in the outputs
// exactly once, none is lost, no claim is left held.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openLedger } from '../../src/daemon/ledger/open-ledger.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { MULTI_FILES, runInstances } from './multi-instance-run.js';

async function withDatabase(fn: (db: TestDatabase) => Promise<void>): Promise<void> {
  const db = await createTestDatabase('multi');
  try {
    await fn(db);
  } finally {
    await db.drop();
  }
}

const onPg = (db: TestDatabase) => ({
  stateYaml: () => `{ url: "${db.url}" }`,
  openLedger: () => openLedger({ path: 'unused', synchronous: 'normal', url: db.url }),
});

test('two daemons on one inbox and one PostgreSQL ledger process every file exactly once', { timeout: 300_000 }, (t) =>
  withDatabase(async (db) => {
    const report = await runInstances({ instances: 2, files: MULTI_FILES, ...onPg(db), diagnostic: (m) => t.diagnostic(m) });
    t.diagnostic(`done per instance: ${report.donePerInstance.join(', ')}`);
  }));

test('three daemons on PostgreSQL, one killed with SIGKILL and every connection cut mid-run: each file exactly once', { timeout: 300_000 }, (t) =>
  withDatabase(async (db) => {
    let cut = 0;
    const report = await runInstances({
      instances: 3,
      files: MULTI_FILES,
      ...onPg(db),
      killAfterDone: Math.floor(MULTI_FILES / 4),
      midRun: [
        {
          afterDone: Math.floor(MULTI_FILES / 2),
          run: async () => {
            const rows = await db.query<{ ended: boolean }>(
              'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
              [db.name],
            );
            cut = rows.filter((r) => r.ended).length;
          },
        },
      ],
      diagnostic: (m) => t.diagnostic(m),
    });
    t.diagnostic(`connections cut: ${cut}; inputs taken over: ${report.takenOver}; done per surviving instance: ${report.donePerInstance.join(', ')}`);
    assert.ok(cut > 0, 'the daemons had connections to cut');
  }));
