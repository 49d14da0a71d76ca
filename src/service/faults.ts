// Fault injection for testing clients against a misbehaving service: added latency, 429 with
// Retry-After, 5xx, dropped connections, and jobs that end failed/exception or run slowly.
// Faults apply only to API calls, i.e. requests carrying an x-api-key header: pre-signed URLs (upload,
// storage_key, file_presigned_url, export download) carry no key and are never faulted, so
// a client can always fetch what a job produced. With a seed, the sequence of decisions is repeatable.
import type { FastifyInstance } from 'fastify';
import { ErrorCodes } from '../api/error-codes.js';
import { sleep } from '../shared/scheduler.js';

/** Milliseconds: a fixed value or an inclusive [min, max] range drawn uniformly. */
export type MsRange = number | [number, number];

export interface FaultOptions {
  latencyMs?: MsRange;
  /** Share 0..1 of API requests answered 429 with Retry-After. */
  rate429?: number;
  /** Retry-After value of injected 429s, in seconds (default 1). */
  retryAfterSeconds?: number;
  /** Share 0..1 of API requests answered 500. */
  rate5xx?: number;
  /** Share 0..1 of API requests whose socket is destroyed without an answer. */
  dropRate?: number;
  /** Share 0..1 of jobs that end 'failed'. */
  jobFailedRate?: number;
  /** Share 0..1 of jobs that end 'exception'. */
  jobExceptionRate?: number;
  /** Added processing time per job. */
  jobDelayMs?: MsRange;
  /** Seed of the decision sequence; omitted = unseeded. */
  seed?: number;
}

export type InjectedJobOutcome = { status: 'failed' | 'exception'; message: string } | null;

/** Parses a CLI value 'N' or 'MIN-MAX' (milliseconds). */
export function parseMsRange(text: string): MsRange {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
  if (!m) throw new Error(`expected milliseconds as N or MIN-MAX (e.g. 200 or 100-500), received '${text}'`);
  const min = Number(m[1]);
  if (m[2] === undefined) return min;
  const max = Number(m[2]);
  if (max < min) throw new Error(`expected MIN <= MAX in '${text}'`);
  return [min, max];
}

/** Checks the option values once, with messages naming the option. */
export function validateFaultOptions(o: FaultOptions): FaultOptions {
  for (const k of ['rate429', 'rate5xx', 'dropRate', 'jobFailedRate', 'jobExceptionRate'] as const) {
    const v = o[k];
    if (v !== undefined && !(v >= 0 && v <= 1)) throw new Error(`fault option ${k}: expected a share between 0 and 1, received ${v}`);
  }
  if ((o.jobFailedRate ?? 0) + (o.jobExceptionRate ?? 0) > 1) throw new Error('fault options jobFailedRate + jobExceptionRate must not exceed 1');
  if ((o.rate429 ?? 0) + (o.rate5xx ?? 0) + (o.dropRate ?? 0) > 1) throw new Error('fault options rate429 + rate5xx + dropRate must not exceed 1');
  if (o.retryAfterSeconds !== undefined && !(o.retryAfterSeconds >= 0)) throw new Error(`fault option retryAfterSeconds: expected >= 0, received ${o.retryAfterSeconds}`);
  return o;
}

/** mulberry32: tiny, fast, good enough to make fault sequences repeatable. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private readonly random: () => number;
  /** Job outcomes draw from their own stream: with a seed, the n-th job's fate does not depend on how
   * many HTTP requests (retries, polls) happened to interleave before it. */
  private readonly jobRandom: () => number;
  private readonly stop = new AbortController();

  constructor(private readonly opts: FaultOptions = {}) {
    validateFaultOptions(opts);
    this.random = opts.seed === undefined ? Math.random : seededRandom(opts.seed);
    this.jobRandom = opts.seed === undefined ? Math.random : seededRandom(opts.seed ^ 0x5bd1e995);
  }

  get active(): boolean {
    const o = this.opts;
    return Boolean(o.latencyMs || o.rate429 || o.rate5xx || o.dropRate || o.jobFailedRate || o.jobExceptionRate || o.jobDelayMs);
  }

  private draw(range: MsRange | undefined): number {
    if (range === undefined) return 0;
    if (typeof range === 'number') return range;
    return Math.round(range[0] + this.random() * (range[1] - range[0]));
  }

  /** Installs the HTTP faults as the first onRequest hook (register before the auth hook). */
  install(app: FastifyInstance): void {
    const o = this.opts;
    if (!o.latencyMs && !o.rate429 && !o.rate5xx && !o.dropRate) return;
    app.addHook('onRequest', async (request, reply) => {
      if (request.headers['x-api-key'] === undefined) return;
      const latency = this.draw(o.latencyMs);
      if (latency > 0) await sleep(latency, this.stop.signal).catch(() => undefined);
      const r = this.random();
      const drop = o.dropRate ?? 0;
      const r429 = o.rate429 ?? 0;
      const r5xx = o.rate5xx ?? 0;
      if (r < drop) {
        reply.hijack();
        request.raw.socket.destroy();
        return reply;
      }
      if (r < drop + r429) {
        const secs = o.retryAfterSeconds ?? 1;
        return reply
          .code(429)
          .header('retry-after', String(secs))
          .send({ success: false, error: ErrorCodes.rateLimited, message: `rate limited (injected fault); retry after ${secs} s` });
      }
      if (r < drop + r429 + r5xx) {
        return reply.code(500).send({ success: false, error: ErrorCodes.internal, message: 'internal server error (injected fault)' });
      }
    });
  }

  /** Decides, once per job, whether it is forced to end failed or exception. */
  jobOutcome(): InjectedJobOutcome {
    const failed = this.opts.jobFailedRate ?? 0;
    const exception = this.opts.jobExceptionRate ?? 0;
    if (!failed && !exception) return null;
    const r = this.jobRandom();
    if (r < failed) return { status: 'failed', message: 'The document could not be processed (injected fault: fault-job-failed-rate).' };
    if (r < failed + exception) return { status: 'exception', message: 'The AI engine failed while processing the document (injected fault: fault-job-exception-rate).' };
    return null;
  }

  /** Sleeps the configured slow-job delay; ends early (rejects) when the service closes. */
  async jobDelay(signal?: AbortSignal): Promise<void> {
    const ms = this.draw(this.opts.jobDelayMs);
    if (ms <= 0) return;
    await sleep(ms, signal ? AbortSignal.any([signal, this.stop.signal]) : this.stop.signal);
  }

  close(): void {
    this.stop.abort(new Error('service closing'));
  }
}
