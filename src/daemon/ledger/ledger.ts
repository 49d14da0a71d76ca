// The daemon's ledger: the single source of truth for every input file's progress. The pipeline commits
// each state change here BEFORE the next side effect (upload, submit, output write, file move), so after
// `kill -9` a restart resumes every input from its last committed step and repeats at most the step that
// was in flight. Adapters: SQLite (src/daemon/ledger/sqlite-ledger.ts); PostgreSQL later. Both must pass
// test/daemon/ledger-conformance.ts. Open one with openLedger() (open-ledger.ts), never an adapter directly.
// The mail intake's bookkeeping is a port of its own (mail-ledger.ts), kept by the same adapter.

/**
 * Life of an input, in order. A restart resumes each non-final input from its state:
 * - `queued`     stable file seen, sha256 taken; next: upload (or skip as duplicate).
 * - `uploaded`   document_id recorded; next: submit the run (run_parser or POST /v1/extract).
 * - `submitted`  request_id recorded; next: poll until final.
 * - `extracted`  job completed, result stored in `result`; next: write outputs.
 * - `written`    outputs written (idempotently, keyed by request_id); next: move/delete/keep the input.
 * Final: `done` (input disposed of), `failed` (input moved to failed_dir with .error.json),
 * `duplicate` (skipped duplicate moved aside with a note). `timed_out` is not final: polled again later
 * on a slow schedule, and `retry` puts it (or a failed one) back in the flow: a failed input goes back
 * in the same row (one input, one row, whatever its history; the events keep the history), at `written`
 * when its outputs were written before it failed (only its move is repeated), at `extracted` when it has a
 * result, else at `queued`.
 */
export const INPUT_STATES = [
  'queued',
  'uploaded',
  'submitted',
  'extracted',
  'written',
  'done',
  'failed',
  'duplicate',
  'timed_out',
] as const;

export type InputState = (typeof INPUT_STATES)[number];

export const FINAL_STATES: readonly InputState[] = ['done', 'failed', 'duplicate'];

