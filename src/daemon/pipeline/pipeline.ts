// The daemon's step machine. Each input moves queued -> uploaded -> submitted -> extracted -> written ->
// done (or failed/duplicate; timed_out is re-polled slowly). Invariant: a step's outcome is committed to the
// ledger BEFORE the next side effect starts, so after kill -9 a restart repeats at most the step in flight.
// Work comes from two places: intake (accept) and the ledger's due list (scheduler tick), which is also
// how a restart resumes every unfinished input. Several daemons may share one ledger: each input is worked
// on only under this instance's claim (input-claims.ts), checked before every side effect.
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Logger } from '../../shared/logger.js';
import { classifyError } from '../../shared/errors.js';
import type { InputRecord, InputResult, InputState, Ledger } from '../ledger/ledger.js';
import { FINAL_STATES } from '../ledger/ledger.js';
import { backoffDelayMs, retryDelayMs, type BackoffPolicy, type Jitter } from '../../shared/backoff.js';
import { realScheduler, type Cancel, type Scheduler } from '../../shared/scheduler.js';
import { incompleteWaitMs, type FileInspection } from '../inputs/inspect-file.js';
import type { DispositionPort, FailureInfo, FileInspector, OutputsPort, PipelineApi, PipelineRule } from './ports.js';
import type { StepQueues } from './rate-limit.js';
import { ClaimLostError, defaultInstanceId, InputClaims } from './input-claims.js';

export interface PollingPolicy {
  initialMs: number;
  maxMs: number;
  giveUpAfterMs: number;
  /** Re-check interval of timed_out jobs. */
  slowRecheckMs: number;
}

export interface PipelineOptions {
  ledger: Ledger;
  api: PipelineApi;
  outputs: OutputsPort;
  disposition: DispositionPort;
  files: FileInspector;
  rules: ReadonlyMap<string, PipelineRule>;
  queues: StepQueues;
  polling: PollingPolicy;
  /** Backoff of retried calls (429, 5xx, network) and of local steps that failed (disk full...). */
  retry?: BackoffPolicy;
  /** Local steps (output write, move) that fail transiently this many times in a row fail the input. */
  maxLocalAttempts?: number;
  /**
   * The same for a disk that is full or failing (`disk_unavailable`: ENOSPC, EDQUOT, EIO) or a PostgreSQL
   * ledger that is away (`ledger_unavailable`); default: no limit, the input keeps its result and waits,
   * with backoff, until the disk or database is back.
   */
  maxDiskAttempts?: number;
  /** Transient or rate-limited failures of API steps in a row before the input fails; default: no limit. */
  maxApiAttempts?: number;
  logger: Logger;
  tickMs?: number;
  /** Upper bound of inputs held in memory queues at once. */
  maxInFlight?: number;
  /** Clock and timers; a VirtualScheduler in tests. */
  scheduler?: Scheduler;
  /** Owner of this instance's claims on inputs (config instance.id); default hostname:pid:random. */
  owner?: string;
  /** How long a claim lasts unless renewed (config instance.lease_ms); default 30 s. */
  leaseMs?: number;
}

const STEP_PRIORITY: Record<InputState, number> = {
  queued: 1,
  uploaded: 2,
  submitted: 1,
  timed_out: 0,
  extracted: 2,
  written: 3,
  done: 0,
  failed: 0,
  duplicate: 0,
};

/** +-20%: inputs submitted together do not poll in lock-step. */
const JITTER: Jitter = { low: 0.8, high: 1.2 };

/** Waits up to this long are held in memory; longer ones come back through the ledger's due list. */
const HOLD_MAX_MS = 60_000;

const API_STATES: ReadonlySet<InputState> = new Set(['queued', 'uploaded', 'submitted', 'timed_out']);

/** What a config reload may replace (see Pipeline.reconfigure). */
export type PipelineSettings = Pick<PipelineOptions, 'rules' | 'api' | 'outputs' | 'disposition' | 'polling'> & {
  /** Steps open at once per queue (service.upload_concurrency, poll_concurrency). */
  concurrency?: { upload: number; poll: number };
};

