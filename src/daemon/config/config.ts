// Reads the daemon's YAML config once at start: ${ENV} interpolation, zod validation, the cross-field rules
// the service and the file flow depend on, then paths made absolute and the whole object frozen. Every
// problem found is reported at once, each as `key.path: what was expected, what was received`.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { redactUrl } from '../../shared/redact-url.js';
import { interpolateTree, MissingEnvError } from './env-vars.js';
import { checkUniqueDefinitions } from './definitions-schema.js';
import { providerPreset, type OAuth2Provider } from './oauth2-providers.js';
import {
  configSchema,
  DEFAULT_MICROSOFT_TENANT,
  INPUT_PLACEHOLDERS,
  OCR_ONLY_MODELS,
  OCR_ONLY_OPTIONS,
  OUTPUT_PLACEHOLDERS,
  type RawConfig,
  type RawMailAuth,
  type RawMailbox,
  type RawNotify,
  type RawRule,
  type RunOptions,
} from './schema.js';

export type { RunOptions };

type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** A rule with absolute paths (folder templates keep their {placeholders}). */
export type RuleConfig = DeepReadonly<
  RawRule & {
    /**
     * Fixed roots of this rule's output/processed/failed/duplicates folders (the part before the first
     * placeholder other than {rule}); intake never reports a file under one of them.
     */
    managed_dirs: string[];
  }
>;

/**
 * How a mailbox logs in, resolved: provider presets filled in, the grant chosen, the client secret read.
 * `refresh_token`: the token in refresh_token_file (read and rotated at run time, never here);
 * `client_credentials`: app-only, with the client secret and no refresh token.
 */
export type MailAuthConfig =
  | { type: 'password' }
  | {
      type: 'oauth2';
      grant: 'refresh_token' | 'client_credentials';
      provider?: OAuth2Provider;
      token_url: string;
      /** Where `docdrop mail login` asks for a device code; undefined when neither preset nor config names one. */
      device_authorization_url?: string;
      client_id: string;
      /** The secret. Never log it. */
      client_secret?: string;
      refresh_token_file?: string;
      scope?: string;
    };

/** An IMAP mailbox with its password (or client secret) read. Never log it: log describeConfig(config). */
export type MailboxConfig = DeepReadonly<
  Omit<RawMailbox, 'password' | 'password_file' | 'host' | 'user' | 'maildir' | 'auth'> & {
    host: string;
    user: string;
    password: string;
    auth: MailAuthConfig;
    maildir?: undefined;
  }
>;

/** The keys a Maildir mailbox takes; the IMAP ones are refused with maildir. */
const MAILDIR_KEYS = ['name', 'maildir', 'rule', 'poll_s', 'after', 'move_to', 'filter'] as const;

/** A local Maildir mailbox (`maildir` absolute); the IMAP keys are absent (typed so, to read them without narrowing). */
export type MaildirMailboxConfig = DeepReadonly<
  Pick<RawMailbox, (typeof MAILDIR_KEYS)[number]> & { maildir: string } & { [K in Exclude<keyof MailboxConfig, (typeof MAILDIR_KEYS)[number]>]?: undefined }
>;

/** Either kind of mailbox; `maildir !== undefined` tells which. */
export type AnyMailboxConfig = MailboxConfig | MaildirMailboxConfig;

/** Alerts by e-mail with the SMTP password read (from password_file too). Never log it: log describeConfig(config). */
export type NotifyConfig = DeepReadonly<
  Omit<RawNotify, 'smtp'> & { smtp: Omit<RawNotify['smtp'], 'password' | 'password_file'> & { password: string | undefined } }
>;

