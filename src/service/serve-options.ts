// Options of `docdrop serve` and startService. SERVE_OPTIONS is the one schema: each option's name, type,
// default and help text, written once. The CLI's flags (src/cli/serve-command.ts) and the service's
// defaults (resolveOptions) are both derived from it; README's table lists the same (a test checks).
import { join, resolve } from 'node:path';
import type { Logger } from '../shared/logger.js';
import { redactUrl } from '../shared/redact-url.js';
import { createAddressPolicy } from './usecases/address-policy.js';
import type { DocumentEngine, LlmConfig } from '../engine/index.js';
import type { FaultOptions } from './faults.js';
import type { WebhookOptions } from './jobs/webhooks.js';
import type { SmtpSettings } from './mail/export-mailer.js';

export interface ServeOptionSpec {
  type: 'string' | 'number' | 'boolean';
  /** Repeatable flag. */
  array?: boolean;
  default?: string | number | boolean;
  required?: boolean;
  describe: string;
  /** Environment variable read besides the flag. */
  env?: string;
}

/** Every `docdrop serve` flag, in help order. Defaults are in the CLI's units (e.g. MB). */
export const SERVE_OPTIONS = {
  host: { type: 'string', default: '127.0.0.1', describe: 'Interface to listen on' },
  port: { type: 'number', default: 8080, describe: 'TCP port (0 = any free port)' },
  'data-dir': { type: 'string', required: true, describe: 'Folder for service.db, presign.key and stored files (the defaults of --database and --files)' },
  database: {
    type: 'string',
    describe: 'postgres://USER@HOST:PORT/DB: keep documents, Workflows, Classifiers, jobs and webhook deliveries in PostgreSQL, shared by every serve process given the same URL (default DATA_DIR/service.db, SQLite). Password in the URL or PGPASSWORD',
  },
  files: { type: 'string', describe: 'Folder of stored documents and exports; several serve processes may share it on NFSv4, CephFS or SMB (not an object-store mount) (default DATA_DIR/files)' },
  'api-key': {
    type: 'string',
    array: true,
    env: 'DOCDROP_API_KEYS',
    describe: 'An account API key (repeat for more accounts; also DOCDROP_API_KEYS, comma separated). Visible to other local users in ps: prefer --api-key-file',
  },
  'api-key-file': {
    type: 'string',
    array: true,
    describe: 'File of account API keys, one per line (blank lines and # comments ignored); repeatable',
  },
  'public-url': { type: 'string', describe: 'Base URL for pre-signed links when behind a proxy (default http://HOST:PORT)' },
  'presign-ttl': { type: 'number', default: 3600, describe: 'Lifetime of storage_key URLs in seconds' },
  'max-upload-mb': { type: 'number', default: 1024, describe: 'Largest file accepted through the pre-signed upload, MB' },
  'fetch-allow-range': {
    type: 'string',
    array: true,
    describe: 'Let POST /v1/extract `url` fetch from, and Workflow webhooks go to, this non-public CIDR range, e.g. 10.0.0.0/8 (repeatable; by default only public addresses)',
  },
  'headers-timeout-s': { type: 'number', default: 20, describe: 'A request line and headers must arrive within this time, or the connection is closed (408)' },
  'idle-timeout-s': { type: 'number', default: 120, describe: 'A connection silent this long (nothing read or written; also between keep-alive requests) is closed; keep it above the slowest answer (--llm-timeout-ms)' },
  'body-timeout-s': {
    type: 'number',
    default: 30,
    describe: 'A request body must bring at least 1 KiB/s over each window of this many seconds, or the connection is closed (no limit on its total time)',
  },
  'max-connections-per-ip': { type: 'number', default: 64, describe: 'Open connections per client address; more are closed at once (0 = no cap)' },
  'inbound-domain': { type: 'string', default: 'docdrop.local', describe: "Domain of each Workflow's email_id" },
  'log-level': { type: 'string', default: 'info', describe: 'pino log level' },
  'log-format': { type: 'string', describe: 'json (JSON lines) or pretty (human-readable); default pretty when stderr is a terminal, else json' },
  // Jobs side: workers, inbound SMTP, export mail, fault injection (src/service/jobs, faults.ts).
  'job-concurrency': { type: 'number', default: 2, describe: 'Jobs processed at once' },
  role: {
    type: 'string',
    default: 'all',
    describe: 'api (answers the API and queues jobs, never runs them), worker (runs jobs; HTTP only for /healthz, /readyz, /metrics) or all. api and worker need a PostgreSQL --database',
  },
  'job-timeout': {
    type: 'number',
    default: 900,
    describe: 'Seconds one job may run before it ends in exception; with PostgreSQL also how soon a job whose worker died is retried by another',
  },
  'pdf-workers': { type: 'number', describe: 'PDF reader threads (pdf.js text; one of them also renders pages for OCR with PDFium); default min(2, cores)' },
  'smtp-port': { type: 'number', describe: "Start the inbound SMTP listener on this port (mail to a Workflow's email_id becomes a run)" },
  'smtp-host': { type: 'string', describe: 'Interface of the inbound SMTP listener (default --host)' },
  'mail-smtp-host': { type: 'string', describe: 'Outgoing SMTP server for range-export links (without it the link is logged)' },
  'mail-smtp-port': { type: 'number', default: 587, describe: 'Outgoing SMTP port' },
  'mail-smtp-secure': { type: 'boolean', default: false, describe: 'TLS from the first byte (port 465)' },
  'mail-smtp-user': { type: 'string', describe: 'Outgoing SMTP user (password from DOCDROP_MAIL_SMTP_PASS)' },
  'mail-from': { type: 'string', describe: 'Sender of export mails (default docdrop@MAIL-SMTP-HOST)' },
  'account-email': { type: 'string', describe: 'Address range-export links are sent to (default <account id>@INBOUND-DOMAIN)' },
  'llm-url': { type: 'string', describe: 'OpenAI-compatible endpoint for the optional LLM engine, e.g. http://127.0.0.1:8000/v1 (key in DOCDROP_LLM_API_KEY)' },
  'llm-model': { type: 'string', array: true, describe: 'query_model=endpoint model, e.g. model-4o-mini=gpt-4o-mini (repeatable; the first is the default)' },
  'llm-timeout-ms': { type: 'number', default: 60000, describe: 'LLM request timeout; the built-in engine answers when it is exceeded' },
  'fault-latency-ms': { type: 'string', describe: 'Fault: added latency per API request, N or MIN-MAX ms' },
  'fault-429-rate': { type: 'number', describe: 'Fault: share 0..1 of API requests answered 429' },
  'fault-retry-after': { type: 'number', default: 1, describe: 'Fault: Retry-After seconds of injected 429s' },
  'fault-5xx-rate': { type: 'number', describe: 'Fault: share 0..1 of API requests answered 500' },
  'fault-drop-rate': { type: 'number', describe: 'Fault: share 0..1 of API requests whose connection is dropped unanswered' },
  'fault-job-failed-rate': { type: 'number', describe: "Fault: share 0..1 of jobs ending 'failed'" },
  'fault-job-exception-rate': { type: 'number', describe: "Fault: share 0..1 of jobs ending 'exception'" },
  'fault-job-delay-ms': { type: 'string', describe: 'Fault: added processing time per job, N or MIN-MAX ms' },
  'fault-seed': { type: 'number', describe: 'Fault: seed for a repeatable sequence of fault decisions' },
} as const satisfies Record<string, ServeOptionSpec>;

