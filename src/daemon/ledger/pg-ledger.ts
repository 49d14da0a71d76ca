// PostgreSQL adapter of the Ledger port (node-postgres Pool), for several daemons sharing one ledger.
// Each write is ONE statement, so it is atomic without a transaction and costs one round trip: a row
// change and its event go together through a data-modifying CTE. Cross-process correctness comes from
// the statements themselves, not from locks held in this process:
// - addInput: INSERT ... ON CONFLICT DO NOTHING on the partial unique index of active rule+path, so two
//   daemons finding the same file get one row (the loser reads the winner's);
// - transition: the UPDATE's WHERE names the expected `from` state, so only one writer advances an input;
// - claims: one INSERT ... ON CONFLICT DO UPDATE ... WHERE (free, ours or expired) per claim.
// Times (record, event and lease times) come from the injected clock, passed as parameters as the SQLite
// adapter does, so every instance compares leases by the same kind of clock and tests can move time.
// A lost connection (database restarting, network) surfaces as the transient `ledger_unavailable`; the
// pool drops the broken client and connects again on the next query.
import pg from 'pg';
import { DocdropError } from '../../shared/errors.js';
import { redactUrl } from '../../shared/redact-url.js';
import type { Claim, InputRecord, InputState, Ledger, LedgerEvent, NewInput, StateSummary, TransitionPatch, WaitingFile } from './ledger.js';
import { INPUT_STATES } from './ledger.js';
import { attemptEvent, LedgerConflictError, patchParams, patchSet, queuedEvent, samePathError, toEvent, toRecord, transitionEvent, type EventRow, type Row } from './ledger-rows.js';
import { isMaildirKey, messageLabel, type MailFile, type MailLedger, type MailOrigin, type MailOutcome, type MailStats, type MessageKey } from './mail-ledger.js';
import { ACTIVE, MIGRATIONS, runPgMigrations } from './pg-migrations.js';

export interface PgLedgerOptions {
  /** Milliseconds since epoch for record and event times and claim leases; injectable for tests. */
  clock?: () => number;
}

// BIGINT (ids, ms times, counts) and NUMERIC (sums) as numbers: every value here stays below 2^53.
const asNumber = (v: string) => Number(v);
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC ? asNumber : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Opens (creating and migrating if needed) the ledger in the database at `url`. Commands use openLedger() instead. */
export async function openPgLedger(url: string, opts: PgLedgerOptions = {}): Promise<PgLedger> {
  // A host that drops packets must not hang a step for the kernel's TCP timeout: give up connecting
  // after 10 s (ledger_unavailable, retried later) and let keep-alives find dead connections.
  const pool = new pg.Pool({ connectionString: url, types, connectionTimeoutMillis: 10_000, keepAlive: true });
  // An idle client whose server went away emits 'error' on the pool; unhandled, it would end the
  // process. The pool has already dropped that client; the next query connects afresh.
  pool.on('error', () => undefined);
  try {
    await runPgMigrations(pool, MIGRATIONS, `the ledger ${redactUrl(url)}`);
  } catch (err) {
    await pool.end();
    throw asLedgerError(err);
  }
  const clock = opts.clock ?? Date.now;
  return new PgLedger(pool, () => Math.round(clock()));
}

const SET = patchSet((name) => `@${name}::boolean`);

