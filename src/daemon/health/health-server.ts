// The daemon's health listener on node:http (the daemon has no web framework and needs none for three
// GET paths): /healthz, /readyz, /metrics. It answers nothing else and reads no request body.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readinessBody, type ReadinessReport } from '../../shared/health-checks.js';
import type { Logger } from '../../shared/logger.js';

export interface HealthHandlers {
  /** Alive and turning: `ok` false answers 503. */
  liveness(): { ok: boolean; body: Record<string, unknown> };
  readiness(): Promise<ReadinessReport>;
  /** Prometheus text exposition. */
  metrics(): Promise<{ contentType: string; text: string }>;
}

export interface HealthServer {
  /** e.g. http://127.0.0.1:9464 (the real port when 0 was asked for). */
  url: string;
  close(): Promise<void>;
}

/** Splits "host:port" / "[v6]:port" (validated by the config schema). */
export function parseListen(listen: string): { host: string; port: number } {
  const cut = listen.lastIndexOf(':');
  return { host: listen.slice(0, cut).replace(/^\[(.*)\]$/, '$1'), port: Number(listen.slice(cut + 1)) };
}

export async function startHealthServer(listen: string, handlers: HealthHandlers, logger: Logger): Promise<HealthServer> {
  const { host, port } = parseListen(listen);
  const server = createServer((req, res) => {
    handle(req, res, handlers).catch((err: unknown) => {
      logger.error({ err: err instanceof Error ? err.message : String(err), path: req.url }, 'health listener: request failed');
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error\n');
      else res.destroy();
    });
  });
  // Probes hold no long connections; a stuck one must not keep the daemon from stopping.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const url = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, h: HealthHandlers): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed: only GET and HEAD\n');
  }
  const path = (req.url ?? '/').split('?')[0];
  switch (path) {
    case '/healthz': {
      const { ok, body } = h.liveness();
      return send(res, ok ? 200 : 503, 'application/json', JSON.stringify(body));
    }
    case '/readyz': {
      const report = await h.readiness();
      return send(res, report.ready ? 200 : 503, 'application/json', JSON.stringify(readinessBody(report)));
    }
    case '/metrics': {
      const { contentType, text } = await h.metrics();
      return send(res, 200, contentType, text);
    }
    default:
      return send(res, 404, 'text/plain; charset=utf-8', 'not found: the paths are /healthz, /readyz and /metrics\n');
  }
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
