// `docdrop status`: counts of inputs by state, messages taken per mailbox and a table of inputs, read from
// the ledger. Safe while the daemon runs (SQLite WAL lets a reader in beside the writer).
import type { CommandModule } from 'yargs';
import { DEFAULT_CONFIG, reportingErrors } from './run-command.js';
import { loadConfig } from '../daemon/config/config.js';
import { FINAL_STATES, INPUT_STATES, type InputRecord, type InputState, type Ledger, type WaitingFile } from '../daemon/ledger/ledger.js';
import { openLedger } from '../daemon/ledger/open-ledger.js';
import { eventView, historyTable, inputView as view } from './input-history.js';
import { serviceLines, serviceStatus } from './service-status.js';

interface StatusArgs {
  id?: number;
  config: string;
  state?: string;
  json?: boolean;
  limit: number;
  showKey?: boolean;
}

export const statusCommand: CommandModule<object, StatusArgs> = {
  command: 'status [id]',
  describe: 'Show how many inputs are in each state, and a table of inputs; with ID, that input and its full history',
  builder: (y) =>
    y
      .positional('id', { type: 'number', describe: 'an input id: show it with every event of its history' })
      .option('config', { type: 'string', default: DEFAULT_CONFIG, describe: 'daemon config file (its state.path or state.url is read)' })
      .option('state', { type: 'string', choices: INPUT_STATES, describe: 'list only inputs in this state' })
      .option('json', { type: 'boolean', describe: 'print JSON instead of a table' })
      .option('show-key', { type: 'boolean', describe: "also print the embedded service's API key (read from its key file)" })
      .option('limit', { type: 'string', default: '50', describe: 'most inputs listed (newest first); 0 = all', coerce: wholeNumber('--limit') }),
  handler: reportingErrors('status', async (args) => {
    // Only the ledger is read: the service's secrets (a systemd credential, say) are not needed.
    const config = await loadConfig(args.config, process.env, { secrets: 'skip' });
    const ledger = await openLedger(config.state);
    try {
      if (args.id !== undefined) return await showInput(ledger, args.id, args.json === true);
      const counts = await ledger.countByState();
      const state = args.state as InputState | undefined;
      const inputs = await newest(ledger, state, args.limit);
      const waiting = (await ledger.listWaiting()).map(waitingView);
      const mailboxes = (await ledger.mailStats()).map((m) => ({
        mailbox: m.mailbox,
        messages: m.messages,
        files: m.files,
        skipped: m.skipped,
        last_at: new Date(m.lastAt).toISOString(),
      }));
      const service = await serviceStatus(config, args.showKey === true);
      const working = await instances(ledger, counts);
      if (args.json) {
        process.stdout.write(`${JSON.stringify({ service, counts, waiting, mailboxes, instances: working, inputs: inputs.map(view) }, null, 2)}\n`);
        return;
      }
      process.stdout.write(serviceLines(service));
      for (const i of working) process.stdout.write(`instance ${i.id}: working on ${i.inputs} input${i.inputs === 1 ? '' : 's'}\n`);
      process.stdout.write(`${INPUT_STATES.map((s) => `${s}: ${counts[s]}`).join('  ')}  waiting: ${waiting.length}\n`);
      for (const w of waiting) {
        process.stdout.write(`waiting ${w.rule}: ${w.path} (${w.reason === 'empty' ? 'empty' : 'end not written'}, ${w.size} bytes) since ${w.since}; taken as it is at ${w.until}\n`);
      }
      for (const m of mailboxes) {
        process.stdout.write(`mailbox ${m.mailbox}: ${m.messages} messages taken, ${m.files} files dropped, ${m.skipped} skipped by the filter, last at ${m.last_at}\n`);
      }
      if (inputs.length === 0) return;
      process.stdout.write(`\n${table(inputs)}`);
    } finally {
      await ledger.close();
    }
  }),
};

/** One input and every event of its history, from the ledger (durable, unlike log lines). */
async function showInput(ledger: Ledger, id: number, json: boolean): Promise<void> {
  const record = Number.isInteger(id) ? await ledger.get(id) : null;
  if (!record) throw new Error(`no input #${id} in the ledger (docdrop status lists the ids)`);
  const events = await ledger.events(id);
  process.stdout.write(json ? `${JSON.stringify({ input: view(record), events: events.map(eventView) }, null, 2)}\n` : historyTable(record, events));
}

/** The newest `limit` inputs (all for 0), newest first: the ledger lists in id order. */
async function newest(ledger: Ledger, state: InputState | undefined, limit: number): Promise<InputRecord[]> {
  const filter = state ? { state } : {};
  if (limit <= 0) return (await ledger.list(filter)).reverse();
  const counts = await ledger.countByState();
  const total = state ? counts[state] : Object.values(counts).reduce((a, b) => a + b, 0);
  return (await ledger.list({ ...filter, limit, offset: Math.max(0, total - limit) })).reverse();
}

/** Most unfinished inputs per state looked at for claims: enough to name every instance at work. */
const CLAIM_SCAN = 1000;

/** The daemon instances working on this ledger now (instance.id): owners of live claims on unfinished inputs. */
async function instances(ledger: Ledger, counts: Record<InputState, number>): Promise<{ id: string; inputs: number }[]> {
  const byOwner = new Map<string, number>();
  for (const state of INPUT_STATES.filter((s) => !FINAL_STATES.includes(s) && counts[s] > 0)) {
    for (const r of await ledger.list({ state, limit: CLAIM_SCAN })) {
      const claim = await ledger.claimOf(r.id);
      if (claim) byOwner.set(claim.owner, (byOwner.get(claim.owner) ?? 0) + 1);
    }
  }
  return [...byOwner].sort(([a], [b]) => a.localeCompare(b)).map(([id, inputs]) => ({ id, inputs }));
}

/** A stable file not taken yet because it does not look complete (see README, "Files still being written"). */
function waitingView(w: WaitingFile) {
  return { rule: w.rule, path: w.path, size: w.size, reason: w.reason, since: new Date(w.since).toISOString(), until: new Date(w.until).toISOString() };
}

function table(rows: InputRecord[]): string {
  const head = ['ID', 'STATE', 'RULE', 'UPDATED', 'FILE', 'NOTE'];
  const body = rows.map((r) => [
    String(r.id),
    r.state,
    r.rule,
    new Date(r.updatedAt).toISOString().replace('T', ' ').slice(0, 19),
    r.finalPath ?? r.path,
    r.lastError ?? (r.result?.outputs?.join(', ') ?? ''),
  ]);
  const widths = head.map((h, i) => Math.min(60, Math.max(h.length, ...body.map((b) => b[i]!.length))));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ') + '\n';
  return fmt(head) + body.map(fmt).join('');
}

/** A yargs coerce for a count: the option's text as a whole number, 0 or more, or an error naming it. */
function wholeNumber(option: string): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (text.trim() === '' || !Number.isSafeInteger(n) || n < 0) throw new Error(`${option}: expected a whole number, 0 or more, got ${JSON.stringify(text)}`);
    return n;
  };
}
