// What the SQL adapters of the Ledger port share: the `inputs` row as both schemas store it (same column
// names, JSON kept as text), its mapping to InputRecord, a patch as statement parameters, and how an
// event row is written and read back. One place, so SQLite and PostgreSQL cannot drift apart.
import type { InputRecord, InputResult, InputState, LedgerEvent, TransitionPatch } from './ledger.js';
import { INPUT_STATES } from './ledger.js';

/** Thrown when a transition's `from` does not match the stored state (another worker moved it first). */
export class LedgerConflictError extends Error {
  readonly code = 'LEDGER_CONFLICT';
  constructor(
    readonly inputId: number,
    readonly expected: InputState,
    readonly actual: InputState | null,
  ) {
    super(
      actual === null
        ? `ledger: input ${inputId} does not exist`
        : `ledger: input ${inputId} is ${actual}, not ${expected}; it was moved by someone else`,
    );
  }
}

/** A transition that would give a rule+path a second active input (unique index on active rule+path). */
export function samePathError(id: number, to: InputState): Error {
  return new Error(`ledger: input ${id} cannot become ${to}: another active input has the same rule and path`);
}

export interface Row {
  id: number;
  rule: string;
  path: string;
  size: number;
  mtime_ms: number;
  sha256: string;
  state: InputState;
  document_id: string | null;
  request_id: string | null;
  result: string | null;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  final_path: string | null;
  created_at: number;
  updated_at: number;
}

export interface EventRow {
  id: number;
  input_id: number;
  at: number;
  kind: string;
  detail: string | null;
}

/**
 * The SET list of a patch: `set_x` flags let one statement update only the fields a patch carries.
 * `flag` wraps a flag parameter for the dialect (PostgreSQL needs it typed as boolean).
 */
export function patchSet(flag: (name: string) => string = (name) => `@${name}`): string {
  const col = (c: string) => `${c} = CASE WHEN ${flag(`set_${c}`)} THEN @${c} ELSE ${c} END`;
  return [...['path', 'document_id', 'request_id', 'result', 'attempts', 'next_attempt_at', 'last_error', 'final_path'].map(col), 'updated_at = @now'].join(',\n');
}

export function patchParams(p: TransitionPatch) {
  const flag = (v: unknown) => (v === undefined ? 0 : 1);
  return {
    set_path: flag(p.path),
    path: p.path ?? null,
    set_document_id: flag(p.documentId),
    document_id: p.documentId ?? null,
    set_request_id: flag(p.requestId),
    request_id: p.requestId ?? null,
    set_result: flag(p.result),
    result: p.result == null ? null : JSON.stringify(p.result),
    set_attempts: flag(p.attempts),
    attempts: p.attempts ?? 0,
    set_next_attempt_at: flag(p.nextAttemptAt),
    next_attempt_at: Math.round(p.nextAttemptAt ?? 0),
    set_last_error: flag(p.lastError),
    last_error: p.lastError ?? null,
    set_final_path: flag(p.finalPath),
    final_path: p.finalPath ?? null,
  };
}

/** The event row of a transition: its kind names the new state; a string `kind` in the patch's event overrides it (then `to` is kept in the detail). */
export function transitionEvent(from: InputState, to: InputState, patch: TransitionPatch): { kind: string; detail: string | null } {
  return eventRow(to, { from, ...patch.event, ...(typeof patch.event?.kind === 'string' ? { to } : {}) });
}

/** The event row of an attempt that changed no state: 'error' when it carries one, else 'attempt'. */
export function attemptEvent(patch: TransitionPatch): { kind: string; detail: string | null } {
  return eventRow(patch.lastError ? 'error' : 'attempt', { attempts: patch.attempts, lastError: patch.lastError, ...patch.event });
}

/** The event row of a new input. */
export function queuedEvent(input: { path: string; size: number; sha256: string }): { kind: string; detail: string } {
  return { kind: 'queued', detail: JSON.stringify({ path: input.path, size: input.size, sha256: input.sha256 }) };
}

/** An event's kind is `defaultKind` unless the detail names one; undefined fields are left out, an empty detail is null. */
function eventRow(defaultKind: string, detail: Record<string, unknown>): { kind: string; detail: string | null } {
  const { kind, ...rest } = detail;
  const clean = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  return { kind: typeof kind === 'string' ? kind : defaultKind, detail: Object.keys(clean).length ? JSON.stringify(clean) : null };
}

export function toEvent(r: EventRow): LedgerEvent {
  const detail = r.detail === null ? null : (JSON.parse(r.detail) as Record<string, unknown>);
  return { id: r.id, inputId: r.input_id, at: r.at, kind: r.kind, ...eventStates(r.kind, detail), detail };
}

/** From and to of an event row: a transition stores `from` (and `to` when its kind is not the new state). */
function eventStates(kind: string, detail: Record<string, unknown> | null): Pick<LedgerEvent, 'from' | 'to'> {
  const isState = (v: unknown): v is InputState => typeof v === 'string' && (INPUT_STATES as readonly string[]).includes(v);
  if (isState(detail?.from)) return { from: detail.from, to: isState(detail.to) ? detail.to : isState(kind) ? kind : null };
  return kind === 'queued' ? { from: null, to: 'queued' } : { from: null, to: null };
}

export function toRecord(r: Row): InputRecord {
  return {
    id: r.id,
    rule: r.rule,
    path: r.path,
    size: r.size,
    mtimeMs: r.mtime_ms,
    sha256: r.sha256,
    state: r.state,
    documentId: r.document_id,
    requestId: r.request_id,
    result: r.result === null ? null : (JSON.parse(r.result) as InputResult),
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastError: r.last_error,
    finalPath: r.final_path,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
