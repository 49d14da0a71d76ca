// "A client for this config": what try, doctor and process share. With --base-url/--api-key, that
// service; with a config naming a URL, that one; with `base_url: embedded`, the running daemon's embedded
// service when there is one (fast, and no second job runner on the same data dir), else one started in
// this process for the command's length, as `docdrop run` would.
import { readFile } from 'node:fs/promises';
import type { RequestInfo } from '../api/http.js';
import { ServiceClient } from '../api/client.js';
import { loadConfig, type DaemonConfig } from '../daemon/config/config.js';
import { configuredClient, connectService } from '../daemon/daemon.js';
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
  config: DaemonConfig | null;
  submit: SubmitMode;
  close(): Promise<void>;
}

export async function connectForCommand(args: ServiceArgs, logger: Logger, onRequest?: (info: RequestInfo) => void): Promise<ServiceConnection> {
  if (args.config === undefined) {
    const apiKey = args.apiKey ?? process.env.DOCDROP_API_KEY;
    if (args.baseUrl === undefined) throw new Error('give --config FILE, or --base-url URL with --api-key KEY');
    if (!apiKey) throw new Error('--api-key (or DOCDROP_API_KEY) is required with --base-url');
    const client = new ServiceClient({ baseUrl: args.baseUrl, apiKey, ...(onRequest ? { onRequest } : {}) });
    return { client, url: args.baseUrl, via: 'url', keyPath: null, config: null, submit: 'run_parser', close: async () => {} };
  }
  return connectConfigured(await loadConfig(args.config), logger, onRequest);
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
      const client = configuredClient(config, found.note.url, apiKey, onRequest);
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
    throw new Error(`the running daemon's embedded service key file ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): run this command as the daemon's user`);
  }
}
