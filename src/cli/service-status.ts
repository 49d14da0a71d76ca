// The service part of `docdrop status`: the URL in use and, for the embedded service, whether the daemon
// runs it now, at which URL, and where its key is kept. The key itself only with --show-key: that option's
// job is to show the key to its owner (whoever may read the key file).
import { readFile, stat } from 'node:fs/promises';
import type { DaemonConfig } from '../daemon/config/config.js';
import { findEmbeddedService } from '../daemon/embedded-discovery.js';
import { redactUrl } from '../shared/redact-url.js';

export interface ServiceStatus {
  base_url: string;
  /** The URL to call now; null for an embedded service that is not running. */
  url: string | null;
  running: boolean | null;
  pid: number | null;
  started_at: string | null;
  /** The embedded service's generated key file, when it exists. */
  key_file: string | null;
  api_key?: string;
}

export async function serviceStatus(config: DaemonConfig, showKey: boolean): Promise<ServiceStatus> {
  if (config.service.base_url !== 'embedded') {
    return { base_url: redactUrl(config.service.base_url), url: redactUrl(config.service.base_url), running: null, pid: null, started_at: null, key_file: null };
  }
  const found = await findEmbeddedService(config);
  const keyFile = (await stat(found.keyPath).catch(() => null)) ? found.keyPath : null;
  const status: ServiceStatus = {
    base_url: 'embedded',
    url: found.running ? found.note.url : null,
    running: found.running,
    pid: found.running ? found.note.pid : null,
    started_at: found.running ? found.note.started_at : null,
    key_file: keyFile,
  };
  if (showKey) {
    if (!keyFile) throw new Error('--show-key: no key file yet (the daemon generates it at its first start), or the key comes from service.api_key');
    status.api_key = (await readFile(keyFile, 'utf8')).trim();
  }
  return status;
}

export function serviceLines(s: ServiceStatus): string {
  if (s.base_url !== 'embedded') return `service: ${s.url}\n`;
  const where = s.running ? `running at ${s.url} (daemon pid ${s.pid}, since ${s.started_at})` : 'not running (docdrop run starts it)';
  const key = s.key_file ? `; key in ${s.key_file}` : '; key from service.api_key';
  return `service: embedded, ${where}${key}\n${s.api_key !== undefined ? `api key: ${s.api_key}\n` : ''}`;
}
