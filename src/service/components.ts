// Background parts started with the service and stopped before the database closes (worker pool,
// SMTP listener, webhook sender...). Append new ones here; they start in order and stop in reverse.
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from './context.js';
import { inboundMailComponent, jobsComponent } from './jobs/jobs-context.js';

export interface RunningComponent {
  close(): Promise<void>;
}

/** Runs before the server listens (ctx.publicUrl is not known yet) or after, as `phase` says. */
export interface ServiceComponent {
  name: string;
  phase?: 'before-listen' | 'after-listen';
  start(ctx: ServiceContext, app: FastifyInstance): Promise<RunningComponent>;
}

export const components: ServiceComponent[] = [jobsComponent, inboundMailComponent];
