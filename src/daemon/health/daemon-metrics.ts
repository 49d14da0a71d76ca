// The daemon's Prometheus metrics (docs/metrics.md), kept out of the business logic: they observe the
// ledger the pipeline writes through (each committed transition is a step's latency, a failure or a
// retry), the client's per-request hook, and, on scrape, read counts from the ledger and the queues'
// sizes. With `health.listen` unset the daemon uses noMetrics and none of this runs.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RequestInfo } from '../../api/http.js';
import type { ReadinessReport } from '../../shared/health-checks.js';
import { FINAL_STATES, INPUT_STATES, type InputRecord, type InputState, type Ledger, type StateSummary, type TransitionPatch } from '../ledger/ledger.js';
import type { MailLedger } from '../ledger/mail-ledger.js';

export interface DaemonMetrics {
  /** The client's onRequest hook: API requests by operation and status code. */
  onRequest(info: RequestInfo): void;
  /** The ledger to hand the pipeline: the same one, its commits observed. */
  observe<L extends Ledger>(ledger: L): L;
}

export const noMetrics: DaemonMetrics = { onRequest: () => undefined, observe: (ledger) => ledger };

/** What the scrape-time gauges read; known once the daemon's parts run. */
export interface MetricSources {
  ledger: Pick<Ledger, 'summarize'> & Pick<MailLedger, 'mailStats'>;
  rules: readonly string[];
  /** Waiting (`size`) and running (`pending`) work per queue: p-queue's fields. */
  queues: Readonly<Record<string, { size: number; pending: number }>>;
  mailboxes: readonly { name: string; status(): { loggedIn: boolean } }[];
  readiness(): Promise<ReadinessReport>;
  now(): number;
}

export interface LiveDaemonMetrics extends DaemonMetrics {
  readonly registry: Registry;
  /** Connects the scrape-time gauges to the running parts. */
  bind(sources: MetricSources): void;
}

/** Seconds: from sub-second local steps to a job that takes minutes. */
const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];
/** States entered at the end of a step: the step is named by the state it reaches. */
const STEP_ENDS: ReadonlySet<InputState> = new Set(['uploaded', 'submitted', 'extracted', 'written', 'done']);
const isFinal = (s: InputState) => FINAL_STATES.includes(s);

