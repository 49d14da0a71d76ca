// What the daemon's /healthz and /readyz mean, and the listener started with them (health.listen).
//   /healthz: alive and its loop turns: the pipeline's scheduler ticked within STALL_MS (each tick waits
//             for its ledger query, so a wedged ledger or a blocked loop shows here).
//   /readyz:  able to do its work now: the ledger commits, the service answers an authenticated call,
//             every watched folder is there, every mailbox is logged in.
import { stat } from 'node:fs/promises';
import { runChecks, sharedReadiness, type ReadinessCheck, type ReadinessReport } from '../../shared/health-checks.js';
import type { Logger } from '../../shared/logger.js';
import type { Ledger } from '../ledger/ledger.js';
import type { LiveDaemonMetrics, MetricSources } from './daemon-metrics.js';
import { startHealthServer, type HealthServer } from './health-server.js';

/** A tick comes every second; this long without one is a wedged loop (systemd's watchdog uses the same idea). */
export const STALL_MS = 30_000;
/** Each readiness check gets this long (a service that takes longer is not ready to work). */
const CHECK_TIMEOUT_MS = 5_000;
/** Probes and scrapes within this time share one run of the checks. */
const REUSE_MS = 1_000;

export interface MailboxProbe {
  name: string;
  status(): { loggedIn: true } | { loggedIn: false; reason: string };
}

export interface DaemonHealthParts {
  listen: string;
  metrics: LiveDaemonMetrics;
  ledger: Pick<Ledger, 'probeWrite' | 'summarize'> & MetricSources['ledger'];
  lastTickAt(): number;
  queues: MetricSources['queues'];
  /** One authenticated call to the service (outside the rate limiter, without retries). */
  probeService(): Promise<void>;
  rules: readonly { name: string; watch: string }[];
  mailboxes: readonly MailboxProbe[];
  logger: Logger;
  now?: () => number;
}

export function daemonReadinessChecks(p: Pick<DaemonHealthParts, 'ledger' | 'probeService' | 'rules' | 'mailboxes'>): ReadinessCheck[] {
  return [
    { name: 'ledger_writable', run: () => p.ledger.probeWrite() },
    { name: 'service', run: () => p.probeService() },
    ...p.rules.map((r) => ({
      name: `folder:${r.name}`,
      run: async () => {
        const st = await stat(r.watch).catch((err: NodeJS.ErrnoException) => {
          throw new Error(`${r.watch}: ${err.code === 'ENOENT' ? 'missing' : (err.code ?? err.message)}`);
        });
        if (!st.isDirectory()) throw new Error(`${r.watch} is not a folder`);
      },
    })),
    ...p.mailboxes.map((m) => ({
      name: `mailbox:${m.name}`,
      run: async () => {
        const s = m.status();
        if (!s.loggedIn) throw new Error(s.reason);
      },
    })),
  ];
}

export async function startDaemonHealth(p: DaemonHealthParts): Promise<HealthServer> {
  const now = p.now ?? Date.now;
  const checks = daemonReadinessChecks(p);
  const readiness: () => Promise<ReadinessReport> = sharedReadiness(() => runChecks(checks, CHECK_TIMEOUT_MS), REUSE_MS, now);
  p.metrics.bind({ ledger: p.ledger, rules: p.rules.map((r) => r.name), queues: p.queues, mailboxes: p.mailboxes, readiness, now });
  const server = await startHealthServer(
    p.listen,
    {
      liveness: () => {
        const sinceTickS = Math.max(0, (now() - p.lastTickAt()) / 1000);
        const ok = sinceTickS * 1000 < STALL_MS;
        return { ok, body: { status: ok ? 'ok' : 'stalled', last_tick_s_ago: Math.round(sinceTickS * 10) / 10, uptime_s: Math.round(process.uptime()) } };
      },
      readiness,
      metrics: async () => ({ contentType: p.metrics.registry.contentType, text: await p.metrics.registry.metrics() }),
    },
    p.logger,
  );
  p.logger.info({ url: server.url, paths: ['/healthz', '/readyz', '/metrics'] }, 'health listener started');
  return server;
}
