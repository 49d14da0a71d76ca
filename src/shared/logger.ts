// One pino logger for every component. Secrets never reach the log: known secret keys are redacted at
// any depth we log them, and callers log ids and paths, never whole configs or request headers.
import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';

export type { Logger };

/** `json`: one JSON line per entry (journald, scripts); `pretty`: human-readable lines for a terminal. */
export type LogFormat = 'json' | 'pretty';
export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];

/** A --log-format value checked (yargs `choices` cannot be used where options come from a schema). */
export function parseLogFormat(text: string | undefined): LogFormat | undefined {
  if (text === undefined) return undefined;
  if (!(LOG_FORMATS as readonly string[]).includes(text)) throw new Error(`--log-format: expected one of ${LOG_FORMATS.join(', ')}, received "${text}"`);
  return text as LogFormat;
}

/** The format asked for, else pretty when stderr is a terminal and JSON lines otherwise (journald, pipes). */
export function logFormatFor(asked: LogFormat | undefined, stderr: { isTTY?: boolean } = process.stderr): LogFormat {
  return asked ?? (stderr.isTTY ? 'pretty' : 'json');
}

const SECRET_KEYS = ['api_key', 'apiKey', 'api_keys', 'apiKeys', 'password', 'pass', 'secret', 'x-api-key', 'authorization',
  // OAuth2 mailboxes (mailboxes[].auth, token answers)
  'client_secret', 'access_token', 'accessToken', 'refresh_token'];
// A top-level key is written `["k"]`: the quoted form `"k"` matches nothing (a top-level api_key was logged).
const redactPaths = SECRET_KEYS.flatMap((k) => [`["${k}"]`, `*["${k}"]`, `*.*["${k}"]`, `headers["${k}"]`, `req.headers["${k}"]`]);

export function createLogger(opts: { level?: string; name?: string; destination?: NodeJS.WritableStream; format?: LogFormat } = {}): Logger {
  return pino(
    {
      name: opts.name ?? 'docdrop',
      level: opts.level ?? process.env.DOCDROP_LOG_LEVEL ?? 'info',
      redact: { paths: redactPaths, censor: '[redacted]' },
      base: undefined,
    },
    opts.format === 'pretty' ? prettyStream(opts.destination) : ((opts.destination as pino.DestinationStream | undefined) ?? pino.destination({ fd: 2, sync: false })),
  );
}

/**
 * pino-pretty as a stream in this process (not a transport worker thread: cheaper to start), loaded only
 * when asked for. Redaction happens in pino before a line reaches it, so secrets stay out here too.
 */
function prettyStream(destination: NodeJS.WritableStream | undefined): pino.DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return pretty({
    destination: destination ?? 2,
    colorize: destination === undefined && process.stderr.isTTY === true,
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
    ignore: 'pid,hostname',
    sync: true,
  });
}

/** A logger that drops everything: for tests and library use where no log was asked for. */
export const silentLogger: Logger = pino({ level: 'silent' });
