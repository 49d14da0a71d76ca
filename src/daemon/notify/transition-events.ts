// Turns the ledger's committed transitions into notify events: final states and timeouts, and each step's
// duration for the digest's slowest steps. A step's start is the input's previous transition seen here
// (its creation for the first step); after a restart the step in flight has no known start and is skipped.
import type { InputRecord, InputState } from '../ledger/ledger.js';
import { FINAL_STATES } from '../ledger/ledger.js';
import type { TransitionObserver } from '../ledger/observed-ledger.js';
import type { NotifySink } from './notify-events.js';

export function notifyOnTransition(sink: NotifySink): TransitionObserver {
  const lastAt = new Map<number, number>();
  return (record: InputRecord, from: InputState) => {
    const { rule, path: file } = record;
    const start = from === 'queued' ? record.createdAt : lastAt.get(record.id);
    if (start !== undefined) sink.record({ type: 'step_done', rule, file, from, to: record.state, ms: Math.max(0, record.updatedAt - start) });
    if (FINAL_STATES.includes(record.state)) lastAt.delete(record.id);
    else lastAt.set(record.id, record.updatedAt);
    switch (record.state) {
      case 'failed': {
        const [reason, message] = splitError(record.lastError);
        sink.record({ type: 'input_failed', rule, file, reason, message, finalPath: record.finalPath });
        break;
      }
      case 'timed_out':
        sink.record({ type: 'input_timed_out', rule, file, message: record.lastError ?? 'the job is not finished' });
        break;
      case 'done':
        sink.record({ type: 'input_done', rule, file, outputs: record.result?.outputs ?? [] });
        break;
      case 'duplicate':
        sink.record({ type: 'input_duplicate', rule, file });
        break;
      default:
    }
  };
}

/** The pipeline writes a failure as "<code>: <message>". */
function splitError(lastError: string | null): [string, string] {
  const m = /^([a-z][a-z0-9_]*): ([\s\S]*)$/.exec(lastError ?? '');
  return m ? [m[1]!, m[2]!] : ['failed', lastError ?? 'no reason recorded'];
}
