// startService: opens the store (SQLite in the data dir, or PostgreSQL) and the files folder, builds the
// context and the app, starts components and listens.
import { mkdir } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { createDocumentEngine } from '../engine/index.js';
import { silentLogger } from '../shared/logger.js';
import { components, type RunningComponent } from './components.js';
import type { ServiceContext } from './context.js';
import { FaultInjector } from './faults.js';
import { buildApp } from './http/app.js';
import { JobsRuntime } from './jobs/jobs-runtime.js';
import { openJobQueue } from './jobs/open-job-queue.js';
import { createExportMailer } from './mail/export-mailer.js';
import { createPresigner, type Presigner } from './presign.js';
import { resolveOptions, type ServiceOptions } from './serve-options.js';
import { FileStore } from './store/file-store.js';
import { openServiceStore } from './store/open-store.js';
import { createAddressPolicy } from './usecases/address-policy.js';

export type { ServiceOptions } from './serve-options.js';
export type { ServiceContext } from './context.js';

export interface RunningService {
  url: string;
  close(): Promise<void>;
  context: ServiceContext;
}

export async function startService(opts: ServiceOptions): Promise<RunningService> {
  const options = resolveOptions(opts);
  await mkdir(options.dataDir, { recursive: true });
  const logger = options.logger ?? silentLogger;
  const db = await openServiceStore({ dataDir: options.dataDir, database: options.database, logger });
  let publicUrl = options.publicUrl?.replace(/\/+$/, '') ?? '';
  const files = new FileStore(options.filesDir);
  const repos = { documents: db.documents, templates: db.templates, classifiers: db.classifiers };
  let presign: Presigner;
  try {
    await files.init();
    presign = createPresigner({ secret: await db.presignSecret(), baseUrl: () => publicUrl, defaultTtlSeconds: options.presignTtlSeconds });
  } catch (err) {
    await db.close();
    throw err;
  }
  // After the store: its migrations have run. The queue is pg-boss on the same PostgreSQL, or in-process.
  const { queue, shared } = await openJobQueue({
    postgresUrl: options.database,
    concurrency: options.jobConcurrency,
    jobTimeoutSeconds: options.jobTimeoutSeconds,
    logger,
  }).catch(async (err: unknown) => {
    await db.close();
    throw err;
  });
  const jobs = new JobsRuntime({
    ...repos,
    jobStore: db.jobs,
    webhookDeliveries: db.webhookDeliveries,
    files,
    logger,
    apiKeys: options.apiKeys,
    engine: options.engine ?? createDocumentEngine({ logger, llm: options.llm }),
    faults: new FaultInjector(options.faults),
    queue,
    queueShared: shared,
    runsJobs: options.role !== 'api',
    webhooks: options.webhooks,
    addressPolicy: createAddressPolicy(options.fetchAllowRanges),
    artifactUrl: (rel, ttl) => presign.url('GET', `/presigned/files/${rel}`, ttl),
  });
  const ctx: ServiceContext = {
    db,
    repos,
    files,
    presign,
    logger,
    options,
    get publicUrl() {
      return publicUrl;
    },
    jobs,
    exportMailer: createExportMailer(options.mailSmtp, logger),
  };

  const running: RunningComponent[] = [];
  const stopComponents = async () => {
    for (const c of running.splice(0).reverse()) await c.close().catch((err: unknown) => logger.error({ err }, 'component close failed'));
  };
  let app: FastifyInstance | undefined;
  try {
    const server = (app = await buildApp(ctx));
    for (const c of components.filter((c) => c.phase === 'before-listen')) running.push(await c.start(ctx, server));
    await server.listen({ host: options.host, port: options.port });
    const addr = server.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : options.port;
    const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
    if (!publicUrl) publicUrl = url;
    for (const c of components.filter((c) => c.phase !== 'before-listen')) running.push(await c.start(ctx, server));
    let closing: Promise<void> | undefined;
    return {
      url,
      context: ctx,
      close: () =>
        (closing ??= (async () => {
          // Stop taking requests first, then background work, then the database both depend on.
          await server.close();
          await stopComponents();
          await db.close();
        })()),
    };
  } catch (err) {
    await stopComponents();
    await app?.close();
    await queue.close(); // a no-op when the jobs component closed it
    await db.close();
    throw err;
  }
}