export type DaemonConfig = DeepReadonly<
  Omit<RawConfig, 'base_dir' | 'service' | 'rules' | 'mailboxes' | 'notify' | 'state'> & {
    /** Absolute folder every relative path was resolved against. */
    base_dir: string;
    service: Omit<RawConfig['service'], 'api_key' | 'api_key_file'> & {
      /** The secret. Never log it: log describeConfig(config) instead. */
      api_key: string;
      /**
       * Where the key came from; `generated` only for base_url: embedded without a configured key; `unread`
       * when loaded with `secrets: 'skip'` (api_key is then empty).
       */
      api_key_source: 'config' | 'file' | 'generated' | 'unread';
    };
    /**
     * The ledger: PostgreSQL at `url` when set, else the SQLite file at `path`. `path` is always absolute and
     * set (its default with a URL): its folder holds the daemon's local files (mail work folder, embedded key).
     * `url` may hold a password: log describeLedger(state) (ledger/open-ledger.ts) instead.
     */
    state: Omit<RawConfig['state'], 'path'> & { path: string };
    rules: RuleConfig[];
    mailboxes: AnyMailboxConfig[];
    /** Alerts by e-mail; absent when the config has no notify section. */
    notify?: NotifyConfig;
    /** Absolute paths intake must never report (managed folders of every rule, the state database, service data). */
    ignore_paths: string[];
  }
>;

export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`invalid configuration in ${source}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export interface ConfigLoadOptions {
  /**
   * `skip` for commands that only read the ledger (`status`, `retry`): the service key, mailbox and SMTP
   * passwords (`api_key`, `api_key_file`, `password`, `password_file`) and a mailbox's OAuth2 files
   * (`auth.client_secret_file`, `auth.refresh_token_file`) are neither expanded nor read, so
   * a `${CREDENTIALS_DIRECTORY}` that only exists inside the systemd unit does not stop them. They come
   * back empty. Default `read`.
   */
  secrets?: 'read' | 'skip';
}

export async function loadConfig(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
  loadOpts: ConfigLoadOptions = {},
): Promise<DaemonConfig> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(file, [`cannot read the config file: ${(err as Error).message}`]);
  }
  return parseConfig(text, { baseDir: dirname(file), env, source: file, ...loadOpts });
}

/**
 * Parses config text. `baseDir` is the folder of the config file: relative paths (and `base_dir`) are
 * resolved against it.
 */
export function parseConfig(
  yamlText: string,
  opts: { baseDir: string; env?: NodeJS.ProcessEnv; source?: string } & ConfigLoadOptions,
): DaemonConfig {
  const source = opts.source ?? 'config';
  const readSecrets = opts.secrets !== 'skip';
  let tree: unknown;
  try {
    tree = parseYaml(yamlText);
  } catch (err) {
    throw new ConfigError(source, [`not valid YAML: ${(err as Error).message}`]);
  }
  try {
    tree = interpolateTree(readSecrets ? (tree ?? {}) : withoutSecrets(tree ?? {}), opts.env ?? process.env);
  } catch (err) {
    if (err instanceof MissingEnvError) throw new ConfigError(source, [err.message]);
    throw err;
  }
  const parsed = configSchema.safeParse(tree, { reportInput: true });
  if (!parsed.success) throw new ConfigError(source, parsed.error.issues.map(formatIssue));

  const problems: string[] = [];
  const raw = parsed.data;
  const baseDir = raw.base_dir ? absolutePath(raw.base_dir, opts.baseDir) : resolve(opts.baseDir);
  const rules = raw.rules.map((r, i) => resolveRule(r, i, baseDir, problems));
  checkUniqueNames(raw.rules, 'rules', problems);
  checkManagedOutsideWatch(rules, problems);
  const service = resolveService(raw.service, baseDir, readSecrets, problems);
  const written = (i: number) => keysWritten(isMapping(tree) && Array.isArray(tree.mailboxes) ? tree.mailboxes[i] : undefined);
  const mailboxes = raw.mailboxes.map((m, i) =>
    m.maildir !== undefined || m.host === undefined
      ? resolveMaildir(m, `mailboxes[${i}]`, written(i), raw.rules, baseDir, problems)
      : resolveMailbox(m, `mailboxes[${i}]`, raw.rules, baseDir, readSecrets, problems),
  );
  checkUniqueNames(raw.mailboxes, 'mailboxes', problems);
  checkUniqueDefinitions(raw, problems);
  const notify = raw.notify && resolveNotify(raw.notify, baseDir, readSecrets, problems);
  checkRuleNotify(raw.rules, raw.notify !== undefined, problems);
  const { initial_s, max_s } = raw.service.polling;
  if (initial_s > max_s) problems.push(`service.polling.initial_s: expected at most max_s (${max_s}), got ${initial_s}`);

  const state = resolveState(raw.state, baseDir, problems);
  if (problems.length > 0) throw new ConfigError(source, problems);
  const config = {
    ...raw,
    base_dir: baseDir,
    service: { ...service, embedded: { ...service.embedded, data_dir: absolutePath(service.embedded.data_dir, baseDir) } },
    state,
    rules,
    mailboxes,
    ...(notify ? { notify } : {}),
    ignore_paths: [
      ...new Set([
        ...rules.flatMap((r) => r.managed_dirs),
        ...(state.url === undefined ? ['', '-wal', '-shm', '-journal'].map((s) => state.path + s) : []),
        absolutePath(service.embedded.data_dir, baseDir),
      ]),
    ],
  };
  return deepFreeze(config) as DaemonConfig;
}

const DEFAULT_STATE_PATH = './var/state.db';

/**
 * `path` (a SQLite file) or `url` (PostgreSQL), not both. With a URL, `path` keeps its default: its folder
 * still holds the daemon's local files (mail work folder, the embedded service's key), never a ledger.
 */
function resolveState(state: RawConfig['state'], baseDir: string, problems: string[]) {
  const { url, path, ...rest } = state;
  if (url !== undefined && path !== undefined) {
    problems.push('state: set path (a SQLite file) or url (a PostgreSQL database), not both');
  }
  if (url !== undefined && !/^postgres(ql)?:\/\/./.test(url)) {
    problems.push(`state.url: expected a postgres:// or postgresql:// URL, got "${redactUrl(url)}"`);
  }
  return { ...rest, path: absolutePath(path ?? DEFAULT_STATE_PATH, baseDir), ...(url !== undefined ? { url } : {}) };
}

