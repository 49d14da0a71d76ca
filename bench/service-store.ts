// The service store's job path on each adapter: per job the store calls a run makes (submit with its
// parser run, claim, read, route/finish update, read back), N jobs at a given concurrency. Prints
// jobs/s, milliseconds per job and SQL statements per job (PostgreSQL: counted by the executor, the
// batch's BEGIN/COMMIT included), for SQLite (DATA_DIR/service.db) and PostgreSQL (a fresh database on
// DOCDROP_TEST_PG_URL's server, dropped after).
//   npx tsx bench/service-store.ts [--jobs N] [--concurrency C]
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { silentLogger } from '../src/shared/logger.js';
import { specTimestamp } from '../src/shared/time.js';
import type { ServiceStore } from '../src/service/store/service-store.js';
import { openPostgresStore } from '../src/service/store/postgres-store.js';
import { openSqliteStore } from '../src/service/store/sqlite-store.js';
import { createTestDatabase } from '../test/helpers/postgres.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const JOBS = arg('jobs', 500);
const CONCURRENCY = arg('concurrency', 4);

/** Counts every query a pg client sends (pool queries and batch clients alike). */
let pgStatements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  pgStatements++;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

async function run(name: string, store: ServiceStore): Promise<void> {
  const documentId = randomUUID();
  const templateId = randomUUID();
  await store.documents.create({ document_id: documentId, account_id: 'acct_bench', source_name: 'api', file_name: 'b.pdf', file_extension: 'pdf', num_pages: 1, byte_size: 1, now: specTimestamp() });
  const oneJob = async () => {
    const job = await store.jobs.insert(
      { request_id: randomUUID(), account: 'acct_bench', document_id: documentId, template_id: templateId, template_title: 'T', classifier_id: null, submitted_via: 'run_parser', params: {} },
      { document_id: documentId, template_id: templateId, template_title: 'T', params: {}, datetime: specTimestamp() },
    );
    if (!(await store.jobs.claim(job.request_id))) throw new Error('claim failed');
    await store.jobs.get(job.request_id);
    await store.documents.get(documentId);
    await store.templates.get(templateId);
    await store.jobs.update(job.request_id, { status: 'completed', result: { data: { total: 1 }, missingRequired: [], numPages: 1, pagesRead: [1] }, credits_used: 1 });
    await store.jobs.get(job.request_id);
  };
  const before = pgStatements;
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < JOBS) await oneJob();
  }));
  const ms = performance.now() - started;
  const statements = store.engine === 'postgres' ? ((pgStatements - before) / JOBS).toFixed(1) : 'n/a';
  console.log(`${name.padEnd(10)} ${JOBS} jobs, concurrency ${CONCURRENCY}: ${((JOBS * 1000) / ms).toFixed(0)} jobs/s, ${(ms / JOBS).toFixed(2)} ms/job (wall), ${statements} statements/job`);
}

const dir = await mkdtemp(join(tmpdir(), 'docdrop-bench-store-'));
const sqlite = openSqliteStore(dir);
await run('sqlite', sqlite);
await sqlite.close();
await rm(dir, { recursive: true, force: true });

const db = await createTestDatabase('svcstore_bench');
try {
  const store = await openPostgresStore({ url: db.url, logger: silentLogger });
  await run('postgres', store);
  await store.close();
} finally {
  await db.drop();
}
