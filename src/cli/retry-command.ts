// `docdrop retry`: puts failed or timed_out inputs back into the flow (see src/daemon/pipeline/retry-inputs.ts
// for what happens to the file). Works whether or not the daemon is running.
import type { CommandModule } from 'yargs';
import { DEFAULT_CONFIG, reportingErrors } from './run-command.js';
import { loadConfig } from '../daemon/config/config.js';
import type { InputRecord } from '../daemon/ledger/ledger.js';
import { describeLedger, openLedger } from '../daemon/ledger/open-ledger.js';
import { retryInput } from '../daemon/pipeline/retry-inputs.js';

interface RetryArgs {
  config: string;
  id?: number;
  failed?: boolean;
  timedOut?: boolean;
}

export const retryCommand: CommandModule<object, RetryArgs> = {
  command: 'retry [id]',
  describe:
    'Put inputs back into the flow: timed_out ones are polled again; failed ones are moved back from failed_dir ' +
    'into the folder they were found in and processed again (only moved on, if their outputs were written)',
  builder: (y) =>
    y
      .positional('id', { type: 'number', describe: 'ledger id of one input (see docdrop status)' })
      .option('failed', { type: 'boolean', describe: 'every failed input' })
      .option('timed-out', { type: 'boolean', describe: 'every timed_out input' })
      .option('config', { type: 'string', default: DEFAULT_CONFIG, describe: 'daemon config file' })
      .check((a) => {
        if (a.id === undefined && !a.failed && !a.timedOut) throw new Error('name an input id, or --failed, or --timed-out');
        return true;
      }),
  handler: reportingErrors('retry', async (args) => {
    // Only the ledger is read: the service's secrets (a systemd credential, say) are not needed.
    const config = await loadConfig(args.config, process.env, { secrets: 'skip' });
    const ledger = await openLedger(config.state);
    let failures = 0;
    try {
      const targets: InputRecord[] = [];
      if (args.id !== undefined) {
        const r = await ledger.get(args.id);
        if (!r) throw new Error(`no input with id ${args.id} in ${describeLedger(config.state)}`);
        targets.push(r);
      }
      if (args.failed) targets.push(...(await ledger.list({ state: 'failed' })));
      if (args.timedOut) targets.push(...(await ledger.list({ state: 'timed_out' })));
      // A failed input already retried has no file left in failed_dir; skip those quietly in bulk mode.
      for (const r of targets) {
        const outcome = await retryInput(ledger, r);
        if (!outcome.ok && args.id === undefined && r.state === 'failed') continue;
        if (!outcome.ok) failures++;
        process.stdout.write(`${outcome.ok ? 'retried' : 'not retried'} #${r.id} ${r.path}: ${outcome.message}\n`);
      }
      if (targets.length === 0) process.stdout.write('nothing to retry\n');
    } finally {
      await ledger.close();
    }
    if (failures > 0) process.exitCode = 1;
  }),
};