/** The config as it may be logged or printed: the API key, mailbox and SMTP passwords and credentials in base_url redacted. */
export function describeConfig(config: DaemonConfig): Record<string, unknown> {
  const copy = structuredClone(config) as unknown as {
    service: Record<string, unknown>;
    mailboxes: Record<string, unknown>[];
    notify?: { smtp: Record<string, unknown> };
  };
  copy.service.api_key = '[redacted]';
  copy.service.base_url = redactUrl(config.service.base_url);
  if (config.state.url !== undefined) (copy as unknown as { state: { url: string } }).state.url = redactUrl(config.state.url);
  for (const m of copy.mailboxes) {
    if ('password' in m) m.password = '[redacted]';
    const auth = m.auth as { client_secret?: string } | undefined;
    if (auth?.client_secret !== undefined) auth.client_secret = '[redacted]';
  }
  if (copy.notify?.smtp.password !== undefined) copy.notify.smtp.password = '[redacted]';
  return copy as unknown as Record<string, unknown>;
}

function resolveRule(rule: RawRule, i: number, baseDir: string, problems: string[]) {
  const at = `rules[${i}]`;
  if ((rule.workflow === undefined) === (rule.classifier === undefined)) {
    problems.push(
      `${at}: expected exactly one of "workflow" (title or template_id) and "classifier" (name or id), got ` +
        (rule.workflow === undefined ? 'neither' : 'both'),
    );
  }
  checkRunOptions(rule.options, `${at}.options`, problems);
  if (rule.output.layout === 'line_items' && !rule.output.merge_field) {
    problems.push(`${at}.output.merge_field: layout line_items needs the table field whose rows become output rows`);
  }
  const folder = (key: string, value: string, allowed: readonly string[]) => {
    checkPlaceholders(`${at}.${key}`, value, allowed, problems);
    return absolutePath(value, baseDir);
  };
  const output = { ...rule.output, dir: folder('output.dir', rule.output.dir, OUTPUT_PLACEHOLDERS) };
  const after = {
    ...rule.after,
    processed_dir: folder('after.processed_dir', rule.after.processed_dir, INPUT_PLACEHOLDERS),
    failed_dir: folder('after.failed_dir', rule.after.failed_dir, INPUT_PLACEHOLDERS),
    duplicates_dir: folder('after.duplicates_dir', rule.after.duplicates_dir, INPUT_PLACEHOLDERS),
  };
  const managed = [output.dir, after.failed_dir, after.duplicates_dir];
  if (after.success === 'move') managed.push(after.processed_dir);
  return {
    ...rule,
    watch: absolutePath(rule.watch, baseDir),
    output,
    after,
    managed_dirs: [...new Set(managed.map((t) => staticRoot(t, rule.name)))],
  };
}

