// The daemon's configuration schema. Every default is written here and only here (units in the key names);
// config/docdrop.example.yaml and the README document the same values. Objects are strict so a misspelt
// key is reported instead of silently ignored.
import { z } from 'zod';
import { definitionSections } from './definitions-schema.js';
import { subjectMatcher } from './subject-pattern.js';

const positiveInt = () => z.number().int().positive();
const nonEmpty = () => z.string().min(1, 'must not be empty');

/** Folders may carry these placeholders; anything else in braces is a mistake worth reporting. */
export const OUTPUT_PLACEHOLDERS = ['rule', 'label', 'date', 'workflow'] as const;
export const INPUT_PLACEHOLDERS = ['rule', 'date'] as const;

/** run_parser query options (interface.md, "run_parser query parameters"); omitted ones fall back to the Workflow. */
export const runOptionsSchema = z.strictObject({
  use_ocr: z.boolean().optional(),
  query_model: nonEmpty().optional(),
  page_ranges: z
    .string()
    .regex(/^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$/, 'expected page ranges like "1-3,5,7-9"')
    .optional(),
  detect_layout: z.boolean().optional(),
  detect_tables: z.boolean().optional(),
  chunk_by_pages: positiveInt().optional(),
  rolling_window: positiveInt().optional(),
  start_regex: nonEmpty().optional(),
  end_regex: nonEmpty().optional(),
  split_regex: nonEmpty().optional(),
  use_all_matches: z.boolean().optional(),
});

/** Options the service accepts only together with use_ocr=true (interface.md, run_parser `use_ocr` rule). */
export const OCR_ONLY_OPTIONS = [
  'detect_layout',
  'detect_tables',
  'start_regex',
  'end_regex',
  'split_regex',
  'use_all_matches',
] as const;
export const OCR_ONLY_MODELS = ['model-3.5-turbo'] as const;

const outputSchema = z.strictObject({
  dir: nonEmpty().default('./var/outbox/{rule}'),
  format: z.enum(['csv', 'xlsx', 'json']).default('xlsx'),
  layout: z.enum(['flat', 'line_items']).default('line_items'),
  /** Table field whose rows become output rows in the line_items layout. */
  merge_field: nonEmpty().nullable().default('line_items'),
  include_filename: z.boolean().default(true),
  include_request_id: z.boolean().default(true),
  /** Columns mail_from, mail_subject, mail_date, mail_message_id for files that came from a mailbox. */
  include_mail: z.boolean().default(false),
  /** A <field>_confidence column after each field (0..1 from the service; empty when it gives none). */
  confidence: z.boolean().default(false),
  group: z.enum(['per_document', 'daily']).default('per_document'),
});

const afterSchema = z.strictObject({
  success: z.enum(['move', 'delete', 'keep']).default('move'),
  processed_dir: nonEmpty().default('./var/processed/{rule}/{date}'),
  failed_dir: nonEmpty().default('./var/failed/{rule}'),
  /** Where a skipped duplicate goes, with a note naming the file it repeats. */
  duplicates_dir: nonEmpty().default('./var/duplicates/{rule}'),
});

/** A plain e-mail address (no display name): nothing that could end a header line or hold a second address. */
const emailAddress = () =>
  z.string().regex(/^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+$/, 'expected a plain e-mail address like ops@example.com');

/** A rule's own recipients: its failure alerts, and optionally each finished input's output files. */
const ruleNotifySchema = z.strictObject({
  to: z.array(emailAddress()).min(1, 'expected at least one address'),
  /** Mail each finished input's output file(s) to `to` (output.group per_document only). */
  attach_output: z.boolean().default(false),
});

export const ruleSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'expected 1-64 letters, digits, "_", "." or "-" (it names folders)'),
  watch: nonEmpty(),
  recursive: z.boolean().default(true),
  include: z.array(nonEmpty()).min(1).default(['**/*']),
  exclude: z.array(nonEmpty()).default(['**/.*', '**/*.tmp', '**/*.part', '**/~$*']),
  stable_ms: z.number().int().min(0).default(2000),
  watch_mode: z.enum(['native', 'poll']).default('native'),
  /** Interval of chokidar's stat polling in watch_mode poll (and after an inotify ENOSPC fallback). */
  poll_interval_ms: positiveInt().default(1000),
  /** Workflow title or template_id. Exactly one of workflow and classifier. */
  workflow: nonEmpty().optional(),
  /** Classifier name or classifier_id (classify + extract). */
  classifier: nonEmpty().optional(),
  options: runOptionsSchema.prefault({}),
  duplicates: z.enum(['skip', 'process']).default('skip'),
  output: outputSchema.prefault({}),
  after: afterSchema.prefault({}),
  /** Alerts of this rule (and its outputs) to its own recipients too; needs the top-level notify section. */
  notify: ruleNotifySchema.optional(),
});

/** Microsoft 365 tenant of `auth.provider: microsoft365` when `auth.tenant` is not written. */
export const DEFAULT_MICROSOFT_TENANT = 'organizations';

