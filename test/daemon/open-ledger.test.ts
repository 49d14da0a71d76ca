// Every command opens its ledger through openLedger(config.state), so the `state` settings take effect:
// `state.synchronous` reaches SQLite both when a command opens the ledger and in the running daemon.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { openLedger } from '../../src/daemon/ledger/open-ledger.js';
import { SqliteLedger } from '../../src/daemon/ledger/sqlite-ledger.js';
import { silentLogger } from '../../src/shared/logger.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, tempTree, writeConfig, type TempTree } from './pipeline-fixtures.js';

let svc: TestService;
let tree: TempTree;
before(async () => {
  svc = await startTestService();
  await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
  tree = await tempTree('docdrop-open-ledger-');
});
after(async () => {
  await svc?.close();
  await tree?.cleanup();
});

/** The config a daemon would load, with `synchronous` added under `state:` (or the default left). */
async function configWith(synchronous?: 'normal' | 'full') {
  const yaml = configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]! });
  const withSync = synchronous ? yaml.replace(/^state:\n/m, `state:\n  synchronous: ${synchronous}\n`) : yaml;
  assert.ok(!synchronous || withSync !== yaml);
  return (await writeConfig(tree.root, withSync)).config;
}

async function synchronousOf(state: Awaited<ReturnType<typeof configWith>>['state']): Promise<unknown> {
  const ledger = await openLedger(state);
  try {
    assert.ok(ledger instanceof SqliteLedger);
    return ledger.readPragma('synchronous');
  } finally {
    await ledger.close();
  }
}

test('state.synchronous: full reaches SQLite through openLedger (PRAGMA synchronous reads 2)', async () => {
  assert.equal(await synchronousOf((await configWith('full')).state), 2);
});

test('state.synchronous: normal, and the default, reach SQLite as PRAGMA synchronous 1', async () => {
  assert.equal(await synchronousOf((await configWith('normal')).state), 1);
  assert.equal(await synchronousOf((await configWith()).state), 1);
});

test('the running daemon opens its ledger with the configured synchronous', async () => {
  const daemon = await startDaemon(await configWith('full'), { logger: silentLogger });
  try {
    assert.ok(daemon.ledger instanceof SqliteLedger);
    assert.equal(daemon.ledger.readPragma('synchronous'), 2);
  } finally {
    await daemon.stop();
  }
});