export function createDaemonMetrics(): LiveDaemonMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  let sources: MetricSources | null = null;

  const requests = new Counter({ name: 'docdrop_api_requests_total', help: 'API requests sent to the service (each retry too), by operation and HTTP status code (0: no response).', labelNames: ['operation', 'code'], registers });
  const steps = new Histogram({ name: 'docdrop_step_duration_seconds', help: 'Time from entering the previous state to entering `step` (uploaded, submitted, extracted, written, done), retries and waits included.', labelNames: ['rule', 'step'], buckets: LATENCY_BUCKETS, registers });
  const inputTime = new Histogram({ name: 'docdrop_input_duration_seconds', help: 'Time from an input being queued (its file stable) to its final state.', labelNames: ['rule', 'state'], buckets: LATENCY_BUCKETS, registers });
  const failures = new Counter({ name: 'docdrop_input_failures_total', help: 'Inputs that failed, by rule and reason (an error code of docs/errors.md).', labelNames: ['rule', 'reason'], registers });
  const retries = new Counter({ name: 'docdrop_retries_total', help: 'Steps that failed transiently and will be retried, by rule and the state whose step failed.', labelNames: ['rule', 'state'], registers });

  // Scrape-time gauges share one ledger query per scrape.
  let summary: { at: number; rows: Promise<StateSummary[]> } | null = null;
  const summarize = (s: MetricSources) => {
    if (!summary || s.now() - summary.at > 1000) summary = { at: s.now(), rows: s.ledger.summarize() };
    return summary.rows;
  };
  new Gauge({
    name: 'docdrop_inputs', help: 'Inputs in the ledger by rule and state.', labelNames: ['rule', 'state'], registers,
    async collect() {
      if (!sources) return;
      this.reset();
      for (const rule of sources.rules) for (const state of INPUT_STATES) this.set({ rule, state }, 0);
      for (const r of await summarize(sources)) this.set({ rule: r.rule, state: r.state }, r.count);
    },
  });
  new Gauge({
    name: 'docdrop_oldest_unfinished_input_age_seconds', help: 'Age of the oldest input not yet done, failed or a duplicate (timed_out included), by rule; 0 when none.', labelNames: ['rule'], registers,
    async collect() {
      if (!sources) return;
      const s = sources;
      this.reset();
      const oldest = new Map(s.rules.map((r) => [r, Number.POSITIVE_INFINITY]));
      for (const r of await summarize(s)) if (!isFinal(r.state)) oldest.set(r.rule, Math.min(oldest.get(r.rule) ?? Infinity, r.oldestCreatedAt));
      for (const [rule, at] of oldest) this.set({ rule }, Number.isFinite(at) ? Math.max(0, (s.now() - at) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'docdrop_last_success_timestamp_seconds', help: 'When an input of the rule last reached done (Unix time); absent before the first.', labelNames: ['rule'], registers,
    async collect() {
      if (!sources) return;
      this.reset();
      for (const r of await summarize(sources)) if (r.state === 'done') this.set({ rule: r.rule }, r.newestUpdatedAt / 1000);
    },
  });
  new Gauge({
    name: 'docdrop_queue_waiting', help: 'Steps waiting for a slot, by queue (upload, poll, local; requests: calls waiting for the rate limit).', labelNames: ['queue'], registers,
    collect() {
      if (!sources) return;
      for (const [queue, q] of Object.entries(sources.queues)) this.set({ queue }, q.size);
    },
  });
  new Gauge({
    name: 'docdrop_queue_running', help: 'Steps running now, by queue.', labelNames: ['queue'], registers,
    collect() {
      if (!sources) return;
      for (const [queue, q] of Object.entries(sources.queues)) this.set({ queue }, q.pending);
    },
  });
  // Counts kept by the ledger (they survive restarts): a counter set from it at each scrape.
  const mailCounter = (name: string, help: string, pick: (m: { messages: number; files: number; skipped: number }) => number) =>
    new Counter({
      name, help, labelNames: ['mailbox'], registers,
      async collect() {
        if (!sources) return;
        this.reset();
        for (const m of await sources.ledger.mailStats()) this.inc({ mailbox: m.mailbox }, pick(m));
      },
    });
  mailCounter('docdrop_mail_messages_taken_total', 'Mail messages whose attachments were dropped into an inbox, by mailbox (from the ledger).', (m) => m.messages);
  mailCounter('docdrop_mail_files_dropped_total', 'Attachment files dropped into an inbox, by mailbox (from the ledger).', (m) => m.files);
  mailCounter('docdrop_mail_messages_skipped_total', "Mail messages the mailbox's filter left untouched (on the server or in the Maildir), by mailbox (from the ledger).", (m) => m.skipped);
  new Gauge({
    name: 'docdrop_mailbox_logged_in', help: '1 while the mailbox has a logged-in IMAP connection, else 0.', labelNames: ['mailbox'], registers,
    collect() {
      for (const m of sources?.mailboxes ?? []) this.set({ mailbox: m.name }, m.status().loggedIn ? 1 : 0);
    },
  });
  const checks = new Gauge({ name: 'docdrop_readiness_check', help: '1 when the readiness check passed at this scrape, else 0 (the /readyz checks).', labelNames: ['check'], registers });
  new Gauge({
    name: 'docdrop_ready', help: '1 when every readiness check passed at this scrape (/readyz answers 200), else 0.', registers,
    async collect() {
      if (!sources) return;
      const report = await sources.readiness();
      checks.reset();
      for (const c of report.checks) checks.set({ check: c.name }, c.ok ? 1 : 0);
      this.set(report.ready ? 1 : 0);
    },
  });

  const entered = new Map<number, number>();
  const onTransition = (to: InputState, patch: TransitionPatch, r: InputRecord) => {
    const since = entered.get(r.id);
    if (since !== undefined && STEP_ENDS.has(to)) steps.observe({ rule: r.rule, step: to }, (r.updatedAt - since) / 1000);
    if (!isFinal(to)) return void entered.set(r.id, r.updatedAt);
    entered.delete(r.id);
    inputTime.observe({ rule: r.rule, state: to }, (r.updatedAt - r.createdAt) / 1000);
    if (to === 'failed') failures.inc({ rule: r.rule, reason: failureReason(patch) });
  };

  return {
    registry,
    bind(s) {
      sources = s;
    },
    onRequest(info) {
      requests.inc({ operation: operationOf(info.method, info.path), code: String(info.status) });
    },
    observe(ledger) {
      // Only the three writes are wrapped; every other call goes to the ledger itself (bound, so an
      // adapter's private state stays its own).
      const wrapped: Partial<Ledger> = {
        addInput: async (input) => {
          const out = await ledger.addInput(input);
          // Inputs resumed after a restart have no entry: their first step is not timed.
          if (out.created) entered.set(out.record.id, out.record.createdAt);
          return out;
        },
        transition: async (id, from, to, patch = {}) => {
          const r = await ledger.transition(id, from, to, patch);
          onTransition(to, patch, r);
          return r;
        },
        recordAttempt: async (id, patch) => {
          const r = await ledger.recordAttempt(id, patch);
          if (patch.lastError) retries.inc({ rule: r.rule, state: r.state });
          return r;
        },
      };
      const bound = new Map<PropertyKey, unknown>();
      return new Proxy(ledger, {
        get(target, prop) {
          if (Object.hasOwn(wrapped, prop)) return wrapped[prop as keyof Ledger];
          const v: unknown = Reflect.get(target, prop, target);
          if (typeof v !== 'function') return v;
          if (!bound.has(prop)) bound.set(prop, (v as (...a: unknown[]) => unknown).bind(target));
          return bound.get(prop);
        },
      });
    },
  };
}

/** The failure's code: the pipeline's event carries it as `reason`; else the `code: message` of lastError. */
function failureReason(patch: TransitionPatch): string {
  const reason = patch.event?.reason;
  if (typeof reason === 'string') return reason;
  const code = /^([a-z_]+):/.exec(patch.lastError ?? '')?.[1];
  return code ?? 'unknown';
}

/** Path segments that name an operation; anything else (ids, a base path) folds to `:id`, keeping labels few. */
const ROUTE_WORDS = new Set(['v1', 'files', 'documents', 'templates', 'classifiers', 'run_parser', 'classify', 'extract', 'export', 'upload_url']);

/** `GET /v1/documents/:id/run_parser`, `GET /files`, `PUT presigned` (a pre-signed upload or download). */
export function operationOf(method: string, path: string): string {
  const segs = path.split('/').filter(Boolean);
  const start = segs.findIndex((s) => s === 'v1' || s === 'files');
  if (start < 0 || segs.includes('presigned')) return `${method} presigned`;
  return `${method} /${segs.slice(start).map((s) => (ROUTE_WORDS.has(s) ? s : ':id')).join('/')}`;
}