/**
 * How a mailbox logs in. oauth2: an access token from token_url (XOAUTH2/OAUTHBEARER), with the refresh
 * token in refresh_token_file (`docdrop mail login`), or app-only (client-credentials grant) when there is
 * a client_secret_file and no refresh_token_file. A provider preset fills token_url, scope and the device
 * endpoint. Cross-key rules are checked in config.ts.
 */
export const mailAuthSchema = z.strictObject({
  type: z.enum(['password', 'oauth2']).default('password'),
  provider: z.enum(['microsoft365', 'google']).optional(),
  /** provider microsoft365 only: the directory (tenant) id or domain; DEFAULT_MICROSOFT_TENANT when absent. */
  tenant: z.string().regex(/^[A-Za-z0-9.-]{1,100}$/, 'expected a tenant id or domain (letters, digits, "." and "-")').optional(),
  token_url: z.url({ protocol: /^https?$/, error: 'expected an http(s):// URL' }).optional(),
  device_authorization_url: z.url({ protocol: /^https?$/, error: 'expected an http(s):// URL' }).optional(),
  client_id: nonEmpty().optional(),
  client_secret_file: nonEmpty().optional(),
  refresh_token_file: nonEmpty().optional(),
  scope: nonEmpty().optional(),
});

/** A mailbox's `filter:`: which mail it takes; mail that does not match stays untouched (on the server, or in the Maildir), recorded once as skipped. */
const mailFilterSchema = z.strictObject({
  /** Sender address globs (picomatch, case-insensitive), e.g. "*@supplier.com"; empty: any sender. */
  from: z.array(nonEmpty()).default([]),
  /** Case-insensitive substring of the subject, or a regular expression written "/.../i". */
  subject: z
    .string()
    .min(1, 'must not be empty')
    .superRefine((v, ctx) => {
      try {
        subjectMatcher(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `not a valid regular expression (${(err as Error).message}); write a plain substring, or /pattern/flags` });
      }
    })
    .optional(),
  /** Attachment file-name globs (case-insensitive): only matching attachments are taken; empty: all. */
  attachments: z.array(nonEmpty()).default([]),
  /** Mail the server received longer ago than this is skipped. */
  max_age_days: z.number().positive().optional(),
  /** A mail with no attachment taken has its text body rendered to a PDF and dropped instead. */
  parse_body: z.boolean().default(false),
});

/**
 * A mailbox whose mail attachments are dropped into a rule's watched folder: an IMAP server (host) or a
 * local Maildir (maildir), exactly one of them (config.ts checks, and refuses IMAP keys with maildir).
 */
export const mailboxSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'expected 1-64 letters, digits, "_", "." or "-" (it names the files it drops)'),
  host: nonEmpty().optional(),
  /** A Maildir (with new/ cur/ tmp/) a local MTA or fetchmail delivers to, instead of host. */
  maildir: nonEmpty().optional(),
  port: z.number().int().min(1).max(65535).default(993),
  /** TLS from the first byte (port 993); false: plain connection that must be upgraded with STARTTLS. */
  tls: z.boolean().default(true),
  /** With tls: false, also log in over a plain connection when the server offers no STARTTLS (password in cleartext). */
  insecure_plaintext: z.boolean().default(false),
  /** PEM file of a CA (or the self-signed certificate) to trust for this server besides the system's. */
  tls_ca_file: nonEmpty().optional(),
  user: nonEmpty().optional(),
  password: z.string().optional(),
  password_file: nonEmpty().optional(),
  /** Login: password (default: password or password_file above) or oauth2. */
  auth: mailAuthSchema.prefault({}),
  folder: nonEmpty().default('INBOX'),
  /** The rule whose watched folder receives the attachments. */
  rule: nonEmpty(),
  /** A check this often besides the server's new-mail pushes (IDLE) or the Maildir's folder events. */
  poll_s: z.number().positive().default(60),
  /** What happens to a message once its attachments are in the inbox. */
  after: z.enum(['seen', 'move', 'delete']).default('seen'),
  /** Folder for after: move (created when missing); with maildir a Maildir++ folder name (".<move_to>"). */
  move_to: nonEmpty().optional(),
  /** Which mail to take (mail-filter.ts); the rest stays untouched on the server or in the Maildir. */
  filter: mailFilterSchema.prefault({}),
});

