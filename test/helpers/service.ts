// Starts a real docdrop service on 127.0.0.1:0 in a fresh temp data dir; close() stops it and removes the dir.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService, type ServiceOptions } from '../../src/service/index.js';

export interface TestService {
  url: string;
  /** Two accounts by default: keys[0] and keys[1]. */
  keys: string[];
  dataDir: string;
  service: RunningService;
  close(): Promise<void>;
}

export async function startTestService(opts: Partial<ServiceOptions> & { keepDataDir?: boolean } = {}): Promise<TestService> {
  const { keepDataDir, ...rest } = opts;
  const dataDir = rest.dataDir ?? (await mkdtemp(join(tmpdir(), 'docdrop-service-')));
  const keys = rest.apiKeys ?? ['test-key-account-a', 'test-key-account-b'];
  const service = await startService({ port: 0, ...rest, dataDir, apiKeys: keys });
  return {
    url: service.url,
    keys,
    dataDir,
    service,
    close: async () => {
      await service.close();
      if (!keepDataDir && !rest.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
