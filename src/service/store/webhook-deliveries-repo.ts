// SQL for the webhook delivery ledger (table `webhook_deliveries`, src/service/store/migrations.ts). A
// delivery is pending until a 2xx (delivered) or its last allowed attempt fails (failed); the row keeps the
// retry schedule so a restart resumes it.
import type { Db } from './db.js';
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

export type WebhookDeliveriesRepo = ReturnType<typeof createWebhookDeliveriesRepo>;

export function createWebhookDeliveriesRepo(db: Db) {
  const insert = db.prepare(`INSERT INTO webhook_deliveries (delivery_id, account, request_id, url, body, state, next_attempt_at, created_at, updated_at)
    VALUES (@delivery_id, @account, @request_id, @url, @body, 'pending', @next_attempt_at, @now, @now)`);
  const byId = db.prepare<[string], WebhookDelivery>('SELECT * FROM webhook_deliveries WHERE delivery_id = ?');
  const pending = db.prepare<[], WebhookDelivery>(`SELECT * FROM webhook_deliveries WHERE state = 'pending' ORDER BY next_attempt_at, delivery_id`);
  const forRequest = db.prepare<[string], WebhookDelivery>('SELECT * FROM webhook_deliveries WHERE request_id = ? ORDER BY created_at, delivery_id');
  const startAttempt = db.prepare(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = ?, updated_at = ? WHERE delivery_id = ? AND state = 'pending'`,
  );
  const finish = db.prepare(
    `UPDATE webhook_deliveries SET state = @state, last_status = @last_status, last_error = @last_error, next_attempt_at = @next_attempt_at, updated_at = @now
     WHERE delivery_id = @delivery_id`,
  );

  return {
    insert(d: { delivery_id: string; account: string; request_id: string; url: string; body: string; next_attempt_at: number }): void {
      insert.run({ ...d, now: specTimestamp() });
    },
    get(deliveryId: string): WebhookDelivery | undefined {
      return byId.get(deliveryId);
    },
    /** Pending deliveries, the soonest due first (resumed at start). */
    pending(): WebhookDelivery[] {
      return pending.all();
    },
    forRequest(requestId: string): WebhookDelivery[] {
      return forRequest.all(requestId);
    },
    /**
     * Counts an attempt before it is sent, with the time of the one after it: a crash mid-attempt then
     * still counts against the bound, and the restart retries at that time.
     */
    startAttempt(deliveryId: string, retryAt: number): void {
      startAttempt.run(retryAt, specTimestamp(), deliveryId);
    },
    /** Records an attempt's outcome: delivered, failed for good, or pending until `nextAttemptAt`. */
    recordOutcome(deliveryId: string, o: { state: DeliveryState; status: number | null; error: string | null; nextAttemptAt: number }): void {
      finish.run({ delivery_id: deliveryId, state: o.state, last_status: o.status, last_error: o.error, next_attempt_at: o.nextAttemptAt, now: specTimestamp() });
    },
  };
}