const serviceSchema = z.strictObject({
  /** "embedded" starts `docdrop serve` in-process on loopback; otherwise an http(s) URL. */
  base_url: z
    .string()
    .refine((v) => v === 'embedded' || /^https?:\/\/[^\s/]+/.test(v), 'expected "embedded" or an http(s):// URL')
    .default('embedded'),
  api_key: z.string().optional(),
  api_key_file: nonEmpty().optional(),
  /** One limit shared by every API call of the daemon. */
  requests_per_second: z.number().positive().default(10),
  upload_concurrency: positiveInt().default(4),
  poll_concurrency: positiveInt().default(16),
  polling: z
    .strictObject({
      initial_s: z.number().positive().default(1),
      max_s: z.number().positive().default(15),
      give_up_after_s: z.number().positive().default(600),
    })
    .prefault({}),
  submit: z.enum(['run_parser', 'extract']).default('run_parser'),
  /** Settings of the in-process service, used only with base_url: embedded. */
  embedded: z
    .strictObject({
      data_dir: nonEmpty().default('./var/service'),
      /** Loopback port; 0 picks a free one. */
      port: z.number().int().min(0).max(65535).default(0),
    })
    .prefault({}),
});

/** Alerts by e-mail (absent: none). The SMTP password is never logged (describeConfig redacts it). */
export const notifySchema = z.strictObject({
  smtp: z.strictObject({
    host: nonEmpty(),
    port: z.number().int().min(1).max(65535).default(587),
    /** TLS from the first byte (port 465); false: STARTTLS, required when a password is sent. */
    secure: z.boolean().default(false),
    /** With secure: false and a user, also log in over a plain connection when the server has no STARTTLS. */
    insecure_plaintext: z.boolean().default(false),
    /** PEM file of a CA (or the self-signed certificate) to trust for this server besides the system's. */
    tls_ca_file: nonEmpty().optional(),
    user: nonEmpty().optional(),
    password: z.string().optional(),
    password_file: nonEmpty().optional(),
  }),
  from: emailAddress(),
  to: z.array(emailAddress()).min(1, 'expected at least one address'),
  /** The first failure is mailed at once; later ones wait and go together, at most one mail per interval. */
  failures: z.strictObject({ min_interval_s: z.number().positive().default(300) }).prefault({}),
  /** A daily digest at this local time; absent: no digest. */
  digest: z
    .strictObject({ at: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected a local time "HH:MM" (00:00 to 23:59)') })
    .optional(),
  /** The service unreachable, or a mailbox unable to connect, this long: one alert (and one when it is back). */
  down_after_s: z.number().positive().default(300),
  /** Mails waiting for the SMTP server; beyond this the oldest are dropped (and the count logged). */
  max_queued: positiveInt().default(100),
  /** Output files of one input above this total are not attached (the mail says so). */
  attachment_max_mb: z.number().positive().default(10),
});

/** The optional HTTP listener of /healthz, /readyz and /metrics; off unless `listen` is set. */
const healthSchema = z.strictObject({
  /** host:port ("127.0.0.1:9464", "[::1]:9464"); port 0 picks a free one (the log line names it). */
  listen: z
    .string()
    .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$/, 'expected host:port, e.g. "127.0.0.1:9464" (IPv6 in brackets: "[::1]:9464")')
    .refine((v) => Number(v.slice(v.lastIndexOf(':') + 1)) <= 65535, 'expected a port of at most 65535')
    .optional(),
});

export const configSchema = z.strictObject({
  /** Folder relative paths are resolved against; itself relative to the config file's folder. Default: that folder. */
  base_dir: nonEmpty().optional(),
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** A full rescan of every watched folder this often catches events a watcher missed. */
  rescan_interval_s: z.number().positive().default(60),
  service: serviceSchema.prefault({}),
  state: z
    .strictObject({
      /** The SQLite ledger file; default ./var/state.db (config.ts fills it in: it also places the daemon's local files). */
      path: nonEmpty().optional(),
      /** A postgres:// URL: a PostgreSQL ledger, which several daemons may share; instead of path. */
      url: nonEmpty().optional(),
      /** normal: no commit lost when the process is killed; full: none lost on a power cut either, ~4x slower commits. */
      synchronous: z.enum(['normal', 'full']).default('normal'),
    })
    .prefault({}),
  /** This daemon among several sharing one ledger (README, "Running on several machines"). */
  instance: z
    .strictObject({
      /** Owner of this daemon's claims, in logs and `docdrop status`; default hostname:pid:random, new at every start. */
      id: nonEmpty().max(200).optional(),
      /** A claim on an input lasts this long unless renewed (every third of it); a dead instance's inputs are taken over after it. */
      lease_ms: positiveInt().min(3000, 'expected at least 3000 ms (renewals go out every third of it)').default(30_000),
    })
    .prefault({}),
  rules: z.array(ruleSchema).min(1, 'expected at least one rule'),
  mailboxes: z.array(mailboxSchema).default([]),
  /** Workflows and Classifiers the account is made to match at start (docdrop workflows|classifiers apply). */
  ...definitionSections,
  notify: notifySchema.optional(),
  health: healthSchema.prefault({}),
});

export type RawConfig = z.output<typeof configSchema>;
export type RawRule = z.output<typeof ruleSchema>;
export type RawMailbox = z.output<typeof mailboxSchema>;
export type RawMailAuth = z.output<typeof mailAuthSchema>;
export type RunOptions = z.output<typeof runOptionsSchema>;
export type RawNotify = z.output<typeof notifySchema>;
