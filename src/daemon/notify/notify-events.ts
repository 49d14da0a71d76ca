// The one port through which the daemon's parts report what an operator may need to hear about. The
// daemon wires the sources (ledger transitions, mailbox connections, the service probe) into it; the
// notifier decides what becomes a mail, when, and to whom. record() never blocks and never throws.

export type NotifyEvent =
  /** An input ended in failed: `reason` is its code (docs/errors.md), `finalPath` where the file lies now. */
  | { type: 'input_failed'; rule: string; file: string; reason: string; message: string; finalPath: string | null }
  /** A job still not finished after give_up_after_s; it is re-checked slowly. */
  | { type: 'input_timed_out'; rule: string; file: string; message: string }
  /** An input is done; `outputs` are the output files written for it. */
  | { type: 'input_done'; rule: string; file: string; outputs: readonly string[] }
  | { type: 'input_duplicate'; rule: string; file: string }
  /** One step of an input took `ms` (from the state it left to the one it reached). */
  | { type: 'step_done'; rule: string; file: string; from: string; to: string; ms: number }
  /** A mailbox cannot connect or log in; `authentication`: the server refused the login (alerted at once). */
  | { type: 'mailbox_down'; mailbox: string; reason: string; authentication: boolean }
  | { type: 'mailbox_up'; mailbox: string }
  | { type: 'service_down'; reason: string }
  | { type: 'service_up' };

export interface NotifySink {
  record(event: NotifyEvent): void;
}
