// Runs the PostgreSQL schema steps at start. Several `docdrop serve` processes may start together, so
// the whole check-and-apply holds a session advisory lock: the first applies the missing steps, the
// others wait and then find nothing to do. Each step commits with its version row; a database at a
// version newer than this docdrop's steps is refused rather than written to.
import type { Pool } from 'pg';

export interface PostgresMigrationSet {
  /** Names the database in errors. */
  name: string;
  /** Table recording applied versions. */
  table: string;
  /** pg_advisory_lock key, distinct per migration set. */
  lockKey: bigint;
  steps: readonly { name: string; sql: string }[];
}

export async function runPostgresMigrations(pool: Pool, set: PostgresMigrationSet): Promise<number> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [set.lockKey.toString()]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS ${set.table} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
      const { rows } = await client.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${set.table}`);
      const current = rows[0]?.v ?? 0;
      if (current > set.steps.length) {
        throw new Error(`${set.name} is at schema version ${current}, newer than this docdrop (${set.steps.length}); upgrade docdrop`);
      }
      for (let v = current; v < set.steps.length; v++) {
        const step = set.steps[v]!;
        await client.query('BEGIN');
        try {
          await client.query(step.sql);
          await client.query(`INSERT INTO ${set.table} (version, name) VALUES ($1, $2)`, [v + 1, step.name]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw new Error(`${set.name}: schema step ${v + 1} (${step.name}) failed: ${(err as Error).message}`);
        }
      }
      return set.steps.length;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [set.lockKey.toString()]).catch(() => {
        broken = true;
      });
    }
  } catch (err) {
    broken = true;
    throw err;
  } finally {
    // A connection whose unlock failed may still hold the lock: destroy it rather than pool it.
    client.release(broken);
  }
}
