// Outbound Workflow webhooks (docs/webhooks.md). A finished job is POSTed to the Workflow's webhook_url
// in the hosted service's envelope, signed with the account's webhook secret, and retried with exponential
// backoff on network errors, 5xx and 429. Each delivery and its retry schedule is a row of the ledger
// (store/webhook-deliveries-repo.ts), so a restart resumes it. Deliveries run detached from the worker
// pool: a slow or dead receiver never holds a job slot.
import { createHmac, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { backoffDelayMs, parseRetryAfter } from '../../shared/backoff.js';
import type { Logger } from '../../shared/logger.js';
import { redactUrl } from '../../shared/redact-url.js';
import { sleep } from '../../shared/scheduler.js';
import { specTimestamp } from '../../shared/time.js';
import type { WebhookDeliveriesRepo, WebhookDelivery } from '../store/webhook-deliveries-repo.js';
import type { AddressPolicy } from '../usecases/address-policy.js';

export interface WebhookOptions {
  /** Attempts per delivery, the first included. */
  maxAttempts: number;
  /** Delay before the 2nd attempt; doubles each time (plus up to 25% jitter), capped at maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Per-attempt timeout, headers and body. */
  timeoutMs: number;
}

export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = {
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  timeoutMs: 10_000,
};

/**
 * The per-account signing secret: HMAC-SHA256 of a fixed label keyed with the account's API key, hex.
 * Derived rather than stored so the account holder can compute it from the key they already have,
 * and it never travels over the API.
 */
export function webhookSecret(apiKey: string): string {
  return createHmac('sha256', apiKey).update('docdrop-webhook-v1').digest('hex');
}

/** The X-Docdrop-Signature value for a raw body: `sha256=<hex HMAC-SHA256(secret, body)>`. */
export function signWebhookBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The event name receivers of the hosted service's webhook trigger on. */
export const WEBHOOK_EVENT = 'file_request_status_change';

/** The body of every webhook: the hosted service's envelope around the job. */
export interface WebhookEnvelope<T> {
  event: typeof WEBHOOK_EVENT;
  /** When the job reached its final state, spec timestamp format. */
  timestamp: string;
  data: T;
}

export function webhookEnvelope<T>(data: T, timestamp: string = specTimestamp()): WebhookEnvelope<T> {
  return { event: WEBHOOK_EVENT, timestamp, data };
}

/** How a delivery ended; `pending` when the sender closed first (the ledger resumes it at the next start). */
export type DeliveryOutcome =
  | { delivered: true; attempts: number; status: number }
  | { delivered: false; attempts: number; reason: string; pending?: true };

export interface NewDelivery {
  account: string;
  requestId: string;
  url: string;
  payload: unknown;
}

export class WebhookSender {
  private readonly opts: WebhookOptions;
  private readonly inFlight = new Set<Promise<DeliveryOutcome>>();
  private readonly stop = new AbortController();
  private readonly agent: Agent;

  constructor(
    private readonly logger: Logger,
    /** The ledger: pending deliveries and their schedule, final outcomes. */
    readonly ledger: WebhookDeliveriesRepo,
    /** The account's signing secret, looked up at each attempt (never stored); undefined once its key is gone. */
    private readonly secretFor: (account: string) => string | undefined,
    opts: Partial<WebhookOptions> = {},
    /** Called with each final outcome (delivered or failed), not when the sender closes first. */
    private readonly onFinal: (outcome: DeliveryOutcome) => void = () => undefined,
    /** Addresses a receiver may have: the policy of URL fetches (public, plus --fetch-allow-range). */
    private readonly addressPolicy?: AddressPolicy,
  ) {
    this.opts = { ...DEFAULT_WEBHOOK_OPTIONS, ...opts };
    // Connections resolve through the policy, so the address checked is the one connected to.
    this.agent = new Agent(addressPolicy ? { connect: { lookup: addressPolicy.lookup } } : {});
  }

  /** Records a delivery in the ledger, starts it in the background and returns its outcome promise (callers need not await it). */
  deliver(d: NewDelivery): Promise<DeliveryOutcome> {
    const deliveryId = randomUUID();
    // Tracked from the start (idle() covers the ledger write too); the row is committed before the first attempt.
    return this.track(
      (async () => {
        await this.ledger.insert({ delivery_id: deliveryId, account: d.account, request_id: d.requestId, url: d.url, body: JSON.stringify(d.payload), next_attempt_at: Date.now() });
        return this.run(deliveryId, 0);
      })(),
    );
  }

  /**
   * Restarts the deliveries the ledger holds as pending (call once at start). Each goes at its recorded
   * time, but no later than maxDelayMs from now, so a shorter setting takes effect on old rows too.
   */
  async resume(): Promise<number> {
    const rows = await this.ledger.pending();
    const now = Date.now();
    for (const row of rows) void this.track(this.run(row.delivery_id, Math.min(this.opts.maxDelayMs, Math.max(0, row.next_attempt_at - now))));
    if (rows.length) this.logger.info({ deliveries: rows.length }, 'resumed pending webhook deliveries');
    return rows.length;
  }

  /** Resolves when every delivery started so far has finished. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** Stops retrying (pending deliveries stay in the ledger for the next start) and waits for in-flight attempts to end. */
  async close(): Promise<void> {
    this.stop.abort(new Error('webhook sender closed'));
    await this.idle();
    await this.agent.close();
  }

  private track(p: Promise<DeliveryOutcome>): Promise<DeliveryOutcome> {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    void p.then((o) => {
      if (o.delivered || !o.pending) this.onFinal(o);
    });
    return p;
  }

  /** Delay before the attempt after `attempt` (1-based). */
  private backoff(attempt: number): number {
    return backoffDelayMs(attempt - 1, { initialMs: this.opts.baseDelayMs, maxMs: this.opts.maxDelayMs, jitter: { low: 1, high: 1.25 } });
  }

  private async fail(d: WebhookDelivery, attempts: number, status: number | null, reason: string): Promise<DeliveryOutcome> {
    await this.ledger.recordOutcome(d.delivery_id, { state: 'failed', status, error: reason, nextAttemptAt: Date.now() });
    this.logger.warn({ url: redactUrl(d.url), deliveryId: d.delivery_id, attempts, reason }, 'webhook delivery abandoned');
    return { delivered: false, attempts, reason };
  }

  private async run(deliveryId: string, firstDelayMs: number): Promise<DeliveryOutcome> {
    const closed = (attempts: number): DeliveryOutcome => ({ delivered: false, attempts, reason: 'sender closed', pending: true });
    let delay = firstDelayMs;
    for (;;) {
      if (delay > 0) {
        try {
          await sleep(delay, this.stop.signal);
        } catch {
          return closed((await this.ledger.get(deliveryId))?.attempts ?? 0);
        }
      }
      if (this.stop.signal.aborted) return closed((await this.ledger.get(deliveryId))?.attempts ?? 0);
      const d = await this.ledger.get(deliveryId);
      if (!d || d.state !== 'pending') return { delivered: false, attempts: d?.attempts ?? 0, reason: 'no longer pending' };
      // A restart after the last attempt was sent but before its answer was recorded: the bound holds.
      if (d.attempts >= this.opts.maxAttempts) return this.fail(d, d.attempts, d.last_status, d.last_error ?? 'last attempt interrupted');
      const secret = this.secretFor(d.account);
      if (!secret) return this.fail(d, d.attempts, null, "the account's API key is no longer configured, so the body cannot be signed");
      const attempt = d.attempts + 1;
      const backoff = this.backoff(attempt);
      if (!(await this.ledger.startAttempt(deliveryId, Date.now() + backoff, d.attempts))) {
        // Another serve process sharing the store sends this attempt (it resumed the delivery too).
        return { delivered: false, attempts: d.attempts, reason: 'attempted by another process', pending: true };
      }
      const result = await this.attempt(d, secret, attempt);
      if (result.ok) {
        await this.ledger.recordOutcome(deliveryId, { state: 'delivered', status: result.status, error: null, nextAttemptAt: Date.now() });
        this.logger.debug({ url: redactUrl(d.url), deliveryId, attempt, status: result.status }, 'webhook delivered');
        return { delivered: true, attempts: attempt, status: result.status };
      }
      if (result.closed) return closed(attempt);
      if (!result.retryable || attempt >= this.opts.maxAttempts) return this.fail(d, attempt, result.status, result.reason);
      // A receiver's Retry-After is honoured as asked, within maxDelayMs (docs/webhooks.md).
      delay = Math.min(this.opts.maxDelayMs, result.retryAfterMs ?? backoff);
      await this.ledger.recordOutcome(deliveryId, { state: 'pending', status: result.status, error: result.reason, nextAttemptAt: Date.now() + delay });
      this.logger.info({ url: redactUrl(d.url), deliveryId, attempt, reason: result.reason, delayMs: Math.round(delay) }, 'webhook attempt failed; retrying');
    }
  }

  private async attempt(
    d: WebhookDelivery,
    secret: string,
    attempt: number,
  ): Promise<{ ok: true; status: number } | { ok: false; closed?: true; retryable: boolean; status: number | null; reason: string; retryAfterMs?: number }> {
    const notAllowed = { ok: false as const, retryable: false, status: null, reason: 'the webhook address is not public (a self-hoster can allow its range with --fetch-allow-range)' };
    const host = new URL(d.url).hostname.replace(/^\[|\]$/g, '');
    if (this.addressPolicy && isIP(host) && !this.addressPolicy.allows(host)) return notAllowed;
    try {
      const res = await request(d.url, {
        dispatcher: this.agent,
        method: 'POST',
        body: d.body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'docdrop-webhook/1',
          'x-docdrop-signature': signWebhookBody(secret, d.body),
          'x-docdrop-delivery': d.delivery_id,
          'x-docdrop-attempt': String(attempt),
          'x-docdrop-timestamp': String(Math.floor(Date.now() / 1000)),
        },
        headersTimeout: this.opts.timeoutMs,
        bodyTimeout: this.opts.timeoutMs,
        signal: this.stop.signal,
      });
      await res.body.dump();
      if (res.statusCode < 300) return { ok: true, status: res.statusCode };
      const retryable = res.statusCode >= 500 || res.statusCode === 429;
      return { ok: false, retryable, status: res.statusCode, reason: `HTTP ${res.statusCode}`, retryAfterMs: parseRetryAfter(res.headers['retry-after']) };
    } catch (err) {
      if (this.stop.signal.aborted) return { ok: false, closed: true, retryable: true, status: null, reason: 'sender closed' };
      if ((err as { code?: string }).code === 'EADDRNOTALLOWED') return notAllowed;
      return { ok: false, retryable: true, status: null, reason: (err as Error).message };
    }
  }
}
