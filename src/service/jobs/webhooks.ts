// Outbound Workflow webhooks (docs/webhooks.md). A finished job is POSTed to the Workflow's webhook_url,
// signed with the account's webhook secret, and retried with exponential backoff on network errors, 5xx
// and 429. Deliveries run detached from the worker pool: a slow or dead receiver never holds a job slot.
import { createHmac, randomUUID } from 'node:crypto';
import { request } from 'undici';
import { backoffDelayMs, parseRetryAfter } from '../../shared/backoff.js';
import type { Logger } from '../../shared/logger.js';
import { redactUrl } from '../../shared/redact-url.js';
import { sleep } from '../../shared/scheduler.js';

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

export type DeliveryOutcome = { delivered: true; attempts: number; status: number } | { delivered: false; attempts: number; reason: string };

export class WebhookSender {
  private readonly opts: WebhookOptions;
  private readonly inFlight = new Set<Promise<DeliveryOutcome>>();
  private readonly stop = new AbortController();

  constructor(
    private readonly logger: Logger,
    opts: Partial<WebhookOptions> = {},
  ) {
    this.opts = { ...DEFAULT_WEBHOOK_OPTIONS, ...opts };
  }

  /** Starts a delivery in the background and returns its outcome promise (callers need not await it). */
  deliver(url: string, payload: unknown, secret: string): Promise<DeliveryOutcome> {
    const p = this.run(url, JSON.stringify(payload), secret);
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    return p;
  }

  /** Resolves when every delivery started so far has finished. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** Abandons pending retries (they are not persisted) and waits for in-flight attempts to end. */
  async close(): Promise<void> {
    this.stop.abort(new Error('webhook sender closed'));
    await this.idle();
  }

  private async run(url: string, body: string, secret: string): Promise<DeliveryOutcome> {
    const deliveryId = randomUUID();
    const signature = signWebhookBody(secret, body);
    let reason = 'not attempted';
    let attempts = 0;
    for (let attempt = 1; attempt <= this.opts.maxAttempts; attempt++) {
      if (this.stop.signal.aborted) return { delivered: false, attempts: attempt - 1, reason: 'sender closed' };
      let retryAfterMs: number | undefined;
      attempts = attempt;
      try {
        const res = await request(url, {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'docdrop-webhook/1',
            'x-docdrop-signature': signature,
            'x-docdrop-delivery': deliveryId,
            'x-docdrop-timestamp': String(Math.floor(Date.now() / 1000)),
          },
          headersTimeout: this.opts.timeoutMs,
          bodyTimeout: this.opts.timeoutMs,
          signal: this.stop.signal,
        });
        await res.body.dump();
        if (res.statusCode < 300) {
          this.logger.debug({ url: redactUrl(url), deliveryId, attempt, status: res.statusCode }, 'webhook delivered');
          return { delivered: true, attempts: attempt, status: res.statusCode };
        }
        reason = `HTTP ${res.statusCode}`;
        const retryable = res.statusCode >= 500 || res.statusCode === 429;
        if (!retryable) break;
        retryAfterMs = parseRetryAfter(res.headers['retry-after']);
      } catch (err) {
        if (this.stop.signal.aborted) return { delivered: false, attempts: attempt, reason: 'sender closed' };
        reason = (err as Error).message;
      }
      if (attempt === this.opts.maxAttempts) break;
      // A receiver's Retry-After is honoured as asked, within maxDelayMs (docs/webhooks.md).
      const backoff = { initialMs: this.opts.baseDelayMs, maxMs: this.opts.maxDelayMs, jitter: { low: 1, high: 1.25 } };
      const delay = Math.min(this.opts.maxDelayMs, retryAfterMs ?? backoffDelayMs(attempt - 1, backoff));
      this.logger.info({ url: redactUrl(url), deliveryId, attempt, reason, delayMs: Math.round(delay) }, 'webhook attempt failed; retrying');
      try {
        await sleep(delay, this.stop.signal);
      } catch {
        return { delivered: false, attempts: attempt, reason: 'sender closed' };
      }
    }
    this.logger.warn({ url: redactUrl(url), deliveryId, reason }, 'webhook delivery abandoned');
    return { delivered: false, attempts, reason };
  }
}
