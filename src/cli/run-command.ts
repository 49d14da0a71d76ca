// `docdrop run --config FILE`: the long-running daemon. Logs JSON lines to stderr (journald keeps them).
// SIGTERM/SIGINT stop it cleanly: intake stops, steps in flight finish and are committed, everything
// else stays resumable in the ledger. A second signal exits at once (the ledger makes that safe too).
import type { CommandModule } from 'yargs';
import { loadConfig } from '../daemon/config/config.js';
import { startDaemon } from '../daemon/daemon.js';
import { createLogger, LOG_FORMATS, logFormatFor, type LogFormat } from '../shared/logger.js';

/** Config used when --config is not given: $DOCDROP_CONFIG, else the example that `npm start` runs. */
export const DEFAULT_CONFIG = process.env.DOCDROP_CONFIG ?? 'config/docdrop.example.yaml';

/**
 * Wraps a command handler so a failure prints one clear line (`docdrop run: invalid configuration...`)
 * and exits 1, instead of yargs' usage text, which hides the message a person needs.
 */
export function reportingErrors<A>(name: string, handler: (args: A) => Promise<void>): (args: A) => Promise<void> {
  return async (args) => {
    try {
      await handler(args);
    } catch (err) {
      process.stderr.write(`docdrop ${name}: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    }
  };
}

export const runCommand: CommandModule<object, { config: string; logFormat?: LogFormat }> = {
  command: 'run',
  describe: 'Run the daemon: watch the inbox folders and turn dropped documents into CSV/XLSX/JSON',
  builder: (y) =>
    y
      .option('config', { type: 'string', default: DEFAULT_CONFIG, describe: 'daemon config file (YAML)' })
      .option('log-format', { choices: LOG_FORMATS, describe: 'json (JSON lines, for journald) or pretty; default pretty when stderr is a terminal, else json' }),
  handler: reportingErrors('run', async (args) => {
    // Listen before starting: a SIGTERM that arrives while the daemon starts up (systemd stopping a unit
    // that was just started) must still stop it cleanly, after the start completes.
    const stopRequested = new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'));
      process.once('SIGINT', () => resolve('SIGINT'));
    });
    const config = await loadConfig(args.config);
    const logger = createLogger({ level: config.log_level, format: logFormatFor(args.logFormat) });
    const daemon = await startDaemon(config, { logger });
    const signal = await stopRequested;
    logger.info({ signal }, 'stopping');
    const force = () => process.exit(130);
    process.once('SIGTERM', force);
    process.once('SIGINT', force);
    await daemon.stop();
    logger.flush();
  }),
};