/** The service rejects these combinations (interface.md, run_parser `use_ocr`); better to stop at start. */
function checkRunOptions(options: RunOptions, at: string, problems: string[]): void {
  if (options.use_ocr === true) return;
  for (const key of OCR_ONLY_OPTIONS) {
    if (options[key] !== undefined) {
      problems.push(`${at}.${key}: requires use_ocr: true in the same options (the service rejects ${key} without OCR)`);
    }
  }
  if (options.query_model !== undefined && (OCR_ONLY_MODELS as readonly string[]).includes(options.query_model)) {
    problems.push(`${at}.query_model: "${options.query_model}" requires use_ocr: true in the same options`);
  }
}

function checkPlaceholders(at: string, value: string, allowed: readonly string[], problems: string[]): void {
  for (const m of value.matchAll(/\{([^}]*)\}/g)) {
    if (!allowed.includes(m[1])) {
      problems.push(`${at}: unknown placeholder {${m[1]}}; expected one of ${allowed.map((a) => `{${a}}`).join(' ')}`);
    }
  }
}

function checkUniqueNames(items: readonly { name: string }[], key: string, problems: string[]): void {
  const seen = new Map<string, number>();
  items.forEach((r, i) => {
    const first = seen.get(r.name);
    if (first !== undefined) problems.push(`${key}[${i}].name: "${r.name}" is already the name of ${key}[${first}]; names must be unique`);
    else seen.set(r.name, i);
  });
}

/** The parsed YAML without the secret keys (see ConfigLoadOptions.secrets); other keys as written. */
function withoutSecrets(tree: unknown): unknown {
  if (!isMapping(tree)) return tree;
  const drop = (node: unknown, keys: string[]) =>
    isMapping(node) ? Object.fromEntries(Object.entries(node).filter(([k]) => !keys.includes(k))) : node;
  return {
    ...tree,
    ...(isMapping(tree.service) ? { service: drop(tree.service, ['api_key', 'api_key_file']) } : {}),
    ...(Array.isArray(tree.mailboxes)
      ? {
          mailboxes: tree.mailboxes.map((m) => {
            const rest = drop(m, ['password', 'password_file']);
            return isMapping(rest) && isMapping(rest.auth) ? { ...rest, auth: drop(rest.auth, ['client_secret_file', 'refresh_token_file']) } : rest;
          }),
        }
      : {}),
    ...(isMapping(tree.notify) ? { notify: { ...tree.notify, smtp: drop(tree.notify.smtp, ['password', 'password_file']) } } : {}),
  };
}

const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const keysWritten = (node: unknown): string[] => (isMapping(node) ? Object.keys(node) : []);

/** A mailbox with maildir (or neither host nor maildir: reported here). `written`: its keys as in the YAML. */
function resolveMaildir(
  mailbox: RawMailbox,
  at: string,
  written: readonly string[],
  rules: readonly RawRule[],
  baseDir: string,
  problems: string[],
): MaildirMailboxConfig {
  const { maildir, name, rule, poll_s, after, move_to, filter } = mailbox;
  if (maildir === undefined) problems.push(`${at}: expected host (an IMAP server) or maildir (a local Maildir folder), got neither`);
  for (const key of written) {
    if (key === 'host') problems.push(`${at}.host: expected either host or maildir, got both`);
    else if (!(MAILDIR_KEYS as readonly string[]).includes(key)) problems.push(`${at}.${key}: only used with host (IMAP), not with maildir`);
  }
  checkMailboxRule(mailbox, at, rules, problems);
  // Maildir++: a subfolder is the directory ".<name>" beside new/ cur/ tmp/, nested ones "<a>.<b>".
  if (move_to !== undefined && !/^[^./][^/\0]*$/.test(move_to)) {
    problems.push(`${at}.move_to: expected a Maildir++ folder name without "/" and not starting with "." (nested: "Archive.Invoices"), got "${move_to}"`);
  }
  return { name, maildir: absolutePath(maildir ?? '.', baseDir), rule, poll_s, after, filter, ...(move_to !== undefined ? { move_to } : {}) };
}

