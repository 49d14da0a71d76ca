// One pino logger for every component. Secrets never reach the log: known secret keys are redacted at
// any depth we log them, and callers log ids and paths, never whole configs or request headers.
import { pino, type Logger } from 'pino';

export type { Logger };

const SECRET_KEYS = ['api_key', 'apiKey', 'api_keys', 'apiKeys', 'password', 'pass', 'secret', 'x-api-key', 'authorization'];
const redactPaths = SECRET_KEYS.flatMap((k) => [`"${k}"`, `*["${k}"]`, `*.*["${k}"]`, `headers["${k}"]`, `req.headers["${k}"]`]);

export function createLogger(opts: { level?: string; name?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  return pino(
    {
      name: opts.name ?? 'docdrop',
      level: opts.level ?? process.env.DOCDROP_LOG_LEVEL ?? 'info',
      redact: { paths: redactPaths, censor: '[redacted]' },
      base: undefined,
    },
    (opts.destination as pino.DestinationStream | undefined) ?? pino.destination({ fd: 2, sync: false }),
  );
}

/** A logger that drops everything: for tests and library use where no log was asked for. */
export const silentLogger: Logger = pino({ level: 'silent' });
