// How a command reaches the service: `--base-url URL` with `--api-key KEY` (or DOCDROP_API_KEY), else the
// service of a daemon config (`--config`). With `base_url: embedded`, the running daemon's embedded
// service when there is one (fast, and no second job runner on the same data dir), else one started in
// this process for the command's length, as `docdrop run` would. One place, so every command connects
// the same way.
import { readFile } from 'node:fs/promises';
import type { Argv } from 'yargs';
import type { RequestInfo } from '../api/http.js';
import { ServiceClient } from '../api/client.js';
import { loadConfig, type DaemonConfig } from '../daemon/config/config.js';
import { configuredClient, connectService } from '../daemon/daemon.js';
import { applyConfigDefinitions } from '../daemon/definitions/config-definitions.js';
import { findEmbeddedService } from '../daemon/embedded-discovery.js';
import type { SubmitMode } from '../daemon/pipeline/submitter.js';
import type { Logger } from '../shared/logger.js';

export interface ServiceArgs {
  config?: string | undefined;
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
}

export interface ServiceConnection {
  client: ServiceClient;
  url: string;
  /** `url`: a configured or given URL; `daemon`: the running daemon's embedded service; `in-process`: started here. */
  via: 'url' | 'daemon' | 'in-process';
  /** File holding the embedded service's key (embedded only; the key itself is never printed from here). */
  keyPath: string | null;
  /** The config the service came from; null with --base-url. */
  config: DaemonConfig | null;
  submit: SubmitMode;
  /** Stops the embedded service, if one was started here. */
  close(): Promise<void>;
}

/** The --base-url and --api-key options (--config is each command's own: its default differs). */
export function serviceOptions<T>(y: Argv<T>) {
  return y
    .option('base-url', { type: 'string', describe: "service URL (instead of the config's service)" })
    .option('api-key', { type: 'string', describe: 'API key with --base-url (or set DOCDROP_API_KEY)' });
}

export interface ConnectOptions {
  /** Make the account match the config's `workflows:` and `classifiers:` first, as `docdrop run` does. */
  applyDefinitions?: boolean;
  onRequest?: (info: RequestInfo) => void;
}

export async function connectFromArgs(args: ServiceArgs, logger: Logger, opts: ConnectOptions = {}): Promise<ServiceConnection> {
  if (args.baseUrl !== undefined) {
    const apiKey = args.apiKey ?? process.env.DOCDROP_API_KEY;
    if (!apiKey) throw new Error('--api-key (or DOCDROP_API_KEY) is required with --base-url');
    const client = new ServiceClient({ baseUrl: args.baseUrl, apiKey, ...(opts.onRequest ? { onRequest: opts.onRequest } : {}) });
    return { client, url: args.baseUrl, via: 'url', keyPath: null, config: null, submit: 'run_parser', close: async () => {} };
  }
  if (args.config === undefined) throw new Error('give --config FILE, or --base-url URL with --api-key KEY');
  const config = await loadConfig(args.config);
  const conn = await connectConfigured(config, logger, opts.onRequest);
  try {
    if (opts.applyDefinitions) await applyConfigDefinitions(config, conn.client, logger);
  } catch (err) {
    await conn.close();
    throw err;
  }
  return conn;
}

/** The service of an already loaded config (see the file comment for the embedded case). */
export async function connectConfigured(config: DaemonConfig, logger: Logger, onRequest?: (info: RequestInfo) => void): Promise<ServiceConnection> {
  const base = { config, submit: config.service.submit };
  if (config.service.base_url === 'embedded') {
    const found = await findEmbeddedService(config);
    // A key in the config is used as it is; only a generated one lives in the key file.
    const keyPath = config.service.api_key_source === 'generated' ? found.keyPath : null;
    if (found.running) {
      const apiKey = keyPath ? await readKey(keyPath) : config.service.api_key;
      const client = configuredClient(config, found.note.url, apiKey, onRequest).client;
      return { ...base, client, url: found.note.url, via: 'daemon', keyPath, close: async () => {} };
    }
    const svc = await connectService(config, logger, onRequest);
    return { ...base, client: svc.client, url: svc.url, via: 'in-process', keyPath, close: async () => svc.embedded?.close() };
  }
  const svc = await connectService(config, logger, onRequest);
  return { ...base, client: svc.client, url: svc.url, via: 'url', keyPath: null, close: async () => {} };
}

async function readKey(path: string): Promise<string> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch (err) {
    throw new Error(
      `the running daemon's embedded service key file ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): run this command as the daemon's user`,
    );
  }
}
