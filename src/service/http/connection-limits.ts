// Limits on what one client can hold open, for a service that may face the internet: a per-IP cap on open
// connections and a minimum rate for request bodies. (Header and idle timeouts are the http server's own,
// set in app.ts.) A body is judged by its rate, not its total time, so a 1 GB pre-signed PUT from a slow
// but steady client still completes, while a trickled body is cut off after one window.
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../../shared/logger.js';

/** A body must bring at least this many bytes per second, averaged over each window of bodyTimeoutMs. */
export const BODY_MIN_BYTES_PER_S = 1024;

export interface ConnectionLimits {
  /** Length of the window a body's rate is measured over; a window below the minimum rate closes the connection. */
  bodyTimeoutMs: number;
  /** Open connections per client address; 0 = no cap. */
  maxConnectionsPerIp: number;
}

export function limitConnections(server: Server, limits: ConnectionLimits, logger: Logger): void {
  const open = new Map<string, number>();
  const warned = new Set<string>();
  server.on('request', trackRequest);
  server.on('connection', (socket: Socket) => {
    const ip = socket.remoteAddress ?? '';
    const n = (open.get(ip) ?? 0) + 1;
    if (limits.maxConnectionsPerIp > 0 && n > limits.maxConnectionsPerIp) {
      // Once per spell at the cap, not once per refused connection: an attacker would fill the log.
      if (!warned.has(ip)) logger.warn({ ip, max: limits.maxConnectionsPerIp }, 'connection cap per IP reached; further connections from it are closed');
      warned.add(ip);
      socket.destroy();
      return;
    }
    open.set(ip, n);
    const stopWatch = watchBodyRate(socket, limits.bodyTimeoutMs);
    socket.once('close', () => {
      stopWatch();
      const left = (open.get(ip) ?? 1) - 1;
      if (left > 0) open.set(ip, left);
      else open.delete(ip);
      if (left < limits.maxConnectionsPerIp) warned.delete(ip);
    });
  });
}

const current = Symbol('docdrop.currentRequest');
type Watched = Socket & { [current]?: { req: IncomingMessage; bytes: number; at: number } };

/**
 * One timer per connection: each window, the request whose body is still arriving must have brought at
 * least the minimum rate since it started (or since the last check); otherwise the connection is closed.
 */
function watchBodyRate(socket: Watched, windowMs: number): () => void {
  if (windowMs <= 0) return () => {};
  const minRate = BODY_MIN_BYTES_PER_S / 1000;
  const timer = setInterval(() => {
    const cur = socket[current];
    if (!cur || cur.req.complete) return;
    const now = performance.now();
    if (now - cur.at < windowMs) return; // started mid-window: judged at the next tick, over a whole window
    if (socket.bytesRead - cur.bytes < minRate * (now - cur.at)) {
      socket.destroy();
      return;
    }
    cur.bytes = socket.bytesRead;
    cur.at = now;
  }, windowMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Marks the request a connection is now receiving (the server's 'request' event). */
function trackRequest(req: IncomingMessage): void {
  (req.socket as Watched)[current] = { req, bytes: req.socket.bytesRead, at: performance.now() };
}
