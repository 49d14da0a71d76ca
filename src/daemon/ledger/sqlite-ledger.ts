// SQLite adapter of the Ledger port (better-sqlite3). Every transition updates the row and appends its
// event in one transaction, guarded by the expected `from` state, so two workers can never both advance
// the same input and a crash leaves either both or neither.
//
// Durability: WAL, with synchronous=NORMAL by default. In WAL mode a commit is complete once its frames
// are written to the WAL file, so a process killed with SIGKILL at any moment loses no committed
// transaction (the OS page cache still holds them; test/daemon/ledger-sqlite.test.ts kills a writer to
// prove it). What NORMAL gives up is the last commits on a power cut or kernel crash (the database stays
// consistent, never corrupt). synchronous=FULL fsyncs the WAL at every commit and survives that too,
// but measured here it allows ~340 commits/s against ~1,500 with NORMAL, and a file takes ~6 writes:
// without group commit (below) FULL would cap the daemon near 55 files/s. `state.synchronous: full` in
// the config chooses FULL.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { runMigrations } from '../../shared/sqlite-migrations.js';
import type { Claim, InputRecord, InputState, Ledger, LedgerEvent, NewInput, StateSummary, TransitionPatch, WaitingFile } from './ledger.js';
import { INPUT_STATES } from './ledger.js';
import { attemptEvent, LedgerConflictError, patchParams, patchSet, queuedEvent, samePathError, toEvent, toRecord, transitionEvent, type EventRow, type Row } from './ledger-rows.js';
import { isMaildirKey, messageLabel, type MailFile, type MailLedger, type MailOrigin, type MailOutcome, type MailStats, type MessageKey } from './mail-ledger.js';
import { ACTIVE, MIGRATIONS } from './sqlite-migrations.js';

export { LedgerConflictError };

export interface SqliteLedgerOptions {
  /** SQLite `synchronous` in WAL mode: 'normal' (default; safe against process crashes) or 'full' (also power loss). */
  synchronous?: 'normal' | 'full';
  /** Milliseconds since epoch for createdAt/updatedAt/event times; injectable for tests. */
  clock?: () => number;
}

/** Opens (creating and migrating if needed) the ledger database at `path`. Commands use openLedger() instead. */
export async function openSqliteLedger(path: string, opts: SqliteLedgerOptions = {}): Promise<SqliteLedger> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${opts.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
    // Another process (docdrop status/retry) may hold the write lock for a moment.
    db.pragma('busy_timeout = 5000');
    runMigrations(db, MIGRATIONS, `the ledger ${path}`);
  } catch (err) {
    db.close();
    throw err;
  }
  const clock = opts.clock ?? Date.now;
  return new SqliteLedger(db, () => Math.round(clock()));
}

/** A write waiting for the next group commit. */
interface QueuedWrite {
  run: () => unknown;
  resolve: (value: never) => void;
  reject: (err: unknown) => void;
}

