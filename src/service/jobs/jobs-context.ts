// Builds the jobs side of the context (JobsRuntime, export mailer) and its background components:
// the worker pool resuming interrupted jobs, and the inbound SMTP listener when smtpPort is set.
import { createDocumentEngine } from '../../engine/index.js';
import type { RunningComponent, ServiceComponent } from '../components.js';
import type { ServiceContext } from '../context.js';
import { createExportMailer, type ExportMailer } from '../mail/export-mailer.js';
import { FaultInjector } from '../faults.js';
import { startInboundMail } from '../mail/inbound-mail.js';
import type { ResolvedServiceOptions } from '../serve-options.js';
import { JobsRuntime } from './jobs-runtime.js';

export type BaseContext = Omit<ServiceContext, 'jobs' | 'exportMailer'>;

export function createJobsContext(base: BaseContext, options: ResolvedServiceOptions): { jobs: JobsRuntime; exportMailer: ExportMailer } {
  const ctx = base as ServiceContext; // the runtime reads only the base parts
  const jobs = new JobsRuntime(ctx, {
    engine: options.engine ?? createDocumentEngine({ logger: base.logger, llm: options.llm }),
    faults: new FaultInjector(options.faults),
    concurrency: options.jobConcurrency,
    webhooks: options.webhooks,
    artifactUrl: (rel, ttl) => base.presign.url('GET', `/presigned/files/${rel}`, ttl),
  });
  return { jobs, exportMailer: createExportMailer(options.mailSmtp, base.logger) };
}

/** Starts the worker pool on the jobs left unfinished by the last run; stops it (and the engine) on close. */
export const jobsComponent: ServiceComponent = {
  name: 'jobs',
  phase: 'after-listen',
  async start(ctx): Promise<RunningComponent> {
    ctx.jobs.resume();
    return {
      close: async () => {
        await ctx.jobs.close();
        ctx.exportMailer.close();
      },
    };
  },
};

export const inboundMailComponent: ServiceComponent = {
  name: 'inbound-mail',
  phase: 'after-listen',
  async start(ctx): Promise<RunningComponent> {
    const port = ctx.options.smtpPort;
    if (port === undefined) return { close: async () => {} };
    const mail = await startInboundMail(ctx, { port, host: ctx.options.smtpHost ?? ctx.options.host });
    ctx.jobs.listeners.smtpPort = mail.port;
    return mail;
  },
};