const SQL = {
  get: 'SELECT * FROM inputs WHERE id = @id',
  activeByPath: `SELECT * FROM inputs WHERE rule = @rule AND path = @path AND ${ACTIVE}`,
  add: `WITH ins AS (
          INSERT INTO inputs (rule, path, size, mtime_ms, sha256, state, next_attempt_at, created_at, updated_at)
          VALUES (@rule, @path, @size, @mtimeMs, @sha256, 'queued', @now, @now, @now)
          ON CONFLICT (rule, path) WHERE ${ACTIVE} DO NOTHING
          RETURNING *),
        ev AS (INSERT INTO events (input_id, at, kind, detail) SELECT id, @now, @kind, @detail FROM ins)
        SELECT * FROM ins`,
  transition: `WITH up AS (UPDATE inputs SET state = @to, ${SET} WHERE id = @id AND state = @from RETURNING *),
               ev AS (INSERT INTO events (input_id, at, kind, detail) SELECT id, @now, @kind, @detail FROM up)
               SELECT * FROM up`,
  attempt: `WITH up AS (UPDATE inputs SET ${SET} WHERE id = @id RETURNING *),
            ev AS (INSERT INTO events (input_id, at, kind, detail) SELECT id, @now, @kind, @detail FROM up)
            SELECT * FROM up`,
  bySha: `SELECT * FROM inputs WHERE rule = @rule AND sha256 = @sha256 AND id != @excludeId AND state != 'failed' ORDER BY id LIMIT 1`,
  due: `SELECT * FROM inputs WHERE ${ACTIVE} AND next_attempt_at <= @now ORDER BY next_attempt_at, id LIMIT @limit`,
  dueFor: `SELECT * FROM inputs WHERE ${ACTIVE} AND next_attempt_at <= @now
           AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.input_id = inputs.id AND c.owner <> @owner AND c.until > @clock)
           ORDER BY next_attempt_at, id LIMIT @limit`,
  countByState: 'SELECT state, COUNT(*) AS n FROM inputs GROUP BY state',
  // COLLATE "C": byte order, as SQLite sorts, whatever the database's locale.
  summarize: `SELECT rule, state, COUNT(*) AS count, MIN(created_at) AS "oldestCreatedAt", MAX(updated_at) AS "newestUpdatedAt"
              FROM inputs GROUP BY rule, state ORDER BY rule COLLATE "C", state COLLATE "C"`,
  finishedSince: `SELECT state, COUNT(*) AS n FROM inputs WHERE state IN ('done', 'failed') AND updated_at >= @since GROUP BY state`,
  events: 'SELECT * FROM events WHERE input_id = @id ORDER BY id',
  // A real write that changes nothing: a read-only or unreachable database refuses it.
  probe: 'UPDATE schema_migrations SET version = version WHERE version = (SELECT MAX(version) FROM schema_migrations)',
  mailOutcome: 'SELECT skipped FROM mail_messages WHERE mailbox = @mailbox AND uid_validity = @uidValidity AND uid = @uid',
  maildirOutcome: 'SELECT skipped FROM maildir_messages WHERE mailbox = @mailbox AND name = @name',
  lastMailUid: 'SELECT COALESCE(MAX(uid), 0) AS uid FROM mail_messages WHERE mailbox = @mailbox AND uid_validity = @uidValidity',
  mailStats: `SELECT mailbox, COUNT(*) - COUNT(skipped) AS messages, COALESCE(SUM(json_array_length(files::json)), 0) AS files,
              COUNT(skipped) AS skipped, MAX(at) AS "lastAt"
              FROM (SELECT mailbox, files, at, skipped FROM mail_messages UNION ALL SELECT mailbox, files, at, skipped FROM maildir_messages) m
              GROUP BY mailbox ORDER BY mailbox COLLATE "C"`,
  recordMail: `INSERT INTO mail_messages (mailbox, uid_validity, uid, files, at, skipped)
               VALUES (@mailbox, @uidValidity, @uid, @files, @now, @skipped) ON CONFLICT DO NOTHING`,
  recordMaildir: `INSERT INTO maildir_messages (mailbox, name, files, at, skipped) VALUES (@mailbox, @name, @files, @now, @skipped) ON CONFLICT DO NOTHING`,
  recordMailFile: `INSERT INTO mail_files (path, sha256, mailbox, message, mail_from, subject, date, message_id)
                   VALUES (@path, @sha256, @mailbox, @message, @from, @subject, @date, @messageId)
                   ON CONFLICT (path, sha256) DO UPDATE SET mailbox = excluded.mailbox, message = excluded.message,
                   mail_from = excluded.mail_from, subject = excluded.subject, date = excluded.date, message_id = excluded.message_id`,
  mailOrigin: 'SELECT mail_from AS "from", subject, date, message_id AS "messageId" FROM mail_files WHERE path = @path AND sha256 = @sha256',
  // Taken when free, already ours, or expired; otherwise the WHERE leaves the row alone (no row returned).
  claim: `INSERT INTO claims (input_id, owner, until) VALUES (@id, @owner, @until)
          ON CONFLICT (input_id) DO UPDATE SET owner = excluded.owner, until = excluded.until
          WHERE claims.owner = excluded.owner OR claims.until <= @now
          RETURNING until`,
  renewClaim: 'UPDATE claims SET until = @until WHERE input_id = @id AND owner = @owner AND until > @now RETURNING until',
  releaseClaim: 'DELETE FROM claims WHERE input_id = @id AND owner = @owner',
  claimOf: 'SELECT input_id AS "inputId", owner, until FROM claims WHERE input_id = @id AND until > @now',
  setWaiting: `INSERT INTO waiting (rule, path, size, reason, since, until) VALUES (@rule, @path, @size, @reason, @since, @until)
               ON CONFLICT (rule, path) DO UPDATE SET size = excluded.size, reason = excluded.reason,
               since = excluded.since, until = excluded.until`,
  clearWaiting: 'DELETE FROM waiting WHERE rule = @rule AND path = @path',
  clearWaitingRule: 'DELETE FROM waiting WHERE rule = @rule',
  listWaiting: 'SELECT rule, path, size, reason, since, until FROM waiting ORDER BY since, rule COLLATE "C", path COLLATE "C"',
} as const;

