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
    // Each restart runs beside the harness's polling, not before it, so the harness itself meets the
    // refusals of a server shutting down and starting up (and must wait them out); one after the other.
    const restarts: Promise<void>[] = [];
    const restart = { run: async () => void restarts.push((restarts.at(-1) ?? Promise.resolve()).then(() => server.restart())) };
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
    await Promise.all(restarts);
    t.diagnostic(`server restarts: ${restarts.length}; done per instance: ${report.donePerInstance.join(', ')}`);
    assert.equal(restarts.length, 2, 'the server was restarted twice mid-run');
  } finally {
    await server.stop();
  }
});
