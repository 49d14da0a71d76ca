// `base_url: embedded`: the daemon starts `docdrop serve` in its own process, on loopback only, so a fresh
// clone works with no other set-up. The service's account key is generated once and kept in a file
// (mode 600) beside the ledger: the service's documents and jobs belong to that key's account, so a new
// key on every start would make jobs submitted before a restart unreachable (403).
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, sep } from 'node:path';
import type { Logger } from '../shared/logger.js';
import { redactUrl } from '../shared/redact-url.js';
import type { DaemonConfig } from './config/config.js';

export interface EmbeddedService {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

export function embeddedKeyPath(config: DaemonConfig): string {
  return join(dirname(config.state.path), 'embedded-api-key');
}

/** Reads the kept key, or creates it (mode 600) on first start. */
export async function loadOrCreateKey(path: string): Promise<string> {
  try {
    const key = (await readFile(path, 'utf8')).trim();
    if (key) return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dirname(path), { recursive: true });
  const key = randomBytes(24).toString('base64url');
  await writeFile(path, `${key}\n`, { mode: 0o600, flag: 'wx' }).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  await chmod(path, 0o600);
  return (await readFile(path, 'utf8')).trim();
}

/** Loopback and private networks (RFC 1918, IPv6 ULA): the embedded service may reach them. */
export const EMBEDDED_ALLOW_RANGES = ['127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '::1/128', 'fc00::/7'];

export async function startEmbeddedService(config: DaemonConfig, logger: Logger): Promise<EmbeddedService> {
  const apiKey = config.service.api_key_source === 'generated' ? await loadOrCreateKey(embeddedKeyPath(config)) : config.service.api_key;
  // Loaded only here: the service and its engine (pdf.js, OCR, sharp) cost ~100 MB a daemon talking to a
  // remote service should not carry.
  const { startService } = await import('../service/index.js');
  const svc = await startService({
    host: '127.0.0.1',
    port: config.service.embedded.port,
    dataDir: config.service.embedded.data_dir,
    apiKeys: [apiKey],
    // Its only client is this daemon, whose config the operator writes: webhooks to an automation server
    // on the LAN (and URL fetches there) must work, as they would from the operator's own machine.
    fetchAllowRanges: EMBEDDED_ALLOW_RANGES,
    // The service's per-request lines would drown the daemon's own; they show at debug.
    logger: logger.child({ component: 'service' }, { level: ['debug', 'trace'].includes(logger.level) ? logger.level : 'warn' }),
  });
  logger.info({ url: redactUrl(svc.url), dataDir: config.service.embedded.data_dir }, 'embedded service started');
  return { url: svc.url, apiKey, close: () => svc.close() };
}

/**
 * The inboxes of a fresh checkout (`npm start`: ./var/inbox/invoices), so a new user has somewhere to drop
 * files: only watch folders inside docdrop's own state folder (the folder of state.path). Any other one
 * is the operator's (a share, a mount): created here it would hide a typo or an unmounted share, so
 * intake logs it as missing and waits for it, as with a remote service.
 */
export async function createRuleFolders(config: DaemonConfig): Promise<void> {
  const own = dirname(config.state.path) + sep;
  for (const rule of config.rules) if (rule.watch.startsWith(own)) await mkdir(rule.watch, { recursive: true });
}