export class PgLedger implements Ledger, MailLedger {
  constructor(
    /** The pool, shared with what else keeps state in this database (the shared request rate). */
    readonly pool: pg.Pool,
    private readonly now: () => number,
  ) {}

  async addInput(input: NewInput): Promise<{ record: InputRecord; created: boolean }> {
    const { kind, detail } = queuedEvent(input);
    // The active input that won may become final between our INSERT and SELECT: then insert again.
    for (;;) {
      const [created] = await this.rows<Row>(SQL.add, { ...input, now: this.now(), kind, detail });
      if (created) return { record: toRecord(created), created: true };
      const [existing] = await this.rows<Row>(SQL.activeByPath, { ...input });
      if (existing) return { record: toRecord(existing), created: false };
    }
  }

  async transition(id: number, from: InputState, to: InputState, patch: TransitionPatch = {}): Promise<InputRecord> {
    let row: Row | undefined;
    try {
      [row] = await this.rows<Row>(SQL.transition, { ...patchParams(patch), ...transitionEvent(from, to, patch), id, from, to, now: this.now() });
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw samePathError(id, to);
      throw err;
    }
    if (row) return toRecord(row);
    const [current] = await this.rows<Row>(SQL.get, { id });
    throw new LedgerConflictError(id, from, current?.state ?? null);
  }

  async recordAttempt(id: number, patch: Pick<TransitionPatch, 'attempts' | 'nextAttemptAt' | 'lastError' | 'event'>): Promise<InputRecord> {
    const [row] = await this.rows<Row>(SQL.attempt, { ...patchParams(patch), ...attemptEvent(patch), id, now: this.now() });
    if (!row) throw new Error(`ledger: input ${id} does not exist`);
    return toRecord(row);
  }

  async get(id: number): Promise<InputRecord | null> {
    const [row] = await this.rows<Row>(SQL.get, { id });
    return row ? toRecord(row) : null;
  }

  async findBySha(rule: string, sha256: string, excludeId: number): Promise<InputRecord | null> {
    const [row] = await this.rows<Row>(SQL.bySha, { rule, sha256, excludeId });
    return row ? toRecord(row) : null;
  }

  async listDue(now: number, limit: number, owner?: string): Promise<InputRecord[]> {
    const rows =
      owner === undefined
        ? await this.rows<Row>(SQL.due, { now: Math.round(now), limit })
        : await this.rows<Row>(SQL.dueFor, { now: Math.round(now), limit, owner, clock: this.now() });
    return rows.map(toRecord);
  }

  async findActiveByPath(rule: string, path: string): Promise<InputRecord | null> {
    const [row] = await this.rows<Row>(SQL.activeByPath, { rule, path });
    return row ? toRecord(row) : null;
  }

  async list(filter: { state?: InputState; rule?: string; limit?: number; offset?: number }): Promise<InputRecord[]> {
    const where = [filter.state !== undefined ? 'state = @state' : '', filter.rule !== undefined ? 'rule = @rule' : ''].filter(Boolean);
    const sql = `SELECT * FROM inputs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id LIMIT @limit OFFSET @offset`;
    // LIMIT NULL is no limit.
    return (await this.rows<Row>(sql, { ...filter, limit: filter.limit ?? null, offset: filter.offset ?? 0 })).map(toRecord);
  }

  async countByState(): Promise<Record<InputState, number>> {
    const counts = Object.fromEntries(INPUT_STATES.map((s) => [s, 0])) as Record<InputState, number>;
    for (const { state, n } of await this.rows<{ state: InputState; n: number }>(SQL.countByState)) counts[state] = n;
    return counts;
  }

  async summarize(): Promise<StateSummary[]> {
    return this.rows<StateSummary>(SQL.summarize);
  }

  async probeWrite(): Promise<void> {
    await this.rows(SQL.probe);
  }

  async countFinishedSince(since: number): Promise<{ done: number; failed: number }> {
    const out = { done: 0, failed: 0 };
    for (const { state, n } of await this.rows<{ state: 'done' | 'failed'; n: number }>(SQL.finishedSince, { since: Math.round(since) })) out[state] = n;
    return out;
  }

  async events(inputId: number): Promise<LedgerEvent[]> {
    return (await this.rows<EventRow>(SQL.events, { id: inputId })).map(toEvent);
  }

  async claim(id: number, owner: string, leaseMs: number): Promise<Claim | null> {
    const now = this.now();
    const until = now + Math.round(leaseMs);
    try {
      return (await this.rows(SQL.claim, { id, owner, until, now })).length === 0 ? null : { inputId: id, owner, until };
    } catch (err) {
      // The claim's foreign key: no such input.
      if ((err as { code?: string }).code === '23503') throw new Error(`ledger: input ${id} does not exist`);
      throw err;
    }
  }