export class Pipeline {
  private o: Required<Omit<PipelineOptions, 'retry' | 'scheduler' | 'owner' | 'leaseMs'>> & { retry: BackoffPolicy; now: () => number };
  private readonly claims: InputClaims;
  /** Rules a reload removed: no new file is taken for them, but their inputs in the ledger still finish. */
  private readonly retired = new Set<string>();
  /** Scheduler time of the last completed tick (the watchdog's proof that the pipeline turns). */
  private lastTurn: number;
  private readonly scheduler: Scheduler;
  private readonly inFlight = new Set<number>();
  private readonly accepting = new Set<string>();
  private readonly recheckTimers = new Map<string, Cancel>();
  /** Stable files that do not look complete yet, by rule+path: the version seen and since when. */
  private readonly incomplete = new Map<string, { size: number; mtimeMs: number; since: number }>();
  /** When each polled input was submitted (give_up_after_s is measured from it); filled from the ledger after a restart. */
  private readonly submittedAt = new Map<number, number>();
  private tickTimer: Cancel | null = null;
  /** Timers of inputs waiting in memory for their next step (see dispatchLater). */
  private readonly waiting = new Set<Cancel>();
  private ticking: Promise<void> | null = null;
  private stopping = false;

  constructor(options: PipelineOptions) {
    this.scheduler = options.scheduler ?? realScheduler;
    this.o = {
      retry: { initialMs: options.polling.initialMs, maxMs: Math.max(options.polling.maxMs, 60_000), jitter: JITTER },
      maxLocalAttempts: 5,
      maxDiskAttempts: Number.POSITIVE_INFINITY,
      maxApiAttempts: Number.POSITIVE_INFINITY,
      // The due list only catches what is not held in memory: inputs resumed after a restart, long waits,
      // changes by `docdrop retry`. Next steps and poll backoffs are dispatched directly.
      tickMs: 1000,
      maxInFlight: 2000,
      now: () => this.scheduler.now(),
      ...options,
    } as Pipeline['o'];
    this.lastTurn = this.scheduler.now();
    this.claims = new InputClaims({
      ledger: options.ledger,
      owner: options.owner ?? defaultInstanceId(),
      leaseMs: options.leaseMs ?? 30_000,
      logger: options.logger,
      scheduler: this.scheduler,
    });
  }

  /** This instance's owner id on claims. */
  get owner(): string {
    return this.claims.owner;
  }

  /**
   * A config reload: new and changed rules, adapters and polling apply to every step that starts from now
   * on (a step already running finishes with the settings it started with). A rule missing from `rules`
   * takes no new file, but its inputs already in the ledger finish with its last settings, so nothing in
   * flight is dropped; after a restart without it they wait in the ledger until it comes back.
   */
  reconfigure({ concurrency, ...next }: PipelineSettings): void {
    if (concurrency) {
      this.o.queues.upload.concurrency = concurrency.upload;
      this.o.queues.poll.concurrency = concurrency.poll;
    }
    const rules = new Map(this.o.rules);
    for (const name of rules.keys()) if (!next.rules.has(name)) this.retired.add(name);
    for (const [name, rule] of next.rules) {
      rules.set(name, rule);
      this.retired.delete(name);
    }
    this.o = { ...this.o, ...next, rules };
  }

  /** When the scheduler last completed a turn (tick), on its clock; a stuck ledger query stops it (watchdog, /healthz). */
  get lastTurnAt(): number {
    return this.lastTurn;
  }

  get tickMs(): number {
    return this.o.tickMs;
  }

  /** Starts the scheduler: resumes every non-final input the ledger holds, then keeps picking due ones. */
  start(): void {
    // Waiting files of an earlier run are found again by intake's first scan.
    for (const rule of this.o.rules.keys()) void this.o.ledger.clearWaiting(rule).catch(() => undefined);
    this.scheduleTick(0);
  }