export class SqliteLedger implements Ledger, MailLedger {
  private readonly stmt;
  private readonly tx;
  // Group commit: writes asked for in one turn of the event loop share one transaction, each in its own
  // savepoint, and every caller hears back only after the COMMIT. A commit's fixed cost (locks, WAL
  // frames for the shared index and event pages) was most of a write's; at 100 files/s (600 writes/s)
  // batching cut the ledger's CPU per file by half or more in a micro-benchmark.
  private queued: QueuedWrite[] = [];
  private flushPending = false;
  private readonly commitBatch;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {
    const s = (sql: string) => db.prepare(sql);
    const set = patchSet();
    this.stmt = {
      get: s('SELECT * FROM inputs WHERE id = ?'),
      activeByPath: s(`SELECT * FROM inputs WHERE rule = ? AND path = ? AND ${ACTIVE}`),
      insert: s(`INSERT INTO inputs (rule, path, size, mtime_ms, sha256, state, next_attempt_at, created_at, updated_at)
                 VALUES (@rule, @path, @size, @mtimeMs, @sha256, 'queued', @now, @now, @now)`),
      transition: s(`UPDATE inputs SET state = @to, ${set} WHERE id = @id AND state = @from`),
      attempt: s(`UPDATE inputs SET ${set} WHERE id = @id`),
      event: s('INSERT INTO events (input_id, at, kind, detail) VALUES (?, ?, ?, ?)'),
      bySha: s(`SELECT * FROM inputs WHERE rule = ? AND sha256 = ? AND id != ? AND state != 'failed' ORDER BY id LIMIT 1`),
      due: s(`SELECT * FROM inputs WHERE ${ACTIVE} AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`),
      dueFor: s(`SELECT * FROM inputs WHERE ${ACTIVE} AND next_attempt_at <= @now
                 AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.input_id = inputs.id AND c.owner != @owner AND c.until > @clock)
                 ORDER BY next_attempt_at, id LIMIT @limit`),
      countByState: s('SELECT state, COUNT(*) AS n FROM inputs GROUP BY state'),
      summarize: s(`SELECT rule, state, COUNT(*) AS count, MIN(created_at) AS oldestCreatedAt, MAX(updated_at) AS newestUpdatedAt
                    FROM inputs GROUP BY rule, state ORDER BY rule, state`),
      // Through inputs_state: reads only the done/failed entries' rows, a few ms at 100k inputs.
      finishedSince: s(`SELECT state, COUNT(*) AS n FROM inputs WHERE state IN ('done', 'failed') AND updated_at >= ? GROUP BY state`),
      events: s('SELECT * FROM events WHERE input_id = ? ORDER BY id'),
      mailOutcome: s('SELECT skipped FROM mail_messages WHERE mailbox = @mailbox AND uid_validity = @uidValidity AND uid = @uid'),
      lastMailUid: s('SELECT COALESCE(MAX(uid), 0) AS uid FROM mail_messages WHERE mailbox = ? AND uid_validity = ?'),
      maildirOutcome: s('SELECT skipped FROM maildir_messages WHERE mailbox = @mailbox AND name = @name'),
      mailStats: s(`SELECT mailbox, COUNT(*) - COUNT(skipped) AS messages, SUM(json_array_length(files)) AS files,
                    COUNT(skipped) AS skipped, MAX(at) AS lastAt
                    FROM (SELECT mailbox, files, at, skipped FROM mail_messages UNION ALL SELECT mailbox, files, at, skipped FROM maildir_messages)
                    GROUP BY mailbox ORDER BY mailbox`),
      recordMail: s(`INSERT OR IGNORE INTO mail_messages (mailbox, uid_validity, uid, files, at, skipped)
                     VALUES (@mailbox, @uidValidity, @uid, @files, @now, @skipped)`),
      recordMaildir: s(`INSERT OR IGNORE INTO maildir_messages (mailbox, name, files, at, skipped) VALUES (@mailbox, @name, @files, @now, @skipped)`),
      recordMailFile: s(`INSERT OR REPLACE INTO mail_files (path, sha256, mailbox, message, mail_from, subject, date, message_id)
                         VALUES (@path, @sha256, @mailbox, @message, @from, @subject, @date, @messageId)`),
      mailOrigin: s('SELECT mail_from AS "from", subject, date, message_id AS messageId FROM mail_files WHERE path = ? AND sha256 = ?'),
      // Taken when free, already ours, or expired; otherwise the WHERE leaves the row alone (0 changes).
      claim: s(`INSERT INTO claims (input_id, owner, until) VALUES (@id, @owner, @until)
                ON CONFLICT (input_id) DO UPDATE SET owner = excluded.owner, until = excluded.until
                WHERE claims.owner = excluded.owner OR claims.until <= @now`),
      renewClaim: s('UPDATE claims SET until = @until WHERE input_id = @id AND owner = @owner AND until > @now'),
      releaseClaim: s('DELETE FROM claims WHERE input_id = ? AND owner = ?'),
      claimOf: s('SELECT input_id AS inputId, owner, until FROM claims WHERE input_id = ? AND until > ?'),
      setWaiting: s(`INSERT INTO waiting (rule, path, size, reason, since, until) VALUES (@rule, @path, @size, @reason, @since, @until)
                     ON CONFLICT (rule, path) DO UPDATE SET size = excluded.size, reason = excluded.reason,
                     since = excluded.since, until = excluded.until`),
      clearWaiting: s('DELETE FROM waiting WHERE rule = ? AND path = ?'),
      clearWaitingRule: s('DELETE FROM waiting WHERE rule = ?'),
      listWaiting: s('SELECT rule, path, size, reason, since, until FROM waiting ORDER BY since, rule, path'),
    };
    this.tx = {
      add: db.transaction((input: NewInput) => {
        const existing = this.stmt.activeByPath.get(input.rule, input.path) as Row | undefined;
        if (existing) return { record: toRecord(existing), created: false };
        const now = this.now();
        const id = Number(this.stmt.insert.run({ ...input, now }).lastInsertRowid);
        this.appendEvent(id, now, queuedEvent(input));
        return { record: this.mustGet(id), created: true };
      }),
      transition: db.transaction((id: number, from: InputState, to: InputState, patch: TransitionPatch) => {
        const now = this.now();
        const changed = this.stmt.transition.run({ ...patchParams(patch), id, from, to, now }).changes;
        if (changed === 0) throw new LedgerConflictError(id, from, this.getRow(id)?.state ?? null);
        this.appendEvent(id, now, transitionEvent(from, to, patch));
        return this.mustGet(id);
      }),
      attempt: db.transaction((id: number, patch: TransitionPatch) => {
        const now = this.now();
        if (this.stmt.attempt.run({ ...patchParams(patch), id, now }).changes === 0) {
          throw new Error(`ledger: input ${id} does not exist`);
        }
        this.appendEvent(id, now, attemptEvent(patch));
        return this.mustGet(id);
      }),
      claim: db.transaction((id: number, owner: string, leaseMs: number): Claim | null => {
        if (!this.getRow(id)) throw new Error(`ledger: input ${id} does not exist`);
        const now = this.now();
        const until = now + Math.round(leaseMs);
        return this.stmt.claim.run({ id, owner, until, now }).changes === 0 ? null : { inputId: id, owner, until };
      }),
    };
    // Each write runs as a savepoint inside the batch's transaction (better-sqlite3 nests transaction
    // functions that way), so one write's error undoes only that write.
    this.commitBatch = db.transaction((batch: QueuedWrite[]) =>
      batch.map((w) => {
        try {
          return { ok: true, value: w.run() };
        } catch (err) {
          return { ok: false, value: err };
        }
      }),
    );
  }

