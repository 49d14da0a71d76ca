// The one migration runner for docdrop's SQLite databases (the daemon's ledger, the service's service.db).
// Each owner keeps its own list of numbered, append-only steps: step N brings a database from
// user_version N-1 to N, in one transaction with the version bump, so a crash mid-step leaves the old
// version and the step runs again.
import type Database from 'better-sqlite3';

/**
 * Runs the steps `db` has not had yet. `name` labels the database in the error for a schema newer than
 * this docdrop, which is refused rather than written to.
 */
export function runMigrations(db: Database.Database, steps: readonly string[], name: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > steps.length) {
    throw new Error(`${name} is at schema version ${current}, newer than this docdrop (${steps.length}); upgrade docdrop`);
  }
  for (let v = current; v < steps.length; v++) {
    // IMMEDIATE: take the write lock before reading anything, so two processes starting together
    // cannot both apply the same step.
    db.transaction(() => {
      db.exec(steps[v]!);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}
