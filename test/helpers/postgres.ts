// A PostgreSQL database of its own for a test file: created fresh on the server of DOCDROP_TEST_PG_URL
// (default postgres://postgres@127.0.0.1:5432/postgres, trust auth) and dropped after, so test files
// running in parallel, and helpers on other branches, never see each other's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_PG_URL = process.env.DOCDROP_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  name: string;
  /** The database's URL (same server and user as TEST_PG_URL). */
  url: string;
  /** A URL of this database whose search_path is a new, empty schema: a fresh ledger without a new database. */
  freshSchema(): Promise<string>;
  /** Runs one statement as the server's admin user in this database (e.g. pg_terminate_backend). */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Drops the database, ending any connection still open to it. */
  drop(): Promise<void>;
}

/** Creates docdrop_t_<label>_<random>; `label` names the branch or test so leftovers can be traced. */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = `docdrop_t_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  await adminQuery(TEST_PG_URL, `CREATE DATABASE ${name}`);
  const url = withDatabase(TEST_PG_URL, name);
  let schemas = 0;
  return {
    name,
    url,
    async freshSchema() {
      const schema = `s${++schemas}`;
      await adminQuery(url, `CREATE SCHEMA ${schema}`);
      const u = new URL(url);
      u.searchParams.set('options', `-c search_path=${schema}`);
      return u.href;
    },
    query: (sql, params) => adminQuery(url, sql, params),
    async drop() {
      await adminQuery(TEST_PG_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.href;
}

async function adminQuery<R extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