export interface InputRecord {
  id: number;
  rule: string;
  /** Absolute path where the file was found (it stays there until disposal). */
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
  state: InputState;
  documentId: string | null;
  requestId: string | null;
  /** Completed job's normalised result, stored so outputs can be (re)written without the service. */
  result: InputResult | null;
  attempts: number;
  /** Earliest time (ms since epoch) the next step may run: backoff and slow re-checks. */
  nextAttemptAt: number;
  lastError: string | null;
  /** Where the input ended: processed/failed/duplicate path, or null. */
  finalPath: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface InputResult {
  data: Record<string, unknown>;
  fileName: string;
  numPages: number | null;
  templateId: string | null;
  classification: string | null;
  confidence: number | null;
  /** Per field 0..1 from the service (docdrop extension); null or absent when it gives none. */
  fieldConfidence?: Record<string, number> | null;
  /** Paths of output files written for this input. */
  outputs?: string[];
}

/** One entry of an input's history: the durable audit trail (`docdrop status ID`), unlike log lines. */
export interface LedgerEvent {
  id: number;
  inputId: number;
  at: number;
  /** e.g. 'queued', 'uploaded', 'submitted', 'poll', 'extracted', 'written', 'done', 'failed', 'retry', 'error' */
  kind: string;
  /** State before a transition; null for the input's first event and for events that changed no state. */
  from: InputState | null;
  /** State after a transition (`queued` for the first event); null when the state did not change. */
  to: InputState | null;
  detail: Record<string, unknown> | null;
}

/** Fields a transition may set besides the state; each transition is one atomic commit with its event. */
export interface TransitionPatch {
  /** Where the file is now: `docdrop retry` moves a failed input back under another name when its own is taken. */
  path?: string;
  documentId?: string | null;
  requestId?: string | null;
  result?: InputResult | null;
  attempts?: number;
  nextAttemptAt?: number;
  lastError?: string | null;
  finalPath?: string | null;
  /** Extra detail stored on the event row. */
  event?: Record<string, unknown>;
}

export interface NewInput {
  rule: string;
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
}

/**
 * A writer's hold on an input: while `until` (ms since epoch, by the ledger's clock) is ahead, no other
 * owner can claim it. Claims are advisory (a transition does not check them; its `from` guard already
 * keeps two writers from both advancing an input); they let several daemons sharing a ledger split the
 * work, each renewing what it works on and releasing it when done. A crashed owner's claims expire.
 */
export interface Claim {
  inputId: number;
  owner: string;
  until: number;
}

/**
 * A stable file not taken yet because it does not look complete (empty, or its format's end marker
 * missing): kept for `docdrop status` until it is taken, gone, or waited for long enough.
 */
export interface WaitingFile {
  rule: string;
  path: string;
  size: number;
  /** Why it waits. */
  reason: 'empty' | 'incomplete';
  /** Since when (ms since epoch) it has been stable like this. */
  since: number;
  /** When it is taken as it is (or, if still empty, failed as `empty_file`). */
  until: number;
}

/** One rule and state of the ledger, for metrics collected on scrape. */
export interface StateSummary {
  rule: string;
  state: InputState;
  count: number;
  /** createdAt (ms) of the oldest input in this rule and state. */
  oldestCreatedAt: number;
  /** updatedAt (ms) of the input changed last in this rule and state. */
  newestUpdatedAt: number;
}

export interface Ledger {
  /**
   * Records a newly seen stable file as `queued`, unless a non-final input already has this rule+path
   * (then returns that one, `created: false`). One commit.
   */
  addInput(input: NewInput): Promise<{ record: InputRecord; created: boolean }>;
  /** Moves an input to `state` with the patch, committing row and event together. Throws if `from` does not match. */
  transition(id: number, from: InputState, to: InputState, patch?: TransitionPatch): Promise<InputRecord>;
  /** Records an error/attempt without changing state (e.g. a retried 5xx), with backoff time. */
  recordAttempt(id: number, patch: Pick<TransitionPatch, 'attempts' | 'nextAttemptAt' | 'lastError' | 'event'>): Promise<InputRecord>;
  get(id: number): Promise<InputRecord | null>;
  /** Another input of the same rule with the same sha256 that is not failed, oldest first (duplicate check). */
  findBySha(rule: string, sha256: string, excludeId: number): Promise<InputRecord | null>;
  /**
   * Non-final inputs due now (nextAttemptAt <= now), oldest first; the pipeline's work list after a restart.
   * With `owner`, inputs another owner holds a live claim on are left out, so one instance's due list is
   * not filled up with work it cannot take (several daemons sharing the ledger).
   */
  listDue(now: number, limit: number, owner?: string): Promise<InputRecord[]>;
  /** Non-final input at this rule+path, if any (so a file being worked on is not queued twice). */
  findActiveByPath(rule: string, path: string): Promise<InputRecord | null>;
  list(filter: { state?: InputState; rule?: string; limit?: number; offset?: number }): Promise<InputRecord[]>;
  countByState(): Promise<Record<InputState, number>>;
  /** Per rule and state that has inputs: count, oldest createdAt, newest updatedAt (one query; metrics). */
  summarize(): Promise<StateSummary[]>;
  /**
   * Commits a write that changes nothing, by the path every write takes: rejects when the store cannot
   * commit now (read-only, disk full, locked past its timeout). The daemon's readiness check.
   */
  probeWrite(): Promise<void>;
  /** Inputs that became done or failed at or after `since` (ms since epoch): systemd's status line ("today"). */
  countFinishedSince(since: number): Promise<{ done: number; failed: number }>;
  events(inputId: number): Promise<LedgerEvent[]>;
  /**
   * Claims the input for `owner` for `leaseMs` from now: succeeds when nobody holds it, when `owner`
   * already does (the lease is extended), or when the holder's lease has run out. Null when another
   * owner holds a live lease. Throws if the input does not exist. One commit.
   */
  claim(id: number, owner: string, leaseMs: number): Promise<Claim | null>;
  /** Extends `owner`'s live lease to `leaseMs` from now; null when it is not held by `owner` or has expired (claim again). */
  renewClaim(id: number, owner: string, leaseMs: number): Promise<Claim | null>;
  /** Gives up `owner`'s claim (nothing happens if it is someone else's). */
  releaseClaim(id: number, owner: string): Promise<void>;
  /** The live claim on the input, if any. */
  claimOf(id: number): Promise<Claim | null>;
  /** Records (or updates) a file waiting to look complete, by rule+path. */
  setWaiting(file: WaitingFile): Promise<void>;
  /** Forgets a waiting file; without `path`, every waiting file of the rule (a daemon starting afresh). */
  clearWaiting(rule: string, path?: string): Promise<void>;
  /** Files waiting to look complete, longest waiting first. */
  listWaiting(): Promise<WaitingFile[]>;
  close(): Promise<void>;
}