/** Secrets read only from the environment, never from flags (they would show in `ps`). */
export const SERVE_SECRET_ENV = {
  mailSmtpPass: 'DOCDROP_MAIL_SMTP_PASS',
  llmApiKey: 'DOCDROP_LLM_API_KEY',
} as const;

type Specs = typeof SERVE_OPTIONS;
type CamelCase<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;
type Scalar<S extends ServeOptionSpec> = S['type'] extends 'string' ? string : S['type'] extends 'number' ? number : boolean;
type Value<S extends ServeOptionSpec> = S extends { array: true } ? Scalar<S>[] : Scalar<S>;
type Always<S> = S extends { default: unknown } ? true : S extends { required: true } ? true : false;

/** The parsed flags (yargs' camel-case keys): present when the option has a default or is required. */
export type ServeArgs = { [K in keyof Specs as Always<Specs[K]> extends true ? CamelCase<K> : never]: Value<Specs[K]> } & {
  [K in keyof Specs as Always<Specs[K]> extends true ? never : CamelCase<K>]?: Value<Specs[K]>;
};

export interface ServiceOptions {
  /** Interface to bind; default --host's. */
  host?: string;
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Holds service.db, presign.key and files/. Created when missing. */
  dataDir: string;
  /** PostgreSQL URL of a store shared by several processes; absent = DATA_DIR/service.db (SQLite). */
  database?: string;
  /** Folder of stored files (may be shared by several processes); default DATA_DIR/files. */
  filesDir?: string;
  /** Each key is its own account. Never logged. */
  apiKeys: string[];
  /** Base of pre-signed URLs (e.g. behind a proxy); default http://host:port. */
  publicUrl?: string;
  /** Lifetime of storage_key URLs in seconds; default --presign-ttl's. Upload URLs live 15 min, export/parsed-file URLs 1 h. */
  presignTtlSeconds?: number;
  /** Largest file accepted through the pre-signed PUT, bytes; default --max-upload-mb's. */
  maxUploadBytes?: number;
  /** CIDR ranges besides public unicast that a `url` may be fetched from (--fetch-allow-range); default none. */
  fetchAllowRanges?: string[];
  /** Domain of each Workflow's email_id; default --inbound-domain's. */
  inboundDomain?: string;
  /** Time for a request line and headers, ms; default --headers-timeout-s's. */
  headersTimeoutMs?: number;
  /** A connection with no traffic this long is closed (also the keep-alive idle time), ms; default --idle-timeout-s's. */
  idleTimeoutMs?: number;
  /** Window over which a request body must keep the minimum rate (BODY_MIN_BYTES_PER_S), ms; default --body-timeout-s's. */
  bodyTimeoutMs?: number;
  /** Open connections per client address, 0 = no cap; default --max-connections-per-ip's. */
  maxConnectionsPerIp?: number;
  logger?: Logger;
  /** Extraction engine; startService creates the default one when absent. */
  engine?: DocumentEngine;
  /** Optional OpenAI-compatible LLM for the default engine (docs/engine.md); ignored when `engine` is given. */
  llm?: LlmConfig;
  /** Jobs processed at once by the worker pool; default --job-concurrency's. */
  jobConcurrency?: number;
  /** What this process does (--role): api, worker or all (default). */
  role?: ServeRole;
  /** Seconds one job may run (--job-timeout); with PostgreSQL, also when a dead worker's job is retried. */
  jobTimeoutSeconds?: number;
  /** Fault injection for testing clients (src/service/faults.ts); off by default. */
  faults?: FaultOptions;
  /** Webhook delivery tuning (docs/webhooks.md). */
  webhooks?: Partial<WebhookOptions>;
  /** Outgoing SMTP for range-export links; when absent the link is logged instead. */
  mailSmtp?: SmtpSettings;
  /** Address range-export links go to, for every account; default <account id>@<inboundDomain>. */
  accountEmail?: string;
  /** Inbound SMTP listener port (Workflow email_id addresses); absent = no listener, 0 = any free port. */
  smtpPort?: number;
  /** Interface of the inbound SMTP listener; default `host`. */
  smtpHost?: string;
}

