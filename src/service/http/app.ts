// The fastify app: error handling, auth, multipart and the route plugins. No listening here.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { ServiceContext } from '../context.js';
import { installErrorHandling } from './errors.js';
import { HEALTH_PATHS, installAuth } from './auth.js';
import { limitConnections } from './connection-limits.js';
import { registerRoutes } from '../routes/index.js';
import { MULTIPART_MAX_BYTES } from '../serve-options.js';

export async function buildApp(ctx: ServiceContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    // Our own one-line access log below: fastify's logs full URLs, and pre-signed query strings are bearer tokens.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // Timeouts for a service that may face the internet (docs/service.md#connections). No total request
    // time: a large pre-signed PUT may take long; connection-limits.ts judges a body by its rate instead.
    requestTimeout: 0,
    connectionTimeout: ctx.options.idleTimeoutMs,
    keepAliveTimeout: ctx.options.idleTimeoutMs,
    http: {
      headersTimeout: ctx.options.headersTimeoutMs,
      // Node checks the headers timeout on this interval (default 30 s); check often enough to keep it.
      connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(ctx.options.headersTimeoutMs / 4))),
    },
  });
  limitConnections(app.server, ctx.options, ctx.logger);
  installErrorHandling(app);
  // Faults first, so injected latency/429/5xx/drops hit API calls before any other work.
  ctx.jobs.faults.install(app);
  installAuth(app, ctx.options.apiKeys);
  app.addHook('onResponse', async (req, reply) => {
    // Probes and scrapes every few seconds would drown the log: they go at debug.
    const probe = HEALTH_PATHS.includes(req.url.split('?')[0]!);
    req.log[probe ? 'debug' : 'info']({ method: req.method, path: req.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });
  await app.register(multipart, {
    limits: { fileSize: MULTIPART_MAX_BYTES, files: 1, fields: 20, parts: 25 },
    throwFileSizeLimit: true,
  });
  await registerRoutes(app, ctx);
  return app;
}
