// Options of startService and `docdrop serve`, with defaults written once.
import type { Logger } from '../shared/logger.js';
import type { DocumentEngine } from '../engine/types.js';
import type { LlmConfig } from '../engine/index.js';
import type { FaultOptions } from './faults.js';
import type { WebhookOptions } from './jobs/webhooks.js';
import type { SmtpSettings } from './mail/export-mailer.js';

export interface ServiceOptions {
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Holds service.db, presign.key and files/. Created when missing. */
  dataDir: string;
  /** Each key is its own account. Never logged. */
  apiKeys: string[];
  /** Base of pre-signed URLs (e.g. behind a proxy); default http://host:port. */
  publicUrl?: string;
  /** Lifetime of storage_key URLs in seconds; default 3600. Upload URLs live 15 min, export/parsed-file URLs 1 h. */
  presignTtlSeconds?: number;
  /** Largest file accepted through the pre-signed PUT, bytes; default 1 GiB. */
  maxUploadBytes?: number;
  /** Domain of each Workflow's email_id; default docdrop.local. */
  inboundDomain?: string;
  logger?: Logger;
  /** Extraction engine; startService creates the default one when absent. */
  engine?: DocumentEngine;
  /** Optional OpenAI-compatible LLM for the default engine (docs/engine.md); ignored when `engine` is given. */
  llm?: LlmConfig;
  /** Jobs processed at once by the worker pool; default 2. */
  jobConcurrency?: number;
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

export interface ResolvedServiceOptions extends ServiceOptions {
  host: string;
  presignTtlSeconds: number;
  maxUploadBytes: number;
  inboundDomain: string;
  jobConcurrency: number;
}

/** The spec's multipart limit. */
export const MULTIPART_MAX_BYTES = 6 * 1024 * 1024;

export function resolveOptions(o: ServiceOptions): ResolvedServiceOptions {
  if (!o.dataDir) throw new Error('dataDir: expected a folder path, received nothing');
  if (!Array.isArray(o.apiKeys) || o.apiKeys.length === 0 || o.apiKeys.some((k) => typeof k !== 'string' || k.trim() === '')) {
    throw new Error('apiKeys: expected at least one non-empty API key');
  }
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) throw new Error(`port: expected an integer 0..65535, received ${o.port}`);
  return {
    ...o,
    host: o.host ?? '127.0.0.1',
    presignTtlSeconds: o.presignTtlSeconds ?? 3600,
    maxUploadBytes: o.maxUploadBytes ?? 1024 * 1024 * 1024,
    inboundDomain: o.inboundDomain ?? 'docdrop.local',
    jobConcurrency: o.jobConcurrency ?? 2,
  };
}
