// How a command reaches the service: `--base-url URL` with `--api-key KEY` (or DOCDROP_API_KEY), else the
// service of a daemon config (`--config`; with base_url: embedded, the embedded service is started
// in-process on the config's data). One place, so every command connects the same way.
import type { Argv } from 'yargs';
import { ServiceClient } from '../api/client.js';
import { loadConfig, type DaemonConfig } from '../daemon/config/config.js';
import { connectService } from '../daemon/daemon.js';
import { applyConfigDefinitions } from '../daemon/definitions/config-definitions.js';
import type { Logger } from '../shared/logger.js';

export interface ServiceArgs {
  config?: string | undefined;
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
}

export interface ServiceConnection {
  client: ServiceClient;
  /** The config the service came from; null with --base-url. */
  config: DaemonConfig | null;
  /** Stops the embedded service, if one was started. */
  close(): Promise<void>;
}

/** The --base-url and --api-key options (--config is each command's own: its default differs). */
export function serviceOptions<T>(y: Argv<T>) {
  return y
    .option('base-url', { type: 'string', describe: 'service URL (instead of the config\'s service)' })
    .option('api-key', { type: 'string', describe: 'API key with --base-url (or set DOCDROP_API_KEY)' });
}

export async function connectFromArgs(
  args: ServiceArgs,
  logger: Logger,
  opts: { applyDefinitions?: boolean } = {},
): Promise<ServiceConnection> {
  if (args.baseUrl !== undefined) {
    const apiKey = args.apiKey ?? process.env.DOCDROP_API_KEY;
    if (!apiKey) throw new Error('--api-key (or DOCDROP_API_KEY) is required with --base-url');
    return { client: new ServiceClient({ baseUrl: args.baseUrl, apiKey }), config: null, close: async () => {} };
  }
  if (args.config === undefined) throw new Error('give --config FILE, or --base-url URL with --api-key KEY');
  const config = await loadConfig(args.config);
  const svc = await connectService(config, logger);
  const close = async () => svc.embedded?.close();
  try {
    if (opts.applyDefinitions) await applyConfigDefinitions(config, svc.client, logger);
  } catch (err) {
    await close();
    throw err;
  }
  return { client: svc.client, config, close };
}
