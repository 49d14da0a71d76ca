// The service's Prometheus metrics (docs/metrics.md): they observe the jobs runtime from outside the job
// runner: finished jobs (the runner's onFinished hook), webhook outcomes (the sender's promise), how the
// engine read each document (its result's `reading`), and, on scrape, jobs by state from the store.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DocumentEngine } from '../../engine/index.js';
import type { ReadinessReport } from '../../shared/health-checks.js';
import type { Job, JobStatus } from '../store/job-store.js';
import type { DeliveryOutcome } from './webhooks.js';

export interface JobMetricSources {
  countByStatus(): Promise<Record<JobStatus, number>>;
  depth(): Promise<{ waiting: number; running: number }>;
  readiness(): Promise<ReadinessReport>;
}

export interface JobMetrics {
  readonly registry: Registry;
  jobFinished(job: Job): void;
  webhookDelivered(outcome: DeliveryOutcome): void;
  /** The engine the runner gets: the same one, how it read each document counted. */
  observeEngine(engine: DocumentEngine): DocumentEngine;
  /** Connects the scrape-time gauges (jobs by state, pool depth, readiness). */
  bind(sources: Partial<JobMetricSources>): void;
}

const JOB_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];
const OCR_BUCKETS = [0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30, 60];

/** Spec timestamps are UTC without a zone and with microseconds; Date.parse wants milliseconds and a Z. */
const specMs = (ts: string) => Date.parse(`${ts.slice(0, 23)}Z`);

export function createJobMetrics(): JobMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const sources: Partial<JobMetricSources> = {};

  const duration = new Histogram({ name: 'docdrop_serve_job_duration_seconds', help: 'Time from a job being submitted to its final state, by that state (completed, failed, exception).', labelNames: ['state'], buckets: JOB_BUCKETS, registers });
  const finished = new Counter({ name: 'docdrop_serve_jobs_finished_total', help: 'Jobs that reached a final state, by that state.', labelNames: ['state'], registers });
  const pages = new Counter({ name: 'docdrop_serve_pages_read_total', help: 'Pages read by extractions, by kind: text (the PDF text layer) or ocr.', labelNames: ['kind'], registers });
  const ocr = new Histogram({ name: 'docdrop_serve_ocr_page_duration_seconds', help: 'Time to OCR one page, rendering or decoding included (waiting for an OCR worker too).', buckets: OCR_BUCKETS, registers });
  const webhooks = new Counter({ name: 'docdrop_serve_webhook_deliveries_total', help: 'Webhook deliveries by outcome: delivered, or abandoned (after its retries, or a 4xx).', labelNames: ['outcome'], registers });
  for (const kind of ['text', 'ocr']) pages.inc({ kind }, 0);
  for (const outcome of ['delivered', 'abandoned']) webhooks.inc({ outcome }, 0);
  new Gauge({
    name: 'docdrop_serve_jobs', help: 'Jobs in the store by state (pending, processing, completed, failed, exception).', labelNames: ['state'], registers,
    async collect() {
      for (const [state, n] of Object.entries((await sources.countByStatus?.()) ?? {})) this.set({ state }, n);
    },
  });
  new Gauge({
    name: 'docdrop_serve_job_queue', help: 'Jobs waiting for a worker (waiting; with PostgreSQL, in the shared queue) and being worked on by this process (running).', labelNames: ['queue'], registers,
    async collect() {
      const d = await sources.depth?.();
      if (d) for (const [queue, n] of Object.entries(d)) this.set({ queue }, n);
    },
  });
  const checks = new Gauge({ name: 'docdrop_serve_readiness_check', help: '1 when the readiness check passed at this scrape, else 0 (the /readyz checks).', labelNames: ['check'], registers });
  new Gauge({
    name: 'docdrop_serve_ready', help: '1 when every readiness check passed at this scrape (/readyz answers 200), else 0.', registers,
    async collect() {
      if (!sources.readiness) return;
      const report = await sources.readiness();
      checks.reset();
      for (const c of report.checks) checks.set({ check: c.name }, c.ok ? 1 : 0);
      this.set(report.ready ? 1 : 0);
    },
  });

  return {
    registry,
    bind: (s) => Object.assign(sources, s),
    jobFinished(job) {
      finished.inc({ state: job.status });
      const seconds = (specMs(job.updated_at) - specMs(job.created_at)) / 1000;
      if (Number.isFinite(seconds)) duration.observe({ state: job.status }, Math.max(0, seconds));
    },
    webhookDelivered(outcome) {
      webhooks.inc({ outcome: outcome.delivered ? 'delivered' : 'abandoned' });
    },
    observeEngine(engine) {
      return {
        classify: (req) => engine.classify(req),
        close: () => engine.close(),
        extract: async (req) => {
          const result = await engine.extract(req);
          if (result.reading) {
            pages.inc({ kind: 'text' }, result.reading.textPages);
            pages.inc({ kind: 'ocr' }, result.reading.ocrPageSeconds.length);
            for (const s of result.reading.ocrPageSeconds) ocr.observe(s);
          }
          return result;
        },
      };
    },
  };
}
