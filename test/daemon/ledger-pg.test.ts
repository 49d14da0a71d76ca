// The PostgreSQL ledger: the shared conformance suite (each case in a fresh schema of this file's own
// database), migrations raced by two ledgers starting together, and a ledger outliving its connections.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPgLedger } from '../../src/daemon/ledger/pg-ledger.js';
import { MIGRATIONS } from '../../src/daemon/ledger/pg-migrations.js';
import { classifyError } from '../../src/shared/errors.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { ledgerConformance } from './ledger-conformance.js';

let db: TestDatabase;
before(async () => {
  db = await createTestDatabase('pgledger');
});
after(() => db?.drop());

ledgerConformance(
  'postgresql',
  async (opts) => openPgLedger(await db.freshSchema(), opts),
  async (opts) => {
    const url = await db.freshSchema();
    return [await openPgLedger(url, opts), await openPgLedger(url, opts)];
  },
);

const input = (name: string) => ({ rule: 'r', path: `/in/${name}.pdf`, size: 1, mtimeMs: 1, sha256: name });

test('two ledgers opened at once on an empty database both migrate it, and it has one set of tables', async () => {
  const url = await db.freshSchema();
  const schema = new URL(url).searchParams.get('options')!.split('=')[1]!;
  const ledgers = await Promise.all([openPgLedger(url), openPgLedger(url), openPgLedger(url)]);
  try {
    const versions = await db.query<{ version: number }>(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`);
    assert.deepEqual(versions.map((v) => v.version), MIGRATIONS.map((_, i) => i + 1));
    const tables = await db.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'inputs'`, [schema]);
    assert.equal(tables[0]!.n, 1);
    const { record } = await ledgers[0]!.addInput(input('a'));
    assert.equal((await ledgers[2]!.get(record.id))?.path, '/in/a.pdf');
  } finally {
    await Promise.all(ledgers.map((l) => l.close()));
  }
});

test('reopening runs no migration twice; a database written by a newer docdrop is refused without its password', async () => {
  const url = await db.freshSchema();
  await (await openPgLedger(url)).close();
  const again = await openPgLedger(url);
  assert.equal((await again.list({})).length, 0);
  await again.close();
  const schema = new URL(url).searchParams.get('options')!.split('=')[1]!;
  await db.query(`INSERT INTO ${schema}.schema_migrations (version) VALUES (${MIGRATIONS.length + 1})`);
  const withPassword = new URL(url);
  withPassword.password = 'hunter2';
  await assert.rejects(openPgLedger(withPassword.href), (err: Error) => {
    assert.match(err.message, new RegExp(`schema version ${MIGRATIONS.length + 1}, newer than this docdrop \\(${MIGRATIONS.length}\\); upgrade docdrop`));
    assert.doesNotMatch(err.message, /hunter2/);
    return true;
  });
});

test('a ledger keeps working after the server ends its connections; meanwhile errors are transient', async () => {
  const url = await db.freshSchema();
  const ledger = await openPgLedger(url);
  try {
    const { record } = await ledger.addInput(input('before'));
    // Several connections in the pool, then every one of them ended as a restarting server would.
    await Promise.all([ledger.get(record.id), ledger.get(record.id), ledger.listDue(Date.now(), 10)]);
    const ended = await db.query<{ ok: boolean }>(
      'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    assert.ok(ended.length >= 1);
    let after: Awaited<ReturnType<typeof ledger.addInput>> | undefined;
    for (let attempt = 0; attempt < 10 && !after; attempt++) {
      after = await ledger.addInput(input('after')).catch((err: unknown) => {
        const failure = classifyError(err);
        assert.equal(failure.failureClass, 'transient', String(err));
        assert.equal(failure.code, 'ledger_unavailable');
        return undefined;
      });
    }
    assert.ok(after, 'the pool connects again');
    assert.deepEqual((await ledger.list({})).map((r) => r.path), ['/in/before.pdf', '/in/after.pdf']);
  } finally {
    await ledger.close();
  }
});

test('an unreachable database is a transient ledger_unavailable at open', async () => {
  const u = new URL(db.url);
  u.port = '1';
  await assert.rejects(openPgLedger(u.href), (err: unknown) => {
    assert.equal(classifyError(err).code, 'ledger_unavailable');
    return true;
  });
});