  async addInput(input: NewInput): Promise<{ record: InputRecord; created: boolean }> {
    return this.write(() => this.tx.add(input));
  }

  async transition(id: number, from: InputState, to: InputState, patch: TransitionPatch = {}): Promise<InputRecord> {
    try {
      return await this.write(() => this.tx.transition(id, from, to, patch));
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw samePathError(id, to);
      }
      throw err;
    }
  }

  async recordAttempt(
    id: number,
    patch: Pick<TransitionPatch, 'attempts' | 'nextAttemptAt' | 'lastError' | 'event'>,
  ): Promise<InputRecord> {
    return this.write(() => this.tx.attempt(id, patch));
  }

  async claim(id: number, owner: string, leaseMs: number): Promise<Claim | null> {
    return this.write(() => this.tx.claim(id, owner, leaseMs));
  }

  async renewClaim(id: number, owner: string, leaseMs: number): Promise<Claim | null> {
    return this.write(() => {
      const now = this.now();
      const until = now + Math.round(leaseMs);
      return this.stmt.renewClaim.run({ id, owner, until, now }).changes === 0 ? null : { inputId: id, owner, until };
    });
  }

  async releaseClaim(id: number, owner: string): Promise<void> {
    await this.write(() => this.stmt.releaseClaim.run(id, owner));
  }

  async claimOf(id: number): Promise<Claim | null> {
    return (this.stmt.claimOf.get(id, this.now()) as Claim | undefined) ?? null;
  }

  async mailDropped(key: MessageKey): Promise<boolean> {
    return (await this.mailOutcome(key)) === 'dropped';
  }

  async mailOutcome(key: MessageKey): Promise<MailOutcome> {
    const row = (isMaildirKey(key) ? this.stmt.maildirOutcome.get({ ...key }) : this.stmt.mailOutcome.get({ ...key })) as { skipped: string | null } | undefined;
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
    const row = { ...key, files, now: this.now(), skipped };
    await this.write(() => (isMaildirKey(key) ? this.stmt.recordMaildir : this.stmt.recordMail).run(row));
  }

  async recordMailFile(f: MailFile): Promise<void> {
    const { key, ...origin } = f;
    await this.write(() => this.stmt.recordMailFile.run({ ...origin, mailbox: key.mailbox, message: messageLabel(key) }));
  }

  async mailOrigin(path: string, sha256: string): Promise<MailOrigin | null> {
    return (this.stmt.mailOrigin.get(path, sha256) as MailOrigin | undefined) ?? null;
  }

  async lastMailUid(mailbox: string, uidValidity: string): Promise<number> {
    return (this.stmt.lastMailUid.get(mailbox, uidValidity) as { uid: number }).uid;
  }

  async mailStats(): Promise<MailStats[]> {
    return this.stmt.mailStats.all() as MailStats[];
  }

  async setWaiting(file: WaitingFile): Promise<void> {
    await this.write(() => this.stmt.setWaiting.run({ ...file }));
  }

  async clearWaiting(rule: string, path?: string): Promise<void> {
    await this.write(() => (path === undefined ? this.stmt.clearWaitingRule.run(rule) : this.stmt.clearWaiting.run(rule, path)));
  }

  async listWaiting(): Promise<WaitingFile[]> {
    return this.stmt.listWaiting.all() as WaitingFile[];
  }

  /** Queues a write for the group commit at the end of this turn of the event loop. */
  private write<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ run, resolve: resolve as (value: never) => void, reject });
      if (this.flushPending) return;
      this.flushPending = true;
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    this.flushPending = false;
    const batch = this.queued;
    this.queued = [];
    if (batch.length === 0) return;
    let outcomes: { ok: boolean; value: unknown }[];
    try {
      outcomes = this.commitBatch.immediate(batch);
    } catch (err) {
      // BEGIN or COMMIT failed (disk full, busy past busy_timeout): nothing of the batch was stored.
      for (const w of batch) w.reject(err);
      return;
    }
    batch.forEach((w, i) => (outcomes[i]!.ok ? w.resolve(outcomes[i]!.value as never) : w.reject(outcomes[i]!.value)));
  }

  async get(id: number): Promise<InputRecord | null> {
    const row = this.getRow(id);
    return row ? toRecord(row) : null;
  }

  async findBySha(rule: string, sha256: string, excludeId: number): Promise<InputRecord | null> {
    const row = this.stmt.bySha.get(rule, sha256, excludeId) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  /** Non-final inputs due at `now`, longest-due first (then oldest), which for fresh inputs is arrival order. */
  async listDue(now: number, limit: number, owner?: string): Promise<InputRecord[]> {
    const rows = owner === undefined ? this.stmt.due.all(now, limit) : this.stmt.dueFor.all({ now, limit, owner, clock: this.now() });
    return (rows as Row[]).map(toRecord);
  }

  async findActiveByPath(rule: string, path: string): Promise<InputRecord | null> {
    const row = this.stmt.activeByPath.get(rule, path) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  async list(filter: { state?: InputState; rule?: string; limit?: number; offset?: number }): Promise<InputRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.state !== undefined) {
      where.push('state = ?');
      params.push(filter.state);
    }
    if (filter.rule !== undefined) {
      where.push('rule = ?');
      params.push(filter.rule);
    }
    const sql = `SELECT * FROM inputs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id LIMIT ? OFFSET ?`;
    const rows = this.db.prepare(sql).all(...params, filter.limit ?? -1, filter.offset ?? 0) as Row[];
    return rows.map(toRecord);
  }

  async countFinishedSince(since: number): Promise<{ done: number; failed: number }> {
    const out = { done: 0, failed: 0 };
    for (const { state, n } of this.stmt.finishedSince.all(since) as { state: 'done' | 'failed'; n: number }[]) out[state] = n;
    return out;
  }

  async countByState(): Promise<Record<InputState, number>> {
    const counts = Object.fromEntries(INPUT_STATES.map((s) => [s, 0])) as Record<InputState, number>;
    for (const { state, n } of this.stmt.countByState.all() as { state: InputState; n: number }[]) counts[state] = n;
    return counts;
  }

  async summarize(): Promise<StateSummary[]> {
    return this.stmt.summarize.all() as StateSummary[];
  }

  async probeWrite(): Promise<void> {
    // Writing the schema version back as it is dirties the header page: a real commit that changes nothing.
    await this.write(() => this.db.pragma(`user_version = ${Number(this.db.pragma('user_version', { simple: true }))}`));
  }

  async events(inputId: number): Promise<LedgerEvent[]> {
    return (this.stmt.events.all(inputId) as EventRow[]).map(toEvent);
  }

  /** A PRAGMA's value on this connection (e.g. 'synchronous': 1 NORMAL, 2 FULL); for tests and diagnostics. */
  readPragma(name: string): unknown {
    return this.db.pragma(name, { simple: true });
  }

  async close(): Promise<void> {
    if (this.db.open) {
      this.flush();
      this.db.close();
    }
  }

  private getRow(id: number): Row | undefined {
    return this.stmt.get.get(id) as Row | undefined;
  }

  private mustGet(id: number): InputRecord {
    const row = this.getRow(id);
    if (!row) throw new Error(`ledger: input ${id} vanished inside its own transaction`);
    return toRecord(row);
  }

  private appendEvent(id: number, at: number, event: { kind: string; detail: string | null }): void {
    this.stmt.event.run(id, at, event.kind, event.detail);
  }
}
