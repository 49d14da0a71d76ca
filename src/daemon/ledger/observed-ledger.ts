// A ledger that tells an observer about each committed state change. The pipeline commits every step
// through transition(), so this one seam sees failures, timeouts and finished inputs without the pipeline
// knowing who listens (alerts by e-mail today). The observer runs after the commit and can never fail it.
import type { InputRecord, InputState, Ledger } from './ledger.js';

/** Called after a committed transition with the input as it now is and the state it left. */
export type TransitionObserver = (record: InputRecord, from: InputState) => void;

export function observeTransitions<L extends Ledger>(ledger: L, observer: TransitionObserver, onError: (err: unknown) => void): L {
  const transition: Ledger['transition'] = async (id, from, to, patch) => {
    const record = await ledger.transition(id, from, to, patch);
    try {
      observer(record, from);
    } catch (err) {
      onError(err);
    }
    return record;
  };
  // Every other member is the ledger's own, bound to it (adapters keep private state).
  return new Proxy(ledger, {
    get(target, prop) {
      if (prop === 'transition') return transition;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
