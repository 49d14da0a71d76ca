// This instance's claims on inputs, for several daemons sharing one ledger. The pipeline takes an input's
// claim before any step on it, keeps it while the input is in memory (renewing every third of the lease)
// and gives it up when the input is final or left to the ledger's due list. Another owner's live claim
// means "not ours": the input is skipped. A dead instance's claims run out after the lease and its inputs
// are taken over from their last committed step.
//
// Whether a lease is still ours is judged by this process's own monotonic clock, from the moment the
// claim or renewal was SENT (so network and commit time only make the estimate shorter): when renewals
// fail (database unreachable) or come back lost, holds() turns false and the pipeline stops the input
// before its next side effect, whatever the ledger can or cannot say at that moment.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../shared/logger.js';
import { realScheduler, type Cancel, type Scheduler } from '../../shared/scheduler.js';
import type { Ledger } from '../ledger/ledger.js';

/** Thrown before a side effect on an input whose claim this instance no longer surely holds. */
export class ClaimLostError extends Error {
  readonly code = 'CLAIM_LOST';
  constructor(readonly inputId: number) {
    super(`input ${inputId}: this instance's claim ran out or was taken over; its work on the input stops here`);
  }
}

/** The default owner id: unique per process, readable in logs (`host:pid:random`). */
export function defaultInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

export interface InputClaimsOptions {
  ledger: Pick<Ledger, 'claim' | 'renewClaim' | 'releaseClaim'>;
  owner: string;
  leaseMs: number;
  logger: Logger;
  /** Renewal timers; the pipeline's scheduler. */
  scheduler?: Scheduler;
  /** Monotonic milliseconds for lease deadlines; real time even when timers are virtual. */
  clock?: () => number;
}

export class InputClaims {
  readonly owner: string;
  readonly leaseMs: number;
  /** Input id -> local deadline (clock ms) up to which its lease is surely ours. */
  private readonly held = new Map<number, number>();
  /** Claims whose release failed (the ledger was away): released again with the next renewal and at stop. */
  private readonly unreleased = new Set<number>();
  private readonly scheduler: Scheduler;
  private readonly clock: () => number;
  private renewTimer: Cancel | null = null;
  private renewing: Promise<void> | null = null;
  private renewFailing = false;
  private stopped = false;

  constructor(private readonly o: InputClaimsOptions) {
    this.owner = o.owner;
    this.leaseMs = o.leaseMs;
    this.scheduler = o.scheduler ?? realScheduler;
    this.clock = o.clock ?? (() => performance.now());
  }

  get size(): number {
    return this.held.size;
  }

  /** Whether this instance holds the input's claim with time left on its lease. */
  holds(id: number): boolean {
    const until = this.held.get(id);
    return until !== undefined && until > this.clock();
  }

  /** Throws ClaimLostError unless holds(id): called right before a side effect. */
  mustHold(id: number): void {
    if (!this.holds(id)) throw new ClaimLostError(id);
  }

  /** Claims the input (or extends our own claim); false when another owner holds a live one. */
  async take(id: number): Promise<boolean> {
    if (this.stopped) return false;
    const sent = this.clock();
    const claim = await this.o.ledger.claim(id, this.owner, this.leaseMs);
    if (!claim || this.stopped) {
      this.held.delete(id);
      if (claim) await this.o.ledger.releaseClaim(id, this.owner);
      return false;
    }
    this.held.set(id, sent + this.leaseMs);
    this.unreleased.delete(id);
    this.armRenewal();
    return true;
  }

  /**
   * Gives the claim up (the input is final, or left to the due list). Never throws: a release the ledger
   * refuses is tried again with the next renewal, and at worst the claim runs out after its lease.
   */
  async release(id: number): Promise<void> {
    if (!this.held.delete(id)) return;
    await this.releaseNow(id);
  }

  private async releaseNow(id: number): Promise<void> {
    try {
      await this.o.ledger.releaseClaim(id, this.owner);
      this.unreleased.delete(id);
    } catch (err) {
      if (!this.unreleased.has(id)) this.o.logger.warn({ id, err: (err as Error).message }, 'could not release claim; trying again');
      this.unreleased.add(id);
      this.armRenewal();
    }
  }

  /** Stops renewing and releases every claim held (a clean stop: the others take over at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.renewTimer?.();
    this.renewTimer = null;
    await this.renewing;
    await Promise.all([...this.held.keys()].map((id) => this.release(id)));
    await Promise.all([...this.unreleased].map((id) => this.releaseNow(id)));
  }

  private armRenewal(): void {
    if (this.renewTimer || this.stopped) return;
    this.renewTimer = this.scheduler.schedule(Math.floor(this.leaseMs / 3), () => {
      this.renewTimer = null;
      this.renewing = this.renewAll().finally(() => {
        this.renewing = null;
        if (this.held.size > 0 || this.unreleased.size > 0) this.armRenewal();
      });
    });
  }

  /** One renewal of every claim held; a claim found taken over is dropped (the pipeline stops that input). */
  private async renewAll(): Promise<void> {
    let failed = 0;
    let lastError = '';
    await Promise.all([...this.unreleased].filter((id) => !this.held.has(id)).map((id) => this.releaseNow(id)));
    await Promise.all(
      [...this.held.keys()].map(async (id) => {
        const sent = this.clock();
        try {
          const claim = await this.o.ledger.renewClaim(id, this.owner, this.leaseMs);
          if (this.stopped || !this.held.has(id)) return;
          if (claim) this.held.set(id, sent + this.leaseMs);
          else {
            this.held.delete(id);
            this.o.logger.warn({ id, owner: this.owner }, 'claim lost (its lease ran out and another instance took it over); work on the input stops');
          }
        } catch (err) {
          failed++;
          lastError = (err as Error).message;
        }
      }),
    );
    // Logged when renewals start and stop failing, not per input: a database outage is one event.
    if (failed > 0 && !this.renewFailing) {
      this.o.logger.error({ failed, err: lastError }, 'could not renew claims; inputs pause when their lease runs out and resume once the ledger answers');
    } else if (failed === 0 && this.renewFailing) this.o.logger.info('claims renew again');
    this.renewFailing = failed > 0;
  }
}
