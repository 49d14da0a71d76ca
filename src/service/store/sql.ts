// The one seam between the service's repositories and a database engine. The repos write their SQL
// once, with `?` placeholders and statements both SQLite and PostgreSQL run unchanged; each adapter
// (sqlite-sql.ts, postgres-sql.ts) executes it. Keeping one SQL text per operation is what keeps the
// two stores' semantics identical (the conformance suite checks it).

export interface SqlStatement {
  sql: string;
  params?: readonly unknown[];
}

export interface SqlResult<T = Record<string, unknown>> {
  rows: T[];
  /** Rows inserted, updated or deleted. */
  changes: number;
}

export interface SqlExecutor {
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** Runs a write; resolves with the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /**
   * Runs the statements in one transaction, all or none. A batch rather than a callback: SQLite's
   * connection is shared by every request, so an open transaction must never span an `await`.
   */
  batch(statements: readonly SqlStatement[]): Promise<SqlResult[]>;
}

/** `lower(column) LIKE ?` operand matching `term` anywhere, case-insensitively (both engines; `\` escapes). */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
