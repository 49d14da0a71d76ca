// The jobs side of the service in one object: store, worker pool, engine, faults and webhooks, plus
// submit() (used by run_parser, POST /v1/extract and inbound e-mail) and view() (GET /files, webhooks).
import type { ExtractionJob, ParserConfig } from '../../api/types.js';
import type { DocumentEngine } from '../../engine/types.js';
import { specTimestamp } from '../../shared/time.js';
import { accountIdForKey } from '../accounts.js';
import type { ServiceContext } from '../context.js';
import type { FaultInjector } from '../faults.js';
import { PresignTtl } from '../presign.js';
import type { TemplateRow } from '../store/templates-repo.js';
import { WebhookSender, webhookSecret, type WebhookOptions } from './webhooks.js';
import { createJobRunner } from './job-runner.js';
import { JobStore, type Job, type NewJob } from '../store/job-store.js';
import { toExtractionJob } from './job-view.js';
import { resolveRunOptions } from './run-options.js';
import { WorkerPool } from './worker-pool.js';

export interface JobsRuntimeOptions {
  engine: DocumentEngine;
  faults: FaultInjector;
  /** Jobs processed at once; default 2. */
  concurrency?: number;
  webhooks?: Partial<WebhookOptions>;
  /** Pre-signed URL of an artifact (files/artifacts/<rel>), valid ttlSeconds. */
  artifactUrl(rel: string, ttlSeconds: number): string;
}

export type WebhookPayload = ExtractionJob & { document_id: string; template_id: string | null };

export class JobsRuntime {
  readonly store: JobStore;
  readonly engine: DocumentEngine;
  readonly faults: FaultInjector;
  readonly webhooks: WebhookSender;
  /** Where the inbound SMTP listener ended up (port 0 picks one). */
  readonly listeners: { smtpPort?: number } = {};
  private readonly pool: WorkerPool;
  private readonly secrets: Map<string, string>;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly opts: JobsRuntimeOptions,
  ) {
    this.store = new JobStore(ctx.db);
    this.engine = opts.engine;
    this.faults = opts.faults;
    this.webhooks = new WebhookSender(ctx.logger, opts.webhooks);
    this.secrets = new Map(ctx.options.apiKeys.map((k) => [accountIdForKey(k), webhookSecret(k)]));
    const run = createJobRunner({ ctx, store: this.store, engine: opts.engine, faults: opts.faults, onFinished: (job) => this.notify(job) });
    this.pool = new WorkerPool(run, ctx.logger, opts.concurrency ?? 2);
  }

  /** Puts jobs a crash or restart interrupted back into the queue. Call once at start. */
  resume(): number {
    const ids = this.store.requeueUnfinished();
    for (const id of ids) this.pool.enqueue(id);
    if (ids.length) this.ctx.logger.info({ jobs: ids.length }, 'resumed unfinished jobs');
    return ids.length;
  }

  /**
   * Records a new pending job and queues it. With a known Workflow (not classify+extract) the run is
   * added to the document's parser_runs at once, with the options merged from the Workflow.
   */
  submit(j: NewJob, template?: TemplateRow): Job {
    const job = this.ctx.db.transaction(() => {
      const inserted = this.store.insert(template ? { ...j, template_title: template.template_title, template_type: template.template_type } : j);
      if (template && !j.classifier_id) {
        const { recorded } = resolveRunOptions(j.params, JSON.parse(template.parser_config) as ParserConfig);
        this.ctx.repos.documents.addParserRun({
          document_id: j.document_id,
          template_id: template.template_id,
          template_title: template.template_title,
          request_id: j.request_id,
          params: recorded,
          datetime: specTimestamp(),
        });
      }
      return inserted;
    })();
    this.pool.enqueue(job.request_id);
    return job;
  }

  view(job: Job): ExtractionJob {
    return toExtractionJob(job, {
      document: (id) => this.ctx.repos.documents.get(id),
      artifactUrl: (rel) => this.opts.artifactUrl(rel, PresignTtl.parsedFile),
    });
  }

  /** Resolves when no job is queued or running and every webhook delivery has ended (tests). */
  async idle(): Promise<void> {
    await this.pool.idle();
    await this.webhooks.idle();
  }

  async close(): Promise<void> {
    this.faults.close();
    await this.pool.close();
    await this.webhooks.close();
    await this.engine.close();
  }

  private notify(job: Job): void {
    if (!job.template_id) return;
    const template = this.ctx.repos.templates.get(job.template_id);
    const secret = this.secrets.get(job.account);
    if (!template?.webhook_url || !secret) return;
    const payload: WebhookPayload = { ...this.view(job), document_id: job.document_id, template_id: job.template_id };
    void this.webhooks.deliver(template.webhook_url, payload, secret);
  }
}