/** The rule exists; move_to given exactly with after: move. */
function checkMailboxRule(mailbox: RawMailbox, at: string, rules: readonly RawRule[], problems: string[]): void {
  if (!rules.some((r) => r.name === mailbox.rule)) {
    problems.push(`${at}.rule: no rule is named "${mailbox.rule}"; expected one of ${rules.map((r) => `"${r.name}"`).join(', ')}`);
  }
  const where = mailbox.maildir === undefined ? 'the IMAP folder' : 'the Maildir++ folder';
  if (mailbox.after === 'move' && !mailbox.move_to) problems.push(`${at}.move_to: required with after: move (${where} to move messages to)`);
  if (mailbox.after !== 'move' && mailbox.move_to) problems.push(`${at}.move_to: only used with after: move, but after is ${mailbox.after}`);
}

function resolveMailbox(
  mailbox: RawMailbox,
  at: string,
  rules: readonly RawRule[],
  baseDir: string,
  readSecrets: boolean,
  problems: string[],
): MailboxConfig {
  const { password, password_file, maildir: _none, host, user, auth: rawAuth, ...rest } = mailbox;
  checkMailboxRule(mailbox, at, rules, problems);
  if (user === undefined) problems.push(`${at}.user: required with host (the login name)`);
  if (mailbox.tls && mailbox.insecure_plaintext) problems.push(`${at}.insecure_plaintext: only used with tls: false, but tls is true`);
  const caFile = mailbox.tls_ca_file === undefined ? undefined : absolutePath(mailbox.tls_ca_file, baseDir);
  if (caFile !== undefined) checkCaFile(caFile, `${at}.tls_ca_file`, problems);
  const auth = resolveMailAuth(rawAuth, `${at}.auth`, mailbox.name, baseDir, readSecrets, problems);
  if (auth.type === 'oauth2' && (password !== undefined || password_file !== undefined)) {
    problems.push(`${at}.${password !== undefined ? 'password' : 'password_file'}: not used with auth.type: oauth2 (the login is an access token); remove it`);
  }
  const imap = { ...rest, host: host!, user: user ?? '', tls_ca_file: caFile, auth };
  if (!readSecrets || auth.type === 'oauth2') return { ...imap, password: '' };
  const secret = readSecret(password, password_file, `${at}.password`, baseDir, problems);
  if (secret === undefined) problems.push(`${at}.password: required (write password: \${IMAP_PASSWORD} or password_file: PATH, or use auth.type: oauth2)`);
  return { ...imap, password: secret?.value ?? '' };
}

const OAUTH2_KEYS = ['provider', 'tenant', 'token_url', 'device_authorization_url', 'client_id', 'client_secret_file', 'refresh_token_file', 'scope'] as const;

/**
 * oauth2: a provider preset fills what is not written; refresh_token_file selects the refresh-token grant,
 * a client_secret_file without it the client-credentials grant (app-only access, e.g. shared mailboxes).
 */
