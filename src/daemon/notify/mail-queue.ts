// Mails on their way to the SMTP server, sent one at a time in order. enqueue() returns at once, so the
// pipeline never waits for mail. A send that fails for a reason that may pass (server down, timeout,
// 4xx, login refused until the config is fixed) is retried with backoff; one the server refuses for good
// (5xx on the envelope or message, an unreadable attachment) is dropped and logged. The queue is bounded:
// while the server is gone the oldest waiting mails give way, and how many is logged.
import type { Logger } from '../../shared/logger.js';
import { backoffDelayMs, type BackoffPolicy } from '../../shared/backoff.js';
import type { Cancel, Scheduler } from '../../shared/scheduler.js';
import { oneLine } from './mail-text.js';

export interface OutgoingMail {
  to: readonly string[];
  subject: string;
  text: string;
  attachments?: readonly { filename: string; path: string }[];
}

export interface MailQueueOptions {
  send(mail: OutgoingMail): Promise<void>;
  scheduler: Scheduler;
  logger: Logger;
  maxQueued(): number;
  retry?: BackoffPolicy;
}

const RETRY: BackoffPolicy = { initialMs: 5_000, maxMs: 300_000, jitter: 'full' };

export class MailQueue {
  readonly #o: MailQueueOptions;
  readonly #queue: OutgoingMail[] = [];
  #inFlight: OutgoingMail | null = null;
  #running: Promise<void> | null = null;
  #retryTimer: Cancel | null = null;
  #failures = 0;
  #dropped = 0;
  #stopped = false;

  constructor(o: MailQueueOptions) {
    this.#o = o;
  }

  get pending(): number {
    return this.#queue.length;
  }

  enqueue(mail: OutgoingMail): void {
    if (this.#stopped) {
      this.#o.logger.warn({ subject: mail.subject }, 'notifier stopped: mail not sent');
      return;
    }
    while (this.#queue.length >= Math.max(1, this.#o.maxQueued())) {
      // The mail being sent stays; the oldest waiting one gives way.
      const at = this.#queue[0] === this.#inFlight ? 1 : 0;
      if (at >= this.#queue.length) break;
      const [gone] = this.#queue.splice(at, 1);
      if (this.#dropped++ === 0) {
        this.#o.logger.warn(
          { maxQueued: this.#o.maxQueued(), subject: gone?.subject },
          'mail queue full while the SMTP server does not take mail: dropping the oldest waiting mails',
        );
      }
    }
    this.#queue.push(mail);
    if (!this.#running && !this.#retryTimer) this.#start(false);
  }

  /** Stops retrying; gives each waiting mail one more try, in order, until one fails. Resolves with the mails left unsent. */
  async drain(): Promise<number> {
    this.#stopped = true;
    this.#retryTimer?.();
    this.#retryTimer = null;
    await this.#running;
    if (this.#queue.length > 0) await this.#start(true);
    const left = this.#queue.length;
    if (left > 0) this.#o.logger.warn({ unsent: left }, 'stopping: mails the SMTP server did not take are not sent');
    return left;
  }

  #start(once: boolean): Promise<void> {
    this.#running = this.#pump(once).finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #pump(once: boolean): Promise<void> {
    const { logger, scheduler } = this.#o;
    while (this.#queue.length > 0) {
      const mail = this.#queue[0]!;
      this.#inFlight = mail;
      try {
        await this.#o.send(mail);
        this.#remove(mail);
        this.#failures = 0;
        logger.info({ subject: mail.subject, recipients: mail.to.length }, 'alert mailed');
        if (this.#dropped > 0) {
          logger.warn({ dropped: this.#dropped }, 'the SMTP server takes mail again; mails dropped meanwhile (queue full)');
          this.#dropped = 0;
        }
      } catch (err) {
        const e = describeSmtpError(err);
        if (isPermanent(err)) {
          this.#remove(mail);
          logger.error({ ...e, subject: mail.subject }, 'the SMTP server refused the mail; it is dropped');
          continue;
        }
        if (once || this.#stopped) return;
        const delay = backoffDelayMs(this.#failures++, this.#o.retry ?? RETRY);
        logger.warn({ ...e, subject: mail.subject, waiting: this.#queue.length, retryInMs: delay }, 'could not send mail; will retry');
        this.#retryTimer = scheduler.schedule(delay, () => {
          this.#retryTimer = null;
          if (!this.#running) void this.#start(false);
        });
        return;
      } finally {
        this.#inFlight = null;
      }
    }
  }

  #remove(mail: OutgoingMail): void {
    const i = this.#queue.indexOf(mail);
    if (i >= 0) this.#queue.splice(i, 1);
  }
}

/** Refused for good: retrying the same mail cannot help. */
function isPermanent(err: unknown): boolean {
  const e = err as { code?: string; responseCode?: number };
  if (e.code === 'EENVELOPE' || e.code === 'EMESSAGE') return (e.responseCode ?? 0) >= 500;
  return e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'EISDIR';
}

/** An SMTP error as it may be logged: code, reply code and message, never the credentials. */
function describeSmtpError(err: unknown): Record<string, unknown> {
  const e = err as { code?: string; responseCode?: number; message?: string };
  return { code: e.code, responseCode: e.responseCode, err: oneLine(e.message ?? String(err)) };
}
