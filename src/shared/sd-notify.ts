// sd_notify(3) for systemd's Type=notify: one datagram per state change ("READY=1", "STATUS=...",
// "WATCHDOG=1", "STOPPING=1") to the unix socket named by $NOTIFY_SOCKET. A no-op without it.
//
// Why the native `unix-dgram` package: Node has no unix datagram sockets (nodejs/node#29339), and the
// alternative, spawning `systemd-notify` per message, needs NotifyAccess=all (any process of the unit may
// then report for the daemon) and on systemd 252 (Debian 12) a message from that short-lived helper can be
// dropped or misattributed: systemd looks up the sender's cgroup after it has already exited, and
// `--pid` only names the main pid, it does not fix the race. A datagram sent by the daemon itself carries
// its own credentials, so the unit can keep NotifyAccess=main.
//
// Abstract socket addresses ("@name") are not supported: unix-dgram copies the address with strncpy (it
// stops at the leading NUL) and always passes the full sockaddr_un length, so an abstract name cannot be
// addressed. systemd itself uses the path /run/systemd/notify; only some container managers hand out an
// abstract address, and then one warning says that no notification is sent.
import { createRequire } from 'node:module';
import type { Logger } from './logger.js';

interface DgramSocket {
  send(buf: Buffer, offset: number, length: number, path: string, cb: (err?: Error) => void): void;
  close(): void;
  on(event: 'error', fn: (err: Error) => void): void;
}

export interface SdNotifier {
  /** False when $NOTIFY_SOCKET is unset (or unusable): every send is then a no-op. */
  readonly enabled: boolean;
  /** Sends one datagram of `KEY=value` lines, e.g. `{ READY: 1, STATUS: '3 in flight' }`. Never throws. */
  send(fields: Record<string, string | number>): void;
  /** Closes the socket (it would otherwise keep the event loop alive). */
  close(): void;
}

const disabled: SdNotifier = { enabled: false, send: () => undefined, close: () => undefined };

export function openNotifier(logger: Logger, env: NodeJS.ProcessEnv = process.env): SdNotifier {
  const address = env.NOTIFY_SOCKET;
  if (!address) return disabled;
  if (address.startsWith('@')) {
    logger.warn({ notifySocket: address }, 'NOTIFY_SOCKET is an abstract socket address, which unix-dgram cannot reach: no readiness or watchdog notifications are sent (use Type=simple without WatchdogSec=)');
    return disabled;
  }
  const require = createRequire(import.meta.url);
  let socket: DgramSocket;
  try {
    const dgram = require('unix-dgram') as { createSocket(type: 'unix_dgram'): DgramSocket };
    socket = dgram.createSocket('unix_dgram');
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'cannot open a unix datagram socket: no systemd notifications are sent');
    return disabled;
  }
  // One failure logged per kind: a datagram lost now and then must not flood the journal.
  const logged = new Set<string>();
  const onError = (err: Error & { code?: unknown }) => {
    const key = String(err.code ?? err.message);
    if (logged.has(key)) return;
    logged.add(key);
    logger.warn({ notifySocket: address, err: err.message }, 'could not notify systemd');
  };
  socket.on('error', onError);
  let closed = false;
  return {
    enabled: true,
    send(fields) {
      if (closed) return;
      const text = Object.entries(fields)
        .map(([k, v]) => `${k}=${String(v).replace(/\n/g, ' ')}`)
        .join('\n');
      const buf = Buffer.from(text);
      try {
        socket.send(buf, 0, buf.length, address, (err) => err && onError(err));
      } catch (err) {
        onError(err as Error);
      }
    },
    close() {
      if (closed) return;
      closed = true;
      socket.close();
    },
  };
}

/**
 * Half the watchdog timeout systemd set for this process (sd_watchdog_enabled(3): $WATCHDOG_USEC, only
 * when $WATCHDOG_PID is unset or ours), in ms; null when no watchdog is expected from us.
 */
export function watchdogIntervalMs(env: NodeJS.ProcessEnv = process.env, pid = process.pid): number | null {
  const usec = Number(env.WATCHDOG_USEC);
  if (!env.WATCHDOG_USEC || !Number.isFinite(usec) || usec <= 0) return null;
  if (env.WATCHDOG_PID && Number(env.WATCHDOG_PID) !== pid) return null;
  return Math.max(1, Math.floor(usec / 2000));
}

/** CLOCK_MONOTONIC in µs, as RELOADING=1 carries it (MONOTONIC_USEC=, required by Type=notify-reload). */
export function monotonicUsec(): string {
  return (process.hrtime.bigint() / 1000n).toString();
}