  /** Stops taking work; steps already running finish (their outcome is committed), queued ones stay resumable. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.tickTimer?.();
    this.tickTimer = null;
    for (const cancel of this.waiting) cancel();
    this.waiting.clear();
    for (const cancel of this.recheckTimers.values()) cancel();
    this.recheckTimers.clear();
    const { upload, poll, local } = this.o.queues;
    for (const q of [upload, poll, local]) q.clear();
    await this.ticking;
    await Promise.all([upload.onIdle(), poll.onIdle(), local.onIdle()]);
    await this.claims.stop();
  }

  /** The step queues, for their depths (metrics). */
  get queues(): StepQueues {
    return this.o.queues;
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /**
   * Intake reports a stable file. Safe to call repeatedly for the same path (rescans). Resolves with the
   * input's ledger row, or null when the file was not taken (gone, not complete yet, already known).
   */
  async accept(ruleName: string, path: string): Promise<InputRecord | null> {
    const key = `${ruleName}\0${path}`;
    if (this.stopping || this.accepting.has(key) || this.retired.has(ruleName)) return null;
    const rule = this.o.rules.get(ruleName);
    if (!rule) return null;
    this.accepting.add(key);
    try {
      return await this.o.queues.local.add(() => this.intake(rule, path));
    } catch (err) {
      this.o.logger.warn({ rule: ruleName, path, err: errorText(err) }, 'could not take file; will retry');
      this.recheckLater(ruleName, path);
      return null;
    } finally {
      this.accepting.delete(key);
    }
  }

  private async intake(rule: PipelineRule, path: string): Promise<InputRecord | null> {
    const { ledger, files, logger } = this.o;
    const active = await ledger.findActiveByPath(rule.name, path);
    if (active) {
      // Replaced under the same name while its input runs: the new bytes are a new input, taken once the
      // old one is finished (whose disposal leaves them alone).
      const st = await stat(path).catch(() => null);
      if (st && (st.size !== active.size || st.mtimeMs !== active.mtimeMs)) this.recheckLater(rule.name, path);
      return null;
    }
    let file = await files.inspect(path);
    if (!file) {
      await this.stopWaiting(rule.name, path);
      return null; // gone before we got to it: nothing to do
    }
    const { kind } = file;
    if (!file.complete) {
      if (!(await this.waitedEnough(rule, path, file))) return null;
      file = await files.inspect(path, { hashIncomplete: true });
      if (!file?.sha256) return null;
    }
    const sha256 = file.sha256!;
    this.clearRecheck(rule.name, path);
    await this.stopWaiting(rule.name, path);
    // A file left where it was (kept after success, or reached through a symlink) is seen again at every
    // start; the ledger already has it finished.
    const prev = await ledger.findBySha(rule.name, sha256, -1);
    if (prev && prev.path === path && (prev.finalPath === path || (rule.afterSuccess === 'keep' && prev.state === 'done'))) return null;
    const { record, created } = await ledger.addInput({ rule: rule.name, path, size: file.size, mtimeMs: file.mtimeMs, sha256 });
    if (!created) return null;
    logger.info({ id: record.id, rule: rule.name, path, kind }, 'queued');
    if (file.size === 0 || !kind) {
      // Held before the next await, so the scheduler's due list cannot start an upload of it meanwhile.
      this.inFlight.add(record.id);
      try {
        if (!(await this.claims.take(record.id))) return record; // another instance took it first
        return await this.failInput(
          rule,
          record,
          file.size === 0
            ? { reason: 'empty_file', message: `the file is empty (0 bytes) and got no content within ${Math.round(this.incompleteWaitMs(rule) / 1000)} s` }
            : { reason: 'unsupported_file_type', message: 'the content is not a PDF, JPEG, PNG or TIFF (checked from the bytes, not the name)' },
        );
      } finally {
        this.inFlight.delete(record.id);
        await this.claims.release(record.id);
      }
    }
    this.dispatch(record, true);
    return record;
  }

  private incompleteWaitMs(rule: PipelineRule): number {
    return rule.incompleteWaitMs ?? incompleteWaitMs(0);
  }

  /**
   * A stable file that does not look complete (empty, or its end marker missing) is checked again every
   * 2 s, logged once and recorded for `docdrop status`; once it has stayed so, unchanged, for the rule's
   * incomplete wait, it is taken as it is. True when that time has come.
   */
  private async waitedEnough(rule: PipelineRule, path: string, file: FileInspection): Promise<boolean> {
    const key = `${rule.name}\0${path}`;
    const now = this.o.now();
    const reason = file.size === 0 ? 'empty' : 'incomplete';
    let w = this.incomplete.get(key);
    if (!w || w.size !== file.size || w.mtimeMs !== file.mtimeMs) {
      const first = !w;
      w = { size: file.size, mtimeMs: file.mtimeMs, since: now };
      this.incomplete.set(key, w);
      const until = now + this.incompleteWaitMs(rule);
      await this.o.ledger.setWaiting({ rule: rule.name, path, size: file.size, reason, since: now, until });
      if (first) {
        this.o.logger.info(
          { rule: rule.name, path, kind: file.kind, size: file.size, waitS: Math.round(this.incompleteWaitMs(rule) / 1000) },
          reason === 'empty' ? 'file is empty; waiting for its content' : 'file is not complete yet (its end is missing); waiting for the rest',
        );
      }
    }
    if (now - w.since >= this.incompleteWaitMs(rule)) {
      if (reason === 'incomplete') {
        this.o.logger.warn({ rule: rule.name, path, kind: file.kind, size: file.size }, 'file stayed incomplete; taking it as it is');
      }
      return true;
    }
    this.recheckLater(rule.name, path);
    return false;
  }

  private async stopWaiting(ruleName: string, path: string): Promise<void> {
    if (this.incomplete.delete(`${ruleName}\0${path}`)) await this.o.ledger.clearWaiting(ruleName, path);
  }

  private recheckLater(ruleName: string, path: string): void {
    if (this.stopping) return;
    const key = `${ruleName}\0${path}`;
    this.recheckTimers.get(key)?.();
    const cancel = this.scheduler.schedule(2000, () => {
      this.recheckTimers.delete(key);
      void this.accept(ruleName, path);
    });
    this.recheckTimers.set(key, cancel);
  }

  private clearRecheck(ruleName: string, path: string): void {
    const key = `${ruleName}\0${path}`;
    this.recheckTimers.get(key)?.();
    this.recheckTimers.delete(key);
  }

  private scheduleTick(delay: number): void {
    if (this.stopping) return;
    this.tickTimer = this.scheduler.schedule(delay, () => {
      this.ticking = this.tick().finally(() => {
        this.ticking = null;
        this.lastTurn = this.scheduler.now();
        this.scheduleTick(this.o.tickMs);
      });
    });
  }

  private async tick(): Promise<void> {
    const room = this.o.maxInFlight - this.inFlight.size;
    if (room <= 0) return;
    try {
      // In-flight inputs are still due in the ledger; ask for enough rows to see past them.
      const due = await this.o.ledger.listDue(this.o.now(), this.inFlight.size + room, this.claims.owner);
      for (const r of due) this.dispatch(r);
    } catch (err) {
      this.o.logger.error({ err: errorText(err) }, 'ledger query failed');
    }
  }

  /** Runs the input's next step under this instance's claim; `fresh`: the record was just read or written by us. */
  private dispatch(record: InputRecord, fresh = false): void {
    if (this.stopping || this.inFlight.has(record.id) || FINAL_STATES.includes(record.state)) return;
    const rule = this.o.rules.get(record.rule);
    if (!rule) return; // a rule removed from the config: its inputs wait until it comes back
    this.inFlight.add(record.id);
    if (this.claims.holds(record.id)) return this.enqueue(rule, record);
    this.claimed(record, fresh).then(
      (current) => {
        if (current) return this.enqueue(rule, current);
        this.inFlight.delete(record.id);
      },
      (err: unknown) => {
        this.inFlight.delete(record.id);
        this.o.logger.error({ id: record.id, err: errorText(err) }, 'could not claim input; the due list tries again');
      },
    );
  }

  /**
   * Takes the input's claim and reads it back: another instance may have moved it on since it was listed.
   * Null (the claim given back) when another instance holds it, or it is final or not due any more.
   */
  private async claimed(record: InputRecord, fresh: boolean): Promise<InputRecord | null> {
    if (!(await this.claims.take(record.id))) return null;
    const current = fresh ? record : await this.o.ledger.get(record.id);
    if (current && !this.stopping && !FINAL_STATES.includes(current.state) && (fresh || current.nextAttemptAt <= this.o.now())) return current;
    await this.claims.release(record.id);
    return null;
  }

  private enqueue(rule: PipelineRule, record: InputRecord): void {
    const q = this.queueFor(record.state);
    // Later steps go first: finishing started inputs beats starting new ones (latency, memory, fewer
    // half-done inputs to resume after a crash).
    q.add(() => this.runStep(rule, record), { priority: STEP_PRIORITY[record.state] }).then(
      (next) => {
        this.inFlight.delete(record.id);
        if (!next || FINAL_STATES.includes(next.state)) return void this.claims.release(record.id);
        const wait = next.nextAttemptAt - this.o.now();
        if (wait <= 0) this.dispatch(next, true);
        else if (wait <= HOLD_MAX_MS) this.dispatchLater(next, wait);
        // Longer waits (timed_out re-checks, long backoffs) are left to the scheduler's due list, and so
        // is the claim: whichever instance is free when it is due takes it.
        else void this.claims.release(record.id);
      },
      (err: unknown) => {
        this.inFlight.delete(record.id);
        void this.claims.release(record.id);
        this.o.logger.error({ id: record.id, state: record.state, err: errorText(err) }, 'step crashed');
      },
    );
  }

  /** Keeps a short wait (a poll's backoff) in memory, so the scheduler does not re-read it from the ledger. */
  private dispatchLater(record: InputRecord, wait: number): void {
    if (this.stopping) return;
    this.inFlight.add(record.id);
    const cancel = this.scheduler.schedule(wait, () => {
      this.waiting.delete(cancel);
      this.inFlight.delete(record.id);
      this.dispatch(record, true);
    });
    this.waiting.add(cancel);
  }

  private queueFor(state: InputState) {
    const { upload, poll, local } = this.o.queues;
    if (state === 'queued' || state === 'uploaded') return upload;
    if (state === 'submitted' || state === 'timed_out') return poll;
    return local;
  }

  /** Runs the one step the input's state calls for. Returns the input afterwards, or null to drop it. */
  private async runStep(rule: PipelineRule, r: InputRecord): Promise<InputRecord | null> {
    if (this.stopping) return null;
    try {
      this.claims.mustHold(r.id);
      switch (r.state) {
        case 'queued':
          return await this.stepQueued(rule, r);
        case 'uploaded':
          return await this.stepUploaded(rule, r);
        case 'submitted':
        case 'timed_out':
          return await this.stepPoll(rule, r);
        case 'extracted':
          return await this.stepExtracted(rule, r);
        case 'written':
          return await this.stepWritten(rule, r);
        default:
          return null;
      }
    } catch (err) {
      return await this.afterStepError(rule, r, err).catch((inner: unknown) => {
        if (!(inner instanceof ClaimLostError)) throw inner;
        this.o.logger.warn({ id: r.id, state: r.state, owner: this.claims.owner }, 'claim lost; the input is left to whichever instance holds it');
        return null;
      });
    }
  }

  private async afterStepError(rule: PipelineRule, r: InputRecord, err: unknown): Promise<InputRecord | null> {
    if (err instanceof ClaimLostError) throw err;
    // Another process (e.g. `docdrop retry`) moved the input meanwhile: drop this stale step.
    const current = await this.o.ledger.get(r.id).catch(() => null);
    if (!current || current.state !== r.state) return null;
    return await this.onStepError(rule, current, err);
  }

  private async stepQueued(rule: PipelineRule, r: InputRecord): Promise<InputRecord> {
    const { ledger, api, disposition, logger } = this.o;
    if (rule.duplicates === 'skip') {
      const original = await ledger.findBySha(rule.name, r.sha256, r.id);
      if (original && original.id < r.id) {
        this.claims.mustHold(r.id);
        const finalPath = await disposition.duplicate(rule, r, original);
        logger.info({ id: r.id, path: r.path, original: original.id, originalPath: original.path }, 'duplicate skipped');
        return ledger.transition(r.id, 'queued', 'duplicate', { finalPath, event: { original: original.id, originalPath: original.path } });
      }
    }
    const st = await stat(r.path).catch(() => null);
    if (!st) {
      const taken = await this.takenBefore(rule, r);
      if (taken) {
        // Two instances saw the same new file: the other one's input took it and moved it away.
        logger.info({ id: r.id, path: r.path, original: taken.id }, 'file already taken by another input; nothing to do');
        return ledger.transition(r.id, 'queued', 'duplicate', {
          finalPath: taken.finalPath,
          event: { original: taken.id, originalPath: taken.path, note: 'the file was taken and moved by an earlier input (another instance saw it too)' },
        });
      }
      return ledger.transition(r.id, r.state, 'failed', { lastError: 'input_vanished: the input file vanished before upload', finalPath: null });
    }
    // Rewritten with the same bytes (a mailbox dropping an attachment again after a crash, a touch) it is
    // still this input; other bytes are a new input, taken once this one is final.
    if ((st.size !== r.size || st.mtimeMs !== r.mtimeMs) && (await this.o.files.inspect(r.path))?.sha256 !== r.sha256) {
      return ledger.transition(r.id, r.state, 'failed', {
        lastError: 'input_vanished: the input file was replaced by other content before upload; the new content is a new input',
        finalPath: null,
      });
    }
    this.claims.mustHold(r.id);
    const documentId = await api.upload(r.path);
    logger.debug({ id: r.id, documentId }, 'uploaded');
    return ledger.transition(r.id, 'queued', 'uploaded', { documentId, attempts: 0, nextAttemptAt: this.o.now(), lastError: null });
  }

  private async stepUploaded(rule: PipelineRule, r: InputRecord): Promise<InputRecord> {
    const requestId = await this.o.api.submit(rule, r.documentId!);
    const now = this.o.now();
    this.submittedAt.set(r.id, now);
    this.o.logger.debug({ id: r.id, requestId }, 'submitted');
    return this.o.ledger.transition(r.id, 'uploaded', 'submitted', {
      requestId,
      attempts: 0,
      nextAttemptAt: now + this.o.polling.initialMs,
      lastError: null,
    });
  }

  private async stepPoll(rule: PipelineRule, r: InputRecord): Promise<InputRecord | null> {
    const { ledger, api, polling, logger } = this.o;
    const job = await api.getJob(r.requestId!, basename(r.path));
    const now = this.o.now();
    if (job.outcome === 'completed') {
      this.submittedAt.delete(r.id);
      logger.debug({ id: r.id, requestId: r.requestId }, 'extracted');
      return ledger.transition(r.id, r.state, 'extracted', { result: job.result, attempts: 0, nextAttemptAt: now, lastError: null, event: { status: job.status } });
    }
    if (job.outcome === 'failed') {
      this.submittedAt.delete(r.id);
      return this.failInput(rule, r, {
        reason: job.status === 'exception' ? 'job_exception' : 'job_failed',
        message: job.errorMessage ?? `the job ended ${job.status}`,
        status: job.status,
        user_error_msg: job.errorMessage,
        request_id: r.requestId,
        document_id: r.documentId,
      });
    }
    if (r.state === 'timed_out') {
      return ledger.recordAttempt(r.id, { attempts: r.attempts + 1, nextAttemptAt: now + polling.slowRecheckMs });
    }
    const since = await this.submittedTime(r);
    if (now - since >= polling.giveUpAfterMs) {
      this.submittedAt.delete(r.id);
      logger.warn({ id: r.id, requestId: r.requestId, waitedS: Math.round((now - since) / 1000) }, 'job still not finished; timed out, will re-check slowly');
      return ledger.transition(r.id, 'submitted', 'timed_out', {
        attempts: 0,
        nextAttemptAt: now + polling.slowRecheckMs,
        lastError: `job still ${job.status} after ${Math.round(polling.giveUpAfterMs / 1000)} s`,
      });
    }
    const attempts = r.attempts + 1;
    const delay = backoffDelayMs(attempts, { initialMs: polling.initialMs, maxMs: polling.maxMs, jitter: JITTER });
    return ledger.recordAttempt(r.id, { attempts, nextAttemptAt: now + delay });
  }

  private async submittedTime(r: InputRecord): Promise<number> {
    const cached = this.submittedAt.get(r.id);
    if (cached !== undefined) return cached;
    const events = await this.o.ledger.events(r.id);
    const last = events.filter((e) => e.kind === 'submitted').at(-1);
    const at = last?.at ?? r.updatedAt;
    this.submittedAt.set(r.id, at);
    return at;
  }

  private async stepExtracted(rule: PipelineRule, r: InputRecord): Promise<InputRecord> {
    const result = r.result as InputResult;
    const outputs = await this.o.outputs.write(rule, { ...r, result });
    this.o.logger.info({ id: r.id, outputs }, 'written');
    return this.o.ledger.transition(r.id, 'extracted', 'written', { result: { ...result, outputs }, attempts: 0, nextAttemptAt: this.o.now(), lastError: null });
  }

  private async stepWritten(rule: PipelineRule, r: InputRecord): Promise<InputRecord> {
    const finalPath = await this.o.disposition.succeed(rule, r);
    this.o.logger.info({ id: r.id, path: r.path, finalPath }, 'done');
    return this.o.ledger.transition(r.id, 'written', 'done', { finalPath, lastError: null });
  }

  /** An earlier, finished input of the same file (rule, path and content) that took it away, if any. */
  private async takenBefore(rule: PipelineRule, r: InputRecord): Promise<InputRecord | null> {
    const earlier = await this.o.ledger.findBySha(rule.name, r.sha256, r.id);
    const finished = earlier?.state === 'done' || earlier?.state === 'duplicate';
    return earlier && finished && earlier.id < r.id && earlier.path === r.path && earlier.mtimeMs === r.mtimeMs ? earlier : null;
  }

  private async failInput(rule: PipelineRule, r: InputRecord, info: FailureInfo): Promise<InputRecord> {
    this.claims.mustHold(r.id);
    // Disposition finds a file it already moved before a crash lost this commit, and returns that path.
    const finalPath = await this.o.disposition.fail(rule, r, info);
    this.o.logger.warn({ id: r.id, path: r.path, finalPath, reason: info.reason, message: info.message }, 'failed');
    return this.o.ledger.transition(r.id, r.state, 'failed', {
      finalPath,
      lastError: `${info.reason}: ${info.message}`,
      event: { ...info },
    });
  }

  /**
   * Sorts a step's error by its class (src/shared/errors.ts): permanent fails the input now with its code;
   * rate-limited and transient ones are retried with backoff (a Retry-After as the floor) until the step's
   * attempt budget is spent.
   */
  private async onStepError(rule: PipelineRule, r: InputRecord, err: unknown): Promise<InputRecord | null> {
    const { ledger, logger } = this.o;
    const now = this.o.now();
    const attempts = r.attempts + 1;
    const message = errorText(err);
    const failure = classifyError(err);
    const ids = { request_id: r.requestId, document_id: r.documentId };
    try {
      if (failure.failureClass === 'permanent') {
        return await this.failInput(rule, r, { reason: failure.code, message: failure.message, ...failure.context, ...ids });
      }
      const isApi = API_STATES.has(r.state);
      const disk = !isApi && failure.code === 'disk_unavailable';
      // A full disk and a database away both pass when they come back, however long that takes.
      const waitsOut = disk || failure.code === 'ledger_unavailable';
      if (attempts >= (isApi ? this.o.maxApiAttempts : waitsOut ? this.o.maxDiskAttempts : this.o.maxLocalAttempts)) {
        return await this.failInput(rule, r, {
          reason: 'retries_exhausted',
          message: `the ${r.state} step failed ${attempts} times in a row: ${message}`,
          ...failure.context,
          ...ids,
        });
      }
      const delay = retryDelayMs(attempts, this.o.retry, failure.retryAfterMs);
      if (disk && r.attempts === 0) {
        // Once per spell and input, at error level: this needs a person (free space, check the disk).
        logger.error(
          { id: r.id, state: r.state, attempts, retryInMs: delay, code: failure.code, errno: failure.context.code, err: message },
          `disk full or failing (${failure.context.code}): the ${r.state} step waits and retries until the disk is back; the input keeps its result`,
        );
      } else {
        logger.warn({ id: r.id, state: r.state, attempts, retryInMs: delay, code: failure.code, err: message }, 'step failed; will retry');
      }
      return await ledger.recordAttempt(r.id, { attempts, nextAttemptAt: now + delay, lastError: message, event: { error: message } });
    } catch (inner) {
      if (inner instanceof ClaimLostError) throw inner;
      logger.error({ id: r.id, err: errorText(inner), cause: message }, 'could not record step error');
      return null;
    }
  }
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
