// `docdrop run --config FILE`: the long-running daemon. Logs JSON lines to stderr (journald keeps them).
// SIGTERM/SIGINT stop it cleanly: intake stops, steps in flight finish and are committed, everything
// else stays resumable in the ledger. A second signal exits at once (the ledger makes that safe too).
// SIGHUP re-reads the config (src/daemon/reload/); under systemd it reports readiness, status and a
// watchdog keep-alive (src/daemon/systemd/).
import type { CommandModule } from 'yargs';
import { loadConfig } from '../daemon/config/config.js';
import { startDaemon } from '../daemon/daemon.js';
import { notifySystemd } from '../daemon/systemd/daemon-notify.js';
import { createLogger, LOG_FORMATS, logFormatFor, type LogFormat } from '../shared/logger.js';
import { openNotifier, watchdogIntervalMs } from '../shared/sd-notify.js';

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
    // SIGHUP (systemctl reload) re-reads the config; one arriving during the start is applied after it.
    let hangups = 0;
    let onHangup = () => void hangups++;
    const hangup = () => onHangup();
    process.on('SIGHUP', hangup);
    const config = await loadConfig(args.config);
    const logger = createLogger({ level: config.log_level, format: logFormatFor(args.logFormat) });
    const notifier = openNotifier(logger);
    try {
      const daemon = await startDaemon(config, { logger });
      const systemd = notifySystemd({ notifier, ledger: daemon.ledger, pipeline: daemon.pipeline, watchdogMs: watchdogIntervalMs(), logger });
      await systemd.ready();
      let reloads = Promise.resolve();
      onHangup = () => {
        logger.info({ config: args.config }, 'SIGHUP: reloading the config');
        reloads = reloads.then(async () => {
          systemd.reloading();
          try {
            await daemon.reloadFile(args.config);
          } catch (err) {
            logger.error({ err: err instanceof Error ? err.message : String(err) }, 'config reload failed part way; restart the daemon to apply the config fully');
          }
          await systemd.reloaded();
        });
      };
      if (hangups > 0) onHangup();
      const signal = await stopRequested;
      logger.info({ signal }, 'stopping');
      onHangup = () => void logger.info('SIGHUP ignored: the daemon is stopping');
      systemd.stopping();
      const force = () => process.exit(130);
      process.once('SIGTERM', force);
      process.once('SIGINT', force);
      await reloads;
      await daemon.stop();
    } finally {
      process.off('SIGHUP', hangup);
      notifier.close();
      logger.flush();
    }
  }),
};
