// `docdrop doctor`, the checks that talk to other machines: the service and its key, every rule's
// Workflow or Classifier, every mailbox's login. Secrets are used, never printed.
import { ApiError } from '../api/api-error.js';
import type { ServiceClient } from '../api/client.js';
import type { Classifier, Workflow } from '../api/types.js';
import type { DaemonConfig } from '../daemon/config/config.js';
import { describeImapError } from '../daemon/intake/mail/imap-connection.js';
import { mailboxConnector } from '../daemon/intake/mail/mailbox-login.js';
import { checkMaildir } from '../daemon/intake/mail/maildir-source.js';
import { MailLoginError } from '../daemon/intake/mail/oauth2-endpoint.js';
import { resolveTargets, TargetResolutionError } from '../daemon/pipeline/resolve-targets.js';
import { silentLogger } from '../shared/logger.js';
import { redactUrl } from '../shared/redact-url.js';
import type { Check } from './doctor-local-checks.js';

/** GET /v1/templates: the service answers and takes the key. */
export async function serviceCheck(client: ServiceClient, url: string): Promise<Check> {
  const name = 'service';
  try {
    const page = await client.listTemplates();
    return { status: 'pass', name, detail: `${redactUrl(url)} answers and accepts the key (${page.items.length}${page.pagination_key ? '+' : ''} Workflows)` };
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      return { status: 'fail', name, detail: `${redactUrl(url)} refuses the API key (HTTP ${err.status}): check service.api_key / api_key_file` };
    }
    const why = err instanceof ApiError && err.status > 0 ? `HTTP ${err.status} ${err.message}` : (err as Error).message;
    return { status: 'fail', name, detail: `${redactUrl(url)} cannot be reached or answers wrongly: ${why}` };
  }
}

/** The config's own `workflows:` and `classifiers:`: the daemon creates them at start, so a rule may name them before they exist. */
export function createdAtStart(config: DaemonConfig): { workflows: string[]; classifiers: string[] } {
  return { workflows: config.workflows.map((w) => w.title), classifiers: config.classifiers.map((c) => c.name) };
}

/** One check per rule: its workflow/classifier names an existing one (lists fetched once for all rules). */
export async function ruleTargetChecks(config: DaemonConfig, client: ServiceClient): Promise<Check[]> {
  let templates: Workflow[];
  let classifiers: Classifier[];
  try {
    templates = await collect(client.iterateTemplates());
    classifiers = config.rules.some((r) => r.classifier !== undefined) ? await collect(client.iterateClassifiers()) : [];
  } catch (err) {
    return [{ status: 'fail', name: 'rule targets', detail: `cannot list Workflows and Classifiers: ${(err as Error).message}` }];
  }
  const lookup = { iterateTemplates: () => iterate(templates), iterateClassifiers: () => iterate(classifiers) };
  const atStart = createdAtStart(config);
  const out: Check[] = [];
  for (const rule of config.rules) {
    const name = `rule ${rule.name}: ${rule.workflow !== undefined ? 'workflow' : 'classifier'}`;
    try {
      const t = (await resolveTargets([{ name: rule.name, workflow: rule.workflow, classifier: rule.classifier }], lookup)).get(rule.name)!;
      out.push({ status: 'pass', name, detail: t.kind === 'workflow' ? `"${t.title}" (${t.templateId})` : `"${t.name}" (${t.classifierId}), routes to ${t.workflows.size} Workflow(s)` });
    } catch (err) {
      if (!(err instanceof TargetResolutionError)) throw err;
      const created = rule.workflow !== undefined ? atStart.workflows.includes(rule.workflow) : atStart.classifiers.includes(rule.classifier!);
      out.push(created ? { status: 'pass', name, detail: `"${rule.workflow ?? rule.classifier}" is created when the daemon starts` } : { status: 'fail', name, detail: err.message });
    }
  }
  return out;
}

/**
 * Each IMAP mailbox logs in and out with its configured TLS settings and login (password or OAuth2 token),
 * within `timeoutMs`; each Maildir is there (no login: nothing of OAuth2 applies).
 */
export async function mailboxChecks(config: DaemonConfig, timeoutMs = 20_000): Promise<Check[]> {
  return Promise.all(
    config.mailboxes.map(async (mb): Promise<Check> => {
      const name = `mailbox ${mb.name}`;
      if (mb.maildir !== undefined) {
        return checkMaildir(mb.maildir).then(
          (): Check => ({ status: 'pass', name, detail: `Maildir ${mb.maildir} has new/ and cur/` }),
          (err: Error): Check => ({ status: 'fail', name, detail: err.message }),
        );
      }
      const where = `${mb.user}@${mb.host}:${mb.port}`;
      try {
        const c = await mailboxConnector(mb, silentLogger)(() => {}, AbortSignal.timeout(timeoutMs));
        await c.logout().catch(() => c.close());
        const how = mb.auth.type === 'oauth2' ? `, OAuth2 ${mb.auth.grant === 'client_credentials' ? 'app-only' : 'refresh token'}` : '';
        return { status: 'pass', name, detail: `${where} logs in (${c.secureConnection ? 'TLS' : 'no TLS: insecure_plaintext'}${how})` };
      } catch (err) {
        const e = describeImapError(err);
        if (err instanceof MailLoginError) return { status: 'fail', name, detail: `${where}: no access token: ${err.message}` };
        const wrong = mb.auth.type === 'oauth2' ? 'the access token is refused (check the scope and the user\'s mailbox permission)' : 'wrong user or password';
        if (e.authenticationFailed) return { status: 'fail', name, detail: `${where} refuses the login: ${wrong}${e.response ? ` (${String(e.response)})` : ''}` };
        return { status: 'fail', name, detail: `${where} cannot be reached: ${String(e.message ?? err)}${e.code ? ` (${String(e.code)})` : ''}` };
      }
    }),
  );
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function* iterate<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}
