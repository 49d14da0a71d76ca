// The jobs side of the service in one object: store, job queue, engine, faults and webhooks, plus
// enqueue() (usecases/submit-run.ts records a job, then queues it here) and view() (GET /files, webhooks).
// The queue is a port (job-queue.ts): in-process on SQLite, pg-boss on PostgreSQL; a process of role
// `api` queues jobs but never runs them (start() does not consume).
import type { ExtractionJob } from '../../api/types.js';
import type { DocumentEngine } from '../../engine/index.js';
import type { Logger } from '../../shared/logger.js';
import { accountIdForKey } from '../accounts.js';
import type { FaultInjector } from '../faults.js';
import { PresignTtl } from '../presign.js';
import type { ClassifiersRepo } from '../store/classifiers-repo.js';
import type { DocumentsRepo } from '../store/documents-repo.js';
import type { FileStore } from '../store/file-store.js';
import type { Job, JobStore } from '../store/job-store.js';
import type { TemplatesRepo } from '../store/templates-repo.js';
import type { AddressPolicy } from '../usecases/address-policy.js';
import type { WebhookDeliveriesRepo } from '../store/webhook-deliveries-repo.js';
import { createJobMetrics, type JobMetrics } from './job-metrics.js';
import type { JobQueue } from './job-queue.js';
import { createJobRunner, type JobRunner } from './job-runner.js';
import { toExtractionJob } from './job-view.js';
import { WebhookSender, webhookEnvelope, webhookSecret, type WebhookEnvelope, type WebhookOptions } from './webhooks.js';

export interface JobsRuntimeDeps {
  jobStore: JobStore;
  webhookDeliveries: WebhookDeliveriesRepo;
  documents: DocumentsRepo;
  templates: TemplatesRepo;
  classifiers: ClassifiersRepo;
  files: FileStore;
  logger: Logger;
  /** Each account's webhook secret derives from its API key. */
  apiKeys: string[];
  engine: DocumentEngine;
  faults: FaultInjector;
  /** Where submitted jobs wait (worker-pool.ts in-process, job-queue-pgboss.ts shared). */
  queue: JobQueue;
  /** True when several processes share the queue (PostgreSQL): the queue, not this process, knows what runs where. */
  queueShared: boolean;
  /** Whether this process runs jobs (--role worker or all) or only queues them (api). */
  runsJobs: boolean;
  webhooks?: Partial<WebhookOptions>;
  /** Addresses webhook receivers may have (the URL-fetch policy, --fetch-allow-range). */
  addressPolicy: AddressPolicy;
  /** Pre-signed URL of an artifact (files/artifacts/<rel>), valid ttlSeconds. */
  artifactUrl(rel: string, ttlSeconds: number): string;
}

/** What goes inside the envelope's `data`: the job as GET /files returns it, plus its document and Workflow. */
export type WebhookData = ExtractionJob & { document_id: string; template_id: string | null };
export type WebhookPayload = WebhookEnvelope<WebhookData>;

export class JobsRuntime {
  readonly store: JobStore;
  readonly engine: DocumentEngine;
  readonly faults: FaultInjector;
  readonly webhooks: WebhookSender;
  /** Where the inbound SMTP listener ended up (port 0 picks one). */
  readonly listeners: { smtpPort?: number } = {};
  /** Prometheus metrics of the jobs (served on /metrics). */
  readonly metrics: JobMetrics = createJobMetrics();
  private readonly queue: JobQueue;
  private readonly runner: JobRunner;
  private readonly secrets: Map<string, string>;

  constructor(private readonly deps: JobsRuntimeDeps) {
    this.store = deps.jobStore;
    this.engine = deps.engine;
    this.faults = deps.faults;
    this.secrets = new Map(deps.apiKeys.map((k) => [accountIdForKey(k), webhookSecret(k)]));
    this.webhooks = new WebhookSender(deps.logger, deps.webhookDeliveries, (account) => this.secrets.get(account), deps.webhooks, (o) =>
      this.metrics.webhookDelivered(o),
      deps.addressPolicy,
    );
    const { documents, templates, classifiers, files, logger, engine, faults } = deps;
    this.runner = createJobRunner({
      documents,
      templates,
      classifiers,
      files,
      logger,
      engine: this.metrics.observeEngine(engine),
      faults,
      store: this.store,
      onFinished: async (job) => {
        this.metrics.jobFinished(job);
        await this.notify(job);
      },
    });
    this.queue = deps.queue;
    this.metrics.bind({ countByStatus: () => this.store.countByStatus(), depth: () => this.queue.depth() });
  }

  /** False once closing (readiness). */
  get workersRunning(): boolean {
    return this.queue.running;
  }

  /**
   * Call once at start: queues the jobs a crash or restart left unfinished, resumes pending webhook
   * deliveries and, in a process that runs jobs, starts taking jobs from the queue.
   */
  async start(): Promise<number> {
    // Deliveries start where jobs end: a process that runs no job has none of its own to resume.
    if (this.deps.runsJobs) await this.webhooks.resume();
    const ids = await this.unfinishedToQueue();
    for (const id of ids) await this.queue.enqueue(id);
    if (ids.length) this.deps.logger.info({ jobs: ids.length }, 'resumed unfinished jobs');
    if (this.deps.runsJobs) await this.queue.consume(this.runner);
    return ids.length;
  }

  /**
   * Alone on SQLite, every unfinished job was this process's: all go back to pending. On a shared queue
   * 'processing' jobs may be running on live workers, and pg-boss hands a dead worker's job out again
   * itself; only pending jobs are queued again, in case their process died between recording and
   * queuing them (queuing an id twice runs it once).
   */
  private async unfinishedToQueue(): Promise<string[]> {
    return this.deps.queueShared ? await this.store.pendingIds() : await this.store.requeueUnfinished();
  }

  /** Queues a recorded pending job; resolves once it is queued (a no-op when queued already or closing). */
  async enqueue(requestId: string): Promise<void> {
    await this.queue.enqueue(requestId);
  }

  async view(job: Job): Promise<ExtractionJob> {
    return toExtractionJob(job, {
      document: await this.deps.documents.get(job.document_id),
      artifactUrl: (rel) => this.deps.artifactUrl(rel, PresignTtl.parsedFile),
    });
  }

  /** Resolves when no job is queued or running and every webhook delivery has ended (tests). */
  async idle(): Promise<void> {
    await this.queue.idle();
    await this.webhooks.idle();
  }

  async close(): Promise<void> {
    this.faults.close();
    await this.queue.close();
    await this.webhooks.close();
    await this.engine.close();
  }

  private async notify(job: Job): Promise<void> {
    if (!job.template_id) return;
    const template = await this.deps.templates.get(job.template_id);
    const secret = this.secrets.get(job.account);
    if (!template?.webhook_url || !secret) return;
    const payload: WebhookPayload = webhookEnvelope({ ...(await this.view(job)), document_id: job.document_id, template_id: job.template_id });
    void this.webhooks.deliver({ account: job.account, requestId: job.request_id, url: template.webhook_url, payload });
  }
}
