// The webhook delivery ledger (table `webhook_deliveries`): the port and its one SQL implementation. A
// delivery is pending until a 2xx (delivered) or its last allowed attempt fails (failed); the row keeps the
// retry schedule so a restart resumes it.
import type { SqlExecutor } from './sql.js';
import { specTimestamp } from '../../shared/time.js';

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface WebhookDelivery {
  delivery_id: string;
  account: string;
  request_id: string;
  url: string;
  body: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  last_status: number | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesRepo {
  insert(d: { delivery_id: string; account: string; request_id: string; url: string; body: string; next_attempt_at: number }): Promise<void>;
  get(deliveryId: string): Promise<WebhookDelivery | undefined>;
  /** Pending deliveries, the soonest due first (resumed at start). */
  pending(): Promise<WebhookDelivery[]>;
  forRequest(requestId: string): Promise<WebhookDelivery[]>;
  /**
   * Counts an attempt before it is sent, with the time of the one after it: a crash mid-attempt then
   * still counts against the bound, and the restart retries at that time. Only from `attemptsBefore`
   * attempts: false when the delivery ended or another process (sharing the store) took this attempt.
   */
  startAttempt(deliveryId: string, retryAt: number, attemptsBefore: number): Promise<boolean>;
  /** Records an attempt's outcome: delivered, failed for good, or pending until `nextAttemptAt`. */
  recordOutcome(deliveryId: string, o: { state: DeliveryState; status: number | null; error: string | null; nextAttemptAt: number }): Promise<void>;
}

export function createWebhookDeliveriesRepo(sql: SqlExecutor): WebhookDeliveriesRepo {
  return {
    async insert(d) {
      const now = specTimestamp();
      await sql.run(
        `INSERT INTO webhook_deliveries (delivery_id, account, request_id, url, body, state, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
        [d.delivery_id, d.account, d.request_id, d.url, d.body, d.next_attempt_at, now, now],
      );
    },
    get(deliveryId) {
      return sql.get<WebhookDelivery>('SELECT * FROM webhook_deliveries WHERE delivery_id = ?', [deliveryId]);
    },
    pending() {
      return sql.all<WebhookDelivery>(`SELECT * FROM webhook_deliveries WHERE state = 'pending' ORDER BY next_attempt_at, delivery_id`);
    },
    forRequest(requestId) {
      return sql.all<WebhookDelivery>('SELECT * FROM webhook_deliveries WHERE request_id = ? ORDER BY created_at, delivery_id', [requestId]);
    },
    async startAttempt(deliveryId, retryAt, attemptsBefore) {
      const changed = await sql.run(
        `UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = ?, updated_at = ? WHERE delivery_id = ? AND state = 'pending' AND attempts = ?`,
        [retryAt, specTimestamp(), deliveryId, attemptsBefore],
      );
      return changed === 1;
    },
    async recordOutcome(deliveryId, o) {
      await sql.run(
        'UPDATE webhook_deliveries SET state = ?, last_status = ?, last_error = ?, next_attempt_at = ?, updated_at = ? WHERE delivery_id = ?',
        [o.state, o.status, o.error, o.nextAttemptAt, specTimestamp(), deliveryId],
      );
    },
  };
}
