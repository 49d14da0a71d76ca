// `docdrop doctor`: everything a start needs, checked at once and listed as pass / warn / fail, so a
// person fixes all of it in one go instead of one start failure at a time. Exit 1 on any failure.
// Nothing is written: the checks only look (except that, with base_url: embedded and no daemon running,
// the embedded service is started for the check, in its own data folder, as `docdrop run` would).
import type { CommandModule } from 'yargs';
import { ConfigError, loadConfig, type DaemonConfig } from '../daemon/config/config.js';
import { createLogger } from '../shared/logger.js';
import { type Check, diskChecks, folderChecks, inotifyChecks, stateChecks } from './doctor-local-checks.js';
import { mailboxChecks, ruleTargetChecks, serviceCheck } from './doctor-remote-checks.js';
import { DEFAULT_CONFIG, reportingErrors } from './run-command.js';
import { connectConfigured, type ServiceConnection } from './service-connection.js';

interface DoctorArgs {
  config: string;
  /** Always set: yargs fills the default. */
  minFreeMb?: number;
  json?: boolean;
}

export const doctorCommand: CommandModule<object, DoctorArgs> = {
  command: 'doctor',
  describe: 'Check the config, folders, ledger, service and key, rule targets, mailboxes, inotify limits and free disk',
  builder: (y) =>
    y
      .option('config', { type: 'string', default: DEFAULT_CONFIG, describe: 'daemon config file (YAML)' })
      .option('min-free-mb', { type: 'number', default: 1024, describe: 'free disk below this fails (below twice this warns)' })
      .option('json', { type: 'boolean', describe: 'print the checks as JSON' }),
  handler: reportingErrors('doctor', async (args) => {
    const checks = await runChecks(args.config, args.minFreeMb!);
    process.stdout.write(args.json ? `${JSON.stringify({ ok: !checks.some((c) => c.status === 'fail'), checks }, null, 2)}\n` : render(checks));
    if (checks.some((c) => c.status === 'fail')) process.exitCode = 1;
  }),
};

export async function runChecks(configPath: string, minFreeMb: number): Promise<Check[]> {
  let config: DaemonConfig;
  try {
    config = await loadConfig(configPath);
  } catch (err) {
    const detail = err instanceof ConfigError ? err.problems.join('; ') : (err as Error).message;
    return [{ status: 'fail', name: 'config', detail: `${configPath}: ${detail}` }];
  }
  const checks: Check[] = [
    { status: 'pass', name: 'config', detail: `${configPath} is valid (${config.rules.length} rules, ${config.mailboxes.length} mailboxes)` },
    ...(await folderChecks(config)),
    ...(await stateChecks(config)),
    ...(await inotifyChecks(config)),
    ...(await diskChecks(config, minFreeMb)),
  ];
  // Local checks first: an in-process embedded start creates the inboxes inside the state folder.
  let svc: ServiceConnection | null = null;
  try {
    svc = await connectConfigured(config, createLogger({ level: process.env.DOCDROP_LOG_LEVEL ?? 'error' }));
  } catch (err) {
    checks.push({ status: 'fail', name: 'service', detail: `cannot connect: ${(err as Error).message}` });
  }
  try {
    if (svc) {
      if (svc.via !== 'url') checks.push(embeddedInfo(svc));
      const service = await serviceCheck(svc.client, svc.url);
      checks.push(service);
      if (service.status === 'pass') checks.push(...(await ruleTargetChecks(config, svc.client)));
      else checks.push({ status: 'fail', name: 'rule targets', detail: 'not checked: the service check failed' });
    }
    checks.push(...(await mailboxChecks(config)));
  } finally {
    await svc?.close();
  }
  return checks;
}

/** Where the embedded service is, and where its key is kept (the key itself is never printed here). */
function embeddedInfo(svc: ServiceConnection): Check {
  const key = svc.keyPath ? `key in ${svc.keyPath}` : 'key from service.api_key';
  const where = svc.via === 'daemon' ? `${svc.url} (the running daemon's)` : `not running; started for this check at ${svc.url} (the daemon picks its port at start)`;
  return { status: 'info', name: 'embedded service', detail: `${where}; ${key}` };
}

function render(checks: Check[]): string {
  const width = Math.min(40, Math.max(...checks.map((c) => c.name.length)));
  const lines = checks.map((c) => `${c.status.toUpperCase().padEnd(4)}  ${c.name.padEnd(width)}  ${c.detail}\n`);
  const count = (s: Check['status']) => checks.filter((c) => c.status === s).length;
  const fails = count('fail');
  return `${lines.join('')}\n${count('pass')} passed, ${count('warn')} warnings, ${fails} failed${fails > 0 ? ': fix the FAIL lines above' : ''}\n`;
}
