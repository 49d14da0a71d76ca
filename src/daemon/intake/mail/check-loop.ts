// Keeps a mailbox checked: connects, checks at once, then again on new mail (IDLE push, or a Maildir
// folder's change), every poll_s, or when asked (checkNow); reconnects with growing delays when the
// connection fails, until stopped. A "connection" is an IMAP login or an opened Maildir.
import type { Logger } from '../../../shared/logger.js';
import { backoffDelayMs } from '../../../shared/backoff.js';
import { sleep } from '../../../shared/scheduler.js';
import { describeImapError } from './imap-connection.js';

/** An open connection; false once it broke (then the loop reconnects). */
export interface Connection {
  readonly usable: boolean;
}

export interface CheckLoopOptions<C extends Connection> {
  /**
   * Opens a connection; `onNewMail` is to be called when the server announces new mail. A failed or
   * aborted (`signal`: stop) attempt leaves no connection open.
   */
  connect(onNewMail: () => void, signal: AbortSignal): Promise<C>;
  /** One pass over the folder; returns early once `signal` is aborted. */
  check(c: C, signal: AbortSignal): Promise<void>;
  /** Closes a connection (also a broken one); never throws. */
  disconnect(c: C): Promise<void>;
  pollMs: number;
  /** Reconnect delays grow from here to 60 s. */
  reconnectMinMs: number;
  log: Logger;
  /** Told after each connect attempt (alerts): logged in, or why not (not when stopped). */
  onStatus?: (status: MailboxStatus) => void;
}

export interface CheckLoop {
  /** Checks the folder now and resolves when that check is done. */
  checkNow(): Promise<void>;
  /** Ends the loop after the check in flight; resolves once the connection is closed. */
  stop(): Promise<void>;
  /** Whether a logged-in connection is open now, and why not (the last error) when it is not (readiness). */
  status(): MailboxStatus;
}

/** `authentication`: the server refused the login (a wrong password does not fix itself). */
export type MailboxStatus = { loggedIn: true } | { loggedIn: false; reason: string; authentication: boolean };

function failedStatus(err: unknown): MailboxStatus {
  const e = describeImapError(err);
  const reason = [e.message, e.response].filter((v) => typeof v === 'string' && v !== '').join(': ') || String(err);
  return { loggedIn: false, reason, authentication: e.authenticationFailed === true };
}

export function startCheckLoop<C extends Connection>(o: CheckLoopOptions<C>): CheckLoop {
  const stopper = new AbortController();
  let wake: (() => void) | null = null;
  /** Waiting for the next check: checkNow() callers, and a no-op per new-mail push. */
  let checks: (() => void)[] = [];
  let checking: Promise<void> = Promise.resolve();
  let status: MailboxStatus = { loggedIn: false, reason: 'not connected yet', authentication: false };

  // New mail: check again, also when it arrives during a check.
  const onNewMail = () => {
    checks.push(() => undefined);
    wake?.();
  };

  /** Until poll_s passes, new mail, checkNow() or stop(); the abort listener goes each time (no pile-up). */
  const idle = async () => {
    await new Promise<void>((resolve) => {
      if (stopper.signal.aborted) return resolve(); // stop() came while the check was finishing
      const done = () => {
        clearTimeout(timer);
        stopper.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, o.pollMs);
      wake = done;
      stopper.signal.addEventListener('abort', done, { once: true });
    });
    wake = null;
  };

  const checkWhileUsable = async (client: C) => {
    while (!stopper.signal.aborted && client.usable) {
      const waiting = checks;
      checks = [];
      checking = o.check(client, stopper.signal);
      await checking.finally(() => waiting.forEach((done) => done()));
      if (checks.length) continue;
      await idle();
    }
  };

  const loop = async () => {
    const reconnect = { initialMs: o.reconnectMinMs, maxMs: 60_000 };
    let retriesInRow = 0;
    while (!stopper.signal.aborted) {
      let client: C | null = null;
      try {
        client = await o.connect(onNewMail, stopper.signal);
        retriesInRow = 0;
        status = { loggedIn: true };
        o.onStatus?.(status);
        await checkWhileUsable(client);
        status = { loggedIn: false, reason: 'the connection closed', authentication: false };
      } catch (err) {
        if (stopper.signal.aborted) break;
        status = failedStatus(err);
        if (client === null) o.onStatus?.(status);
        const delay = backoffDelayMs(retriesInRow++, reconnect);
        o.log.warn({ err: describeImapError(err), retryInMs: delay }, 'mailbox unavailable; retrying');
        await sleep(delay, stopper.signal).catch(() => undefined);
      } finally {
        if (client) await o.disconnect(client);
      }
    }
  };
  const running = loop();

  return {
    checkNow() {
      return new Promise<void>((resolve) => {
        checks.push(resolve);
        wake?.();
      });
    },
    status: () => status,
    async stop() {
      stopper.abort();
      await checking.catch(() => undefined);
      checks.forEach((done) => done());
      await running;
    },
  };
}