function resolveMailAuth(raw: RawMailAuth, at: string, mailboxName: string, baseDir: string, readSecrets: boolean, problems: string[]): MailAuthConfig {
  if (raw.type === 'password') {
    for (const key of OAUTH2_KEYS) if (raw[key] !== undefined) problems.push(`${at}.${key}: only used with type: oauth2, but type is password`);
    return { type: 'password' };
  }
  if (raw.tenant !== undefined && raw.provider !== 'microsoft365') {
    problems.push(`${at}.tenant: only used with provider: microsoft365, got provider ${raw.provider ?? '(none)'}`);
  }
  const preset = raw.provider ? providerPreset(raw.provider, raw.tenant ?? DEFAULT_MICROSOFT_TENANT) : undefined;
  if (raw.client_id === undefined) problems.push(`${at}.client_id: required with type: oauth2 (the application (client) id of your app registration)`);
  const token_url = raw.token_url ?? preset?.token_url;
  if (token_url === undefined) problems.push(`${at}.token_url: required with type: oauth2 unless provider is set (microsoft365 or google)`);
  // status and retry load the config without the secret keys (withoutSecrets): the grant cannot be told then.
  const grant = raw.refresh_token_file !== undefined || !readSecrets ? 'refresh_token' : raw.client_secret_file !== undefined ? 'client_credentials' : undefined;
  if (grant === undefined) {
    problems.push(
      `${at}.refresh_token_file: required with type: oauth2 (where \`docdrop mail login ${mailboxName}\` stores the refresh token); ` +
        'or, for app-only access (client-credentials grant), client_secret_file without refresh_token_file',
    );
  }
  if (grant === 'client_credentials' && raw.provider === 'google') {
    problems.push(`${at}.refresh_token_file: required with provider google: Google has no client-credentials grant for IMAP`);
  }
  const secret = readSecrets ? readSecret(undefined, raw.client_secret_file, `${at}.client_secret`, baseDir, problems) : undefined;
  const device = raw.device_authorization_url ?? preset?.device_authorization_url;
  const scope = raw.scope ?? (grant === 'client_credentials' ? preset?.app_scope : preset?.scope);
  return {
    type: 'oauth2',
    grant: grant ?? 'refresh_token',
    ...(raw.provider ? { provider: raw.provider } : {}),
    token_url: token_url ?? '',
    ...(device ? { device_authorization_url: device } : {}),
    client_id: raw.client_id ?? '',
    ...(secret ? { client_secret: secret.value } : {}),
    ...(raw.refresh_token_file !== undefined ? { refresh_token_file: absolutePath(raw.refresh_token_file, baseDir) } : {}),
    ...(scope ? { scope } : {}),
  };
}

function resolveNotify(notify: RawNotify, baseDir: string, readSecrets: boolean, problems: string[]): NotifyConfig {
  const { password, password_file, ...smtp } = notify.smtp;
  const at = 'notify.smtp';
  if (smtp.secure && smtp.insecure_plaintext) problems.push(`${at}.insecure_plaintext: only used with secure: false, but secure is true`);
  const secret = readSecrets ? readSecret(password, password_file, `${at}.password`, baseDir, problems) : undefined;
  if (readSecrets && smtp.user !== undefined && secret === undefined) {
    problems.push(`${at}.password: required with user (write password: \${SMTP_PASSWORD} or password_file: PATH)`);
  }
  if (smtp.user === undefined && (password !== undefined || password_file !== undefined)) {
    problems.push(`${at}.user: required with a password (the login name)`);
  }
  const caFile = smtp.tls_ca_file === undefined ? undefined : absolutePath(smtp.tls_ca_file, baseDir);
  if (caFile !== undefined) checkCaFile(caFile, `${at}.tls_ca_file`, problems);
  return { ...notify, smtp: { ...smtp, tls_ca_file: caFile, password: secret?.value } };
}

/** rules[].notify mails through the top-level notify section; attached outputs must be whole files. */
function checkRuleNotify(rules: readonly RawRule[], hasNotify: boolean, problems: string[]): void {
  rules.forEach((r, i) => {
    if (!r.notify) return;
    if (!hasNotify) problems.push(`rules[${i}].notify: needs the top-level notify section (its smtp server and from address send these mails)`);
    if (r.notify.attach_output && r.output.group !== 'per_document') {
      problems.push(`rules[${i}].notify.attach_output: needs output.group: per_document, got ${r.output.group} (a daily file grows all day)`);
    }
  });
}

