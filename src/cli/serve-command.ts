// `docdrop serve`: runs the self-hosted service until SIGINT/SIGTERM.
// Options are declared in `serveOptions` and mapped in `toServiceOptions`; add new ones in both places.
import type { ArgumentsCamelCase, CommandModule, Options } from 'yargs';
import { startService, type ServiceOptions } from '../service/index.js';
import { createLogger } from '../util/logger.js';

export const serveOptions = {
  host: { type: 'string', default: '127.0.0.1', describe: 'Interface to listen on' },
  port: { type: 'number', default: 8080, describe: 'TCP port (0 = any free port)' },
  'data-dir': { type: 'string', demandOption: true, describe: 'Folder for service.db, presign.key and stored files' },
  'api-key': {
    type: 'string',
    array: true,
    describe: 'An account API key (repeat for more accounts; also DOCDROP_API_KEYS, comma separated)',
  },
  'public-url': { type: 'string', describe: 'Base URL for pre-signed links when behind a proxy (default http://HOST:PORT)' },
  'presign-ttl': { type: 'number', default: 3600, describe: 'Lifetime of storage_key URLs in seconds' },
  'max-upload-mb': { type: 'number', default: 1024, describe: 'Largest file accepted through the pre-signed upload, MB' },
  'inbound-domain': { type: 'string', default: 'docdrop.local', describe: "Domain of each Workflow's email_id" },
  'log-level': { type: 'string', default: 'info', describe: 'pino log level' },
} satisfies Record<string, Options>;

type ServeArgs = ArgumentsCamelCase<{
  host: string;
  port: number;
  dataDir: string;
  apiKey?: string[];
  publicUrl?: string;
  presignTtl: number;
  maxUploadMb: number;
  inboundDomain: string;
  logLevel: string;
}>;

export function apiKeysFrom(flags: string[] | undefined, env: string | undefined): string[] {
  const keys = [...(flags ?? []), ...(env ?? '').split(',')].map((k) => k.trim()).filter(Boolean);
  return [...new Set(keys)];
}

export function toServiceOptions(argv: ServeArgs, logger: ServiceOptions['logger']): ServiceOptions {
  const apiKeys = apiKeysFrom(argv.apiKey, process.env.DOCDROP_API_KEYS);
  if (apiKeys.length === 0) throw new Error('--api-key: expected at least one key (or DOCDROP_API_KEYS), received none');
  return {
    host: argv.host,
    port: argv.port,
    dataDir: argv.dataDir,
    apiKeys,
    publicUrl: argv.publicUrl,
    presignTtlSeconds: argv.presignTtl,
    maxUploadBytes: Math.round(argv.maxUploadMb * 1024 * 1024),
    inboundDomain: argv.inboundDomain,
    logger,
  };
}

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Run the self-hosted document extraction and classification service',
  builder: (y) => y.options(serveOptions) as never,
  handler: async (argv) => {
    const logger = createLogger({ level: argv.logLevel, name: 'docdrop-serve' });
    const service = await startService(toServiceOptions(argv, logger));
    logger.info({ url: service.url, dataDir: argv.dataDir, accounts: service.context.options.apiKeys.length }, `docdrop serve listening at ${service.url}`);
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        logger.info({ signal }, 'shutting down');
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        service.close().then(resolve, (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exitCode = 1;
          resolve();
        });
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  },
};
