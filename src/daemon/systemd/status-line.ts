// The one-line summary systemd shows as the unit's status (`systemctl status docdrop`): inputs not yet
// final, and inputs done and failed since local midnight, from the ledger (so a restart keeps the day's
// counts).
import { FINAL_STATES, type Ledger } from '../ledger/ledger.js';

export async function statusLine(ledger: Pick<Ledger, 'countByState' | 'countFinishedSince'>, now: Date): Promise<string> {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const [counts, today] = await Promise.all([ledger.countByState(), ledger.countFinishedSince(midnight)]);
  const inFlight = Object.entries(counts).reduce((n, [state, c]) => (FINAL_STATES.includes(state as never) ? n : n + c), 0);
  return `${inFlight} in flight, ${today.done} done today, ${today.failed} failed today`;
}
