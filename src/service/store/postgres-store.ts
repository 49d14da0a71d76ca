// The PostgreSQL adapter (`docdrop serve --database postgres://...`): every serve process sharing the
// database sees the same documents, Workflows, Classifiers, jobs and webhook ledger, and the same
// pre-signed URL secret. A pg Pool per process; the schema is migrated at open (postgres-migrations.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../../shared/logger.js';
import { redactUrl } from '../../shared/redact-url.js';
import { runPostgresMigrations } from './postgres-migrations.js';
import { POSTGRES_MIGRATIONS } from './postgres-schema.js';
import { createRepos, type ServiceStore } from './service-store.js';
import type { SqlExecutor, SqlResult } from './sql.js';

/** Applied versions of the service schema; the lock key spells "docdrop" + 1 (service store). */
const MIGRATION_TABLE = 'service_schema_migrations';
const MIGRATION_LOCK = 0x646f6364726f7001n;

const INT8_OID = 20;
/**
 * BIGINT columns (sequence numbers, byte sizes, epoch milliseconds, COUNT) as numbers, as SQLite returns
 * them; every value the service keeps is far below 2^53.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** `?` placeholders (the repos' SQL) as PostgreSQL's `$1, $2, ...`; the SQL never holds a literal `?`. */
const numbered = new Map<string, string>();
function toPg(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    numbered.set(sql, (text = sql.replace(/\?/g, () => `$${++n}`)));
  }
  return text;
}

export function postgresExecutor(pool: pg.Pool): SqlExecutor {
  const query = (sql: string, params: readonly unknown[] = []) => pool.query(toPg(sql), params as unknown[]);
  return {
    all: async <T>(sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows as T[],
    get: async <T>(sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows[0] as T | undefined,
    run: async (sql, params) => (await query(sql, params)).rowCount ?? 0,
    async batch(stmts) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const out: SqlResult[] = [];
        for (const s of stmts) {
          const r = await client.query(toPg(s.sql), (s.params ?? []) as unknown[]);
          out.push({ rows: r.rows as Record<string, unknown>[], changes: r.command === 'SELECT' ? 0 : (r.rowCount ?? 0) });
        }
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw err;
      } finally {
        client.release(broken);
      }
    },
  };
}

export interface PostgresStoreOptions {
  url: string;
  logger: Logger;
  /** Connections this process keeps at most (pg Pool max). */
  maxConnections?: number;
}

export async function openPostgresStore(o: PostgresStoreOptions): Promise<ServiceStore> {
  const pool = new pg.Pool({ connectionString: o.url, types, max: o.maxConnections ?? 10, connectionTimeoutMillis: 10_000 });
  // An idle connection the server drops must not crash the process; the next query opens a new one.
  pool.on('error', (err) => o.logger.warn({ err: err.message }, 'PostgreSQL connection lost'));
  try {
    await runPostgresMigrations(pool, { name: `the service database at ${redactUrl(o.url)}`, table: MIGRATION_TABLE, lockKey: MIGRATION_LOCK, steps: POSTGRES_MIGRATIONS });
  } catch (err) {
    await pool.end().catch(() => {});
    const msg = (err as Error).message;
    throw new Error(msg.includes(redactUrl(o.url)) ? msg : `--database ${redactUrl(o.url)}: ${msg}`);
  }
  const sql = postgresExecutor(pool);
  let ended: Promise<void> | undefined;
  return {
    engine: 'postgres',
    ...createRepos(sql),
    async presignSecret() {
      // The first process to start writes it; every other one reads that same value.
      await sql.run('INSERT INTO service_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', ['presign', randomBytes(32).toString('hex')]);
      const row = await sql.get<{ value: string }>('SELECT value FROM service_secrets WHERE name = ?', ['presign']);
      return Buffer.from(row!.value, 'hex');
    },
    async checkWritable() {
      await sql.run(`UPDATE ${MIGRATION_TABLE} SET version = version WHERE version = (SELECT max(version) FROM ${MIGRATION_TABLE})`);
    },
    close: () => (ended ??= pool.end()),
  };
}
