// Background parts started with the service and stopped before the database closes (worker pool,
// SMTP listener...). Append new ones here; they start in order and stop in reverse. Each picks from the
// context the narrow deps of what it starts.
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from './context.js';
import { startInboundMail } from './mail/inbound-mail.js';

export interface RunningComponent {
  close(): Promise<void>;
}

/** Runs before the server listens (ctx.publicUrl is not known yet) or after, as `phase` says. */
export interface ServiceComponent {
  name: string;
  phase?: 'before-listen' | 'after-listen';
  start(ctx: ServiceContext, app: FastifyInstance): Promise<RunningComponent>;
}

/** Queues the jobs left unfinished by the last run and starts taking jobs (roles worker, all); stops them (and the engine) on close. */
const jobsComponent: ServiceComponent = {
  name: 'jobs',
  phase: 'after-listen',
  async start(ctx): Promise<RunningComponent> {
    await ctx.jobs.start();
    return {
      close: async () => {
        await ctx.jobs.close();
        ctx.exportMailer.close();
      },
    };
  },
};

/** The inbound SMTP listener, when smtpPort is set. */
const inboundMailComponent: ServiceComponent = {
  name: 'inbound-mail',
  phase: 'after-listen',
  async start(ctx): Promise<RunningComponent> {
    const port = ctx.options.smtpPort;
    // Mail is a way in, like the API: a pure worker does not take it.
    if (port === undefined || ctx.options.role === 'worker') return { close: async () => {} };
    const { files, logger, jobs } = ctx;
    const { documents, templates } = ctx.repos;
    const mail = await startInboundMail(
      { files, logger, documents, templates, jobStore: jobs.store, jobQueue: jobs },
      { port, host: ctx.options.smtpHost ?? ctx.options.host },
    );
    jobs.listeners.smtpPort = mail.port;
    return mail;
  },
};

export const components: ServiceComponent[] = [jobsComponent, inboundMailComponent];