  async renewClaim(id: number, owner: string, leaseMs: number): Promise<Claim | null> {
    const now = this.now();
    const until = now + Math.round(leaseMs);
    return (await this.rows(SQL.renewClaim, { id, owner, until, now })).length === 0 ? null : { inputId: id, owner, until };
  }

  async releaseClaim(id: number, owner: string): Promise<void> {
    await this.rows(SQL.releaseClaim, { id, owner });
  }

  async claimOf(id: number): Promise<Claim | null> {
    const [claim] = await this.rows<Claim>(SQL.claimOf, { id, now: this.now() });
    return claim ?? null;
  }

  async setWaiting(file: WaitingFile): Promise<void> {
    await this.rows(SQL.setWaiting, { ...file });
  }

  async clearWaiting(rule: string, path?: string): Promise<void> {
    await this.rows(path === undefined ? SQL.clearWaitingRule : SQL.clearWaiting, { rule, path });
  }

  async listWaiting(): Promise<WaitingFile[]> {
    return this.rows<WaitingFile>(SQL.listWaiting);
  }

  async mailDropped(key: MessageKey): Promise<boolean> {
    return (await this.mailOutcome(key)) === 'dropped';
  }

  async mailOutcome(key: MessageKey): Promise<MailOutcome> {
    const [row] = await this.rows<{ skipped: string | null }>(isMaildirKey(key) ? SQL.maildirOutcome : SQL.mailOutcome, { ...key });
    return row === undefined ? null : row.skipped === null ? 'dropped' : 'skipped';
  }

  async recordMailDropped(key: MessageKey, files: string[]): Promise<void> {
    await this.recordMessage(key, JSON.stringify(files), null);
  }

  async recordMailSkipped(key: MessageKey, reason: string): Promise<void> {
    await this.recordMessage(key, '[]', reason);
  }

  /** One row in mail_messages or maildir_messages; a message already recorded keeps its first outcome. */
  private async recordMessage(key: MessageKey, files: string, skipped: string | null): Promise<void> {
    await this.rows(isMaildirKey(key) ? SQL.recordMaildir : SQL.recordMail, { ...key, files, now: this.now(), skipped });
  }

  async recordMailFile(f: MailFile): Promise<void> {
    const { key, ...origin } = f;
    await this.rows(SQL.recordMailFile, { ...origin, mailbox: key.mailbox, message: messageLabel(key) });
  }

  async mailOrigin(path: string, sha256: string): Promise<MailOrigin | null> {
    const [origin] = await this.rows<MailOrigin>(SQL.mailOrigin, { path, sha256 });
    return origin ?? null;
  }

  async lastMailUid(mailbox: string, uidValidity: string): Promise<number> {
    return (await this.rows<{ uid: number }>(SQL.lastMailUid, { mailbox, uidValidity }))[0]!.uid;
  }

  async mailStats(): Promise<MailStats[]> {
    return this.rows<MailStats>(SQL.mailStats);
  }

  private closing: Promise<void> | undefined;

  async close(): Promise<void> {
    await (this.closing ??= this.pool.end());
  }

  /** One statement with `@name` parameters; a lost database becomes the transient ledger_unavailable. */
  private async rows<R>(sql: string, params: Record<string, unknown> = {}): Promise<R[]> {
    const { text, values } = positional(sql, params);
    try {
      return (await this.pool.query(text, values)).rows as R[];
    } catch (err) {
      throw asLedgerError(err);
    }
  }
}

/** `@name` parameters as PostgreSQL's `$n`, each name once however often it appears. */
function positional(sql: string, params: Record<string, unknown>): { text: string; values: unknown[] } {
  const names: string[] = [];
  const text = sql.replace(/@([A-Za-z_]\w*)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`ledger: no value for @${name}`);
    const i = names.includes(name) ? names.indexOf(name) : names.push(name) - 1;
    return `$${i + 1}`;
  });
  return { text, values: names.map((n) => params[n] ?? null) };
}

// SQLSTATEs of a database that is away for now: admin shutdown, crash shutdown, cannot connect now
// (starting up, shutting down), too many connections; class 08 is every connection exception.
const AWAY_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const AWAY_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** A pg error meaning "the database is away for now" as the transient ledger_unavailable; any other as it is. */
export function asLedgerError(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  const away =
    typeof code === 'string'
      ? AWAY_STATES.has(code) || code.startsWith('08') || AWAY_ERRNOS.has(code)
      : // node-postgres's own words for a socket that closed under a query or a client it already gave up.
        /Connection terminated|connection error and is not queryable|Client was closed|timeout exceeded when trying to connect/i.test(message);
  if (!away) return err;
  return new DocdropError('ledger_unavailable', `the PostgreSQL ledger is unavailable: ${message}`, {
    cause: err,
    ...(typeof code === 'string' ? { context: { code } } : {}),
  });
}