/** An inline secret or one read from a file (`<key>_file`), trimmed; problems for both set, an unreadable or empty file. */
function readSecret(
  inline: string | undefined,
  file: string | undefined,
  key: string,
  baseDir: string,
  problems: string[],
): { value: string; source: 'config' | 'file' } | undefined {
  const value = inline !== undefined && inline.trim() !== '' ? inline.trim() : undefined;
  if (value !== undefined && file !== undefined) {
    const dot = key.lastIndexOf('.');
    problems.push(`${key.slice(0, dot)}: set ${key.slice(dot + 1)} or ${key.slice(dot + 1)}_file, not both`);
    return { value, source: 'config' };
  }
  if (value !== undefined) return { value, source: 'config' };
  if (file === undefined) return undefined;
  const path = absolutePath(file, baseDir);
  try {
    const read = readFileSync(path, 'utf8').trim();
    if (read === '') problems.push(`${key}_file: ${path} is empty`);
    return { value: read, source: 'file' };
  } catch (err) {
    problems.push(`${key}_file: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return { value: '', source: 'file' };
  }
}

function checkCaFile(caFile: string, key: string, problems: string[]): void {
  try {
    if (!readFileSync(caFile, 'utf8').includes('-----BEGIN CERTIFICATE-----')) problems.push(`${key}: ${caFile} holds no PEM certificate`);
  } catch (err) {
    problems.push(`${key}: cannot read ${caFile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/**
 * Managed folders inside a watched tree are fine (intake skips them), but one that is a watched folder or
 * holds one would make intake skip the whole inbox.
 */
function checkManagedOutsideWatch(rules: ReturnType<typeof resolveRule>[], problems: string[]): void {
  rules.forEach((owner, i) => {
    for (const dir of owner.managed_dirs) {
      for (const r of rules) {
        if (isInside(r.watch, dir)) {
          problems.push(
            `rules[${i}]: the managed folder ${dir} (output, processed, failed or duplicates, up to its first ` +
              `placeholder) is or contains the watched folder ${r.watch} of rule "${r.name}"; give it a fixed ` +
              `subfolder of its own`,
          );
        }
      }
    }
  });
}

function resolveService(service: RawConfig['service'], baseDir: string, readSecrets: boolean, problems: string[]) {
  const { api_key, api_key_file, ...rest } = service;
  if (!readSecrets) return { ...rest, api_key: '', api_key_source: 'unread' as const };
  const secret = readSecret(api_key, api_key_file, 'service.api_key', baseDir, problems);
  if (secret) return { ...rest, api_key: secret.value, api_key_source: secret.source };
  if (service.base_url === 'embedded') {
    // The embedded service lives and dies with this process, so a fresh random key per start is enough.
    return { ...rest, api_key: randomBytes(24).toString('base64url'), api_key_source: 'generated' as const };
  }
  problems.push(`service.api_key: required for base_url ${service.base_url} (write api_key: \${DOCDROP_API_KEY} or api_key_file: PATH)`);
  return { ...rest, api_key: '', api_key_source: 'config' as const };
}

/** The fixed part of a folder template: {rule} filled in, cut before the first segment with another placeholder. */
export function staticRoot(template: string, ruleName: string): string {
  const filled = template.replaceAll('{rule}', ruleName);
  const cut = filled.indexOf('{');
  if (cut < 0) return filled;
  const slash = filled.lastIndexOf(sep, cut);
  return filled.slice(0, Math.max(slash, 1));
}

function absolutePath(p: string, baseDir: string): string {
  if (p === '~' || p.startsWith('~/')) return resolve(homedir(), p.slice(2));
  return isAbsolute(p) ? resolve(p) : resolve(baseDir, p);
}

function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

export function formatIssue(issue: z.core.$ZodIssue): string {
  const path = formatPath(issue.path);
  const at = path ? `${path}: ` : '';
  // Never echo a secret back, even a mistyped one.
  const secret = /api_key|password|client_secret/.test(path);
  // A refinement reported on a child path carries the parent as input: naming "a list" there would mislead.
  const aboutParent = issue.code === 'custom' && typeof issue.input === 'object' && issue.input !== null;
  const got = 'input' in issue && !aboutParent ? (secret ? 'a value of the wrong kind' : describeValue(issue.input)) : undefined;
  switch (issue.code) {
    case 'invalid_value':
      return `${at}expected one of ${issue.values.map(String).join(', ')}, got ${got}`;
    case 'invalid_type':
      return issue.input === undefined
        ? `${at}required (expected ${issue.expected})`
        : `${at}expected ${issue.expected}, got ${got}`;
    case 'unrecognized_keys':
      return `${at}unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')} (check the spelling)`;
    default:
      return `${at}${issue.message}${got !== undefined ? `, got ${got}` : ''}`;
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)),
    '',
  );
}

function describeValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${String(v)}`;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
