// /healthz, /readyz and /metrics on the service's own port, answered without an API key (auth.ts lists
// them as public: HEALTH_PATHS): a load balancer, systemd or Prometheus probes them without holding an account key.
//   /healthz: the process answers (its event loop turns, or this could not reply).
//   /readyz:  the store commits (service.db or PostgreSQL, and the files folder are writable) and the job workers run.
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { readinessBody, runChecks, sharedReadiness, type ReadinessCheck } from '../../shared/health-checks.js';
import type { ServiceStore } from '../store/service-store.js';
import type { JobMetrics } from '../jobs/job-metrics.js';

export interface HealthRoutesDeps {
  /** The store's own write check (a commit that changes nothing). */
  store: Pick<ServiceStore, 'checkWritable'>;
  /** The file store's root (documents, artifacts). */
  filesRoot: string;
  workersRunning(): boolean;
  metrics: JobMetrics;
}

const CHECK_TIMEOUT_MS = 5_000;
const REUSE_MS = 1_000;

export function healthChecks(deps: Omit<HealthRoutesDeps, 'metrics'>): ReadinessCheck[] {
  return [
    {
      name: 'store_writable',
      run: async () => {
        await deps.store.checkWritable();
        await access(deps.filesRoot, constants.W_OK);
      },
    },
    {
      name: 'workers_running',
      run: async () => {
        if (!deps.workersRunning()) throw new Error('the job workers are stopped (the service is closing)');
      },
    },
  ];
}

export function healthRoutes(app: FastifyInstance, deps: HealthRoutesDeps): void {
  const started = Date.now();
  const checks = healthChecks(deps);
  const readiness = sharedReadiness(() => runChecks(checks, CHECK_TIMEOUT_MS), REUSE_MS);
  deps.metrics.bind({ readiness });
  app.get('/healthz', async () => ({ status: 'ok', uptime_s: Math.round((Date.now() - started) / 1000) }));
  app.get('/readyz', async (_req, reply) => {
    const report = await readiness();
    return reply.code(report.ready ? 200 : 503).send(readinessBody(report));
  });
  app.get('/metrics', async (_req, reply) => {
    const text = await deps.metrics.registry.metrics();
    return reply.type(deps.metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });
}
