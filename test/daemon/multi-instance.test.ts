// Several daemons sharing one SQLite ledger file on one host (the store-neutral proof of the claims
// design; multi-instance-pg.test.ts runs the same on PostgreSQL): two and three `docdrop run` processes on
// one inbox pair, one of three killed with SIGKILL mid-run. Every input ends in the outputs exactly once
// (daily group file rows by request id, per-document files), none is lost, no claim is left held.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openLedger } from '../../src/daemon/ledger/open-ledger.js';
import { MULTI_FILES, runInstances } from './multi-instance-run.js';

const sqlite = (root: string) => openLedger({ path: join(root, 'state.db'), synchronous: 'normal' });

test('two daemons on one inbox and one SQLite ledger process every file exactly once', { timeout: 300_000 }, async (t) => {
  const report = await runInstances({ instances: 2, files: MULTI_FILES, openLedger: sqlite, diagnostic: (m) => t.diagnostic(m) });
  t.diagnostic(`done per instance: ${report.donePerInstance.join(', ')}`);
});

test('three daemons, one killed with SIGKILL mid-run: the others take over its inputs after the lease, each file exactly once', { timeout: 300_000 }, async (t) => {
  const report = await runInstances({
    instances: 3,
    files: MULTI_FILES,
    openLedger: sqlite,
    killAfterDone: Math.floor(MULTI_FILES / 4),
    diagnostic: (m) => t.diagnostic(m),
  });
  t.diagnostic(`inputs taken over: ${report.takenOver}; done per surviving instance: ${report.donePerInstance.join(', ')}`);
  assert.equal(report.donePerInstance.length, 2);
});