export const SERVE_ROLES = ['api', 'worker', 'all'] as const;
export type ServeRole = (typeof SERVE_ROLES)[number];

export interface ResolvedServiceOptions extends ServiceOptions {
  host: string;
  role: ServeRole;
  jobTimeoutSeconds: number;
  filesDir: string;
  presignTtlSeconds: number;
  maxUploadBytes: number;
  inboundDomain: string;
  jobConcurrency: number;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  bodyTimeoutMs: number;
  maxConnectionsPerIp: number;
}

/** The spec's multipart limit. */
export const MULTIPART_MAX_BYTES = 6 * 1024 * 1024;

export const MIB = 1024 * 1024;

/** startService's defaults: the schema's, so a service started in-process behaves as `docdrop serve`. */
export function resolveOptions(o: ServiceOptions): ResolvedServiceOptions {
  if (!o.dataDir) throw new Error('dataDir: expected a folder path, received nothing');
  if (!Array.isArray(o.apiKeys) || o.apiKeys.length === 0 || o.apiKeys.some((k) => typeof k !== 'string' || k.trim() === '')) {
    throw new Error('apiKeys: expected at least one non-empty API key');
  }
  createAddressPolicy(o.fetchAllowRanges ?? []); // throws on a malformed range, before anything starts
  if (o.maxConnectionsPerIp !== undefined && !(Number.isInteger(o.maxConnectionsPerIp) && o.maxConnectionsPerIp >= 0)) {
    throw new Error(`--max-connections-per-ip: expected an integer >= 0 (0 = no cap), received ${o.maxConnectionsPerIp}`);
  }
  if (o.database !== undefined && !/^postgres(ql)?:\/\/./i.test(o.database)) {
    throw new Error(`--database: expected a PostgreSQL URL such as postgres://docdrop@db-host:5432/docdrop, received ${JSON.stringify(redactUrl(o.database))}`);
  }
  const role = o.role ?? (SERVE_OPTIONS.role.default as ServeRole);
  if (!SERVE_ROLES.includes(role)) throw new Error(`--role: expected one of ${SERVE_ROLES.join(', ')}, received '${role}'`);
  if (role !== 'all' && o.database === undefined) {
    throw new Error(`--role ${role}: needs a PostgreSQL --database (processes share jobs only through PostgreSQL); with SQLite the one process has --role all`);
  }
  const jobTimeoutSeconds = o.jobTimeoutSeconds ?? SERVE_OPTIONS['job-timeout'].default;
  if (!(Number.isFinite(jobTimeoutSeconds) && jobTimeoutSeconds >= 2 && jobTimeoutSeconds < 86_400)) {
    throw new Error(`--job-timeout: expected seconds from 2 to 86399, received ${jobTimeoutSeconds}`);
  }
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) throw new Error(`port: expected an integer 0..65535, received ${o.port}`);
  return {
    ...o,
    host: o.host ?? SERVE_OPTIONS.host.default,
    role,
    jobTimeoutSeconds,
    // Absolute: artifact paths are checked to stay inside it (FileStore.artifactPath).
    filesDir: resolve(o.filesDir ?? join(o.dataDir, 'files')),
    presignTtlSeconds: o.presignTtlSeconds ?? SERVE_OPTIONS['presign-ttl'].default,
    maxUploadBytes: o.maxUploadBytes ?? SERVE_OPTIONS['max-upload-mb'].default * MIB,
    inboundDomain: o.inboundDomain ?? SERVE_OPTIONS['inbound-domain'].default,
    jobConcurrency: o.jobConcurrency ?? SERVE_OPTIONS['job-concurrency'].default,
    headersTimeoutMs: positive('headers timeout (--headers-timeout-s)', o.headersTimeoutMs ?? SERVE_OPTIONS['headers-timeout-s'].default * 1000),
    idleTimeoutMs: positive('idle timeout (--idle-timeout-s)', o.idleTimeoutMs ?? SERVE_OPTIONS['idle-timeout-s'].default * 1000),
    bodyTimeoutMs: positive('body timeout (--body-timeout-s)', o.bodyTimeoutMs ?? SERVE_OPTIONS['body-timeout-s'].default * 1000),
    maxConnectionsPerIp: o.maxConnectionsPerIp ?? SERVE_OPTIONS['max-connections-per-ip'].default,
  };
}

function positive(name: string, ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0) throw new Error(`${name}: expected a time above 0, received ${ms} ms`);
  return Math.round(ms);
}
