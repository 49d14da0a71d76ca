// Two daemons sharing one PostgreSQL ledger on a private server (its own cluster and port) that is really
// restarted twice mid-run (`pg_ctl restart -m fast`): every connection dropped, "shutting down" and
// "starting up" refusals in between. Work pauses and resumes; every input ends in the outputs exactly
// once, none is lost, no claim is left held.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openLedger } from '../../src/daemon/ledger/open-ledger.js';
import { startPrivatePostgres } from '../helpers/private-postgres.js';
import { MULTI_FILES, runInstances } from './multi-instance-run.js';

test('two daemons on PostgreSQL, the server restarted twice mid-run: each file exactly once, no claim left', { timeout: 300_000 }, async (t) => {
  const server = await startPrivatePostgres();
  try {
    let restarts = 0;
    const restart = { run: async () => void (await server.restart(), restarts++) };
    const report = await runInstances({
      instances: 2,
      files: MULTI_FILES,
      stateYaml: () => `{ url: "${server.url}" }`,
      openLedger: () => openLedger({ path: 'unused', synchronous: 'normal', url: server.url }),
      midRun: [
        { afterDone: Math.floor(MULTI_FILES / 3), ...restart },
        { afterDone: Math.floor((MULTI_FILES * 2) / 3), ...restart },
      ],
      diagnostic: (m) => t.diagnostic(m),
    });
    t.diagnostic(`server restarts: ${restarts}; done per instance: ${report.donePerInstance.join(', ')}`);
    assert.equal(restarts, 2, 'the server was restarted twice mid-run');
  } finally {
    await server.stop();
  }
});
