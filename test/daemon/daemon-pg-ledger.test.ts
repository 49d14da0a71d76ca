// A daemon whose config says `state: { url: postgres://... }` keeps its ledger in PostgreSQL: every
// command's openLedger gets the PostgreSQL adapter, and the running daemon takes a file through to done.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { stateChecks } from '../../src/cli/doctor-local-checks.js';
import { parseConfig } from '../../src/daemon/config/config.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { openLedger } from '../../src/daemon/ledger/open-ledger.js';
import { PgLedger } from '../../src/daemon/ledger/pg-ledger.js';
import { silentLogger } from '../../src/shared/logger.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { configYaml, invoicePdf, invoiceTemplate, listFiles, numberedInvoice, tempTree, waitFor, writeConfig, type TempTree } from './pipeline-fixtures.js';

let svc: TestService;
let tree: TempTree;
let db: TestDatabase;
before(async () => {
  [svc, tree, db] = await Promise.all([startTestService(), tempTree('docdrop-pg-daemon-'), createTestDatabase('pgledger')]);
  await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
});
after(async () => {
  await svc?.close();
  await tree?.cleanup();
  await db?.drop();
});

test('state.url: the daemon keeps its ledger in PostgreSQL and takes a file to done; status reads it there', async () => {
  const yaml = configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]! }).replace(/^state:\n {2}path: .*$/m, `state:\n  url: ${db.url}`);
  assert.match(yaml, /url: postgres/);
  const { config } = await writeConfig(tree.root, yaml);
  for (const r of config.rules) await mkdir(r.watch, { recursive: true });
  const daemon = await startDaemon(config, { logger: silentLogger });
  try {
    assert.ok(daemon.ledger instanceof PgLedger);
    await writeFile(join(config.rules[0]!.watch, 'inv-1.pdf'), await invoicePdf({ number: 'INV-PG-1', total: '12.50', date: '2026-11-03' }));
    await waitFor('the input done', async () => (await daemon.ledger.countByState()).done === 1);
  } finally {
    await daemon.stop();
  }
  const reader = await openLedger(config.state);
  try {
    assert.ok(reader instanceof PgLedger, 'commands open the same PostgreSQL ledger');
    const [input] = await reader.list({});
    assert.equal(input?.state, 'done');
    const kinds = (await reader.events(input!.id)).map((e) => e.kind).filter((k) => k !== 'attempt'); // 'attempt': a poll that found the job running
    assert.deepEqual(kinds, ['queued', 'uploaded', 'submitted', 'extracted', 'written', 'done']);
  } finally {
    await reader.close();
  }
});

test('doctor checks a state.url read only: it answers (schema 0 before the first start), or fails without the password', async () => {
  const url = new URL(await db.freshSchema());
  const config = (u: URL) => parseConfig(`state:\n  url: "${u.href}"\nrules:\n  - { name: r, watch: ./in, workflow: W }\n`, { baseDir: tree.root, env: {} });
  const [fresh] = await stateChecks(config(url));
  assert.equal(fresh?.status, 'pass');
  assert.match(fresh!.detail, /answers \(schema version 0 of \d+; the daemon migrates it at start\)/);
  const down = new URL(url.href);
  down.port = '1';
  down.password = 'hunter2';
  const [failed] = await stateChecks(config(down));
  assert.equal(failed?.status, 'fail');
  assert.doesNotMatch(failed!.detail, /hunter2/);
});

test('the daemon rides out its database connections being ended again and again: every file done once, one output each', async () => {
  const root = join(tree.root, 'chaos');
  await mkdir(root);
  const url = await db.freshSchema();
  const yaml = configYaml({ root, baseUrl: svc.url, apiKey: svc.keys[0]! }).replace(/^state:\n {2}path: .*$/m, `state:\n  url: "${url}"`);
  const { config } = await writeConfig(root, yaml);
  for (const r of config.rules) await mkdir(r.watch, { recursive: true });
  const daemon = await startDaemon(config, { logger: silentLogger });
  // What a database restart does to the daemon's connections, every 300 ms while the files go through.
  let ending = true;
  let ended = 0;
  const chaos = (async () => {
    while (ending) {
      const rows = await db.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      ended += rows.length;
      await new Promise((r) => setTimeout(r, 300));
    }
  })();
  const files = 8;
  try {
    for (let i = 1; i <= files; i++) await writeFile(join(config.rules[0]!.watch, `inv-${i}.pdf`), await numberedInvoice(i));
    await waitFor('every input done', async () => (await daemon.ledger.countByState().catch(() => null))?.done === files, 180_000);
  } finally {
    ending = false;
    await chaos;
    await daemon.stop();
  }
  assert.ok(ended > 0, 'connections were ended meanwhile');
  const reader = await openLedger(config.state);
  try {
    const inputs = await reader.list({});
    assert.equal(inputs.length, files, 'one input per file');
    assert.ok(inputs.every((r) => r.state === 'done'));
  } finally {
    await reader.close();
  }
  assert.equal((await listFiles(join(root, 'outbox', 'invoices'))).length, files, 'one output per file');
});
