// OAuth2 mailboxes against a real dovecot on loopback whose oauth2 passdb checks every access token at a
// local identity provider (test/helpers/oauth2-provider.ts): the intake logs in with a refreshed token and
// takes mail; after the token expired mid-run the next login gets a new one; a cached token the server
// refuses is replaced once; a revoked refresh token is reported once, marks the mailbox failing (status,
// /readyz) and is not sent again until `docdrop mail login` writes a new one; doctor logs in the same way.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { ServiceClient } from '../../src/api/client.js';
import { mailboxChecks } from '../../src/cli/doctor-remote-checks.js';
import { parseConfig, type DaemonConfig } from '../../src/daemon/config/config.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { startMailIntake, type MailIntake } from '../../src/daemon/intake/mail/imap-intake.js';
import { openLedger, type LedgerStore } from '../../src/daemon/ledger/open-ledger.js';
import { createLogger, silentLogger } from '../../src/shared/logger.js';
import { hasDovecot, startDovecot, type Dovecot } from '../helpers/dovecot.js';
import { startTestProvider, type TestProvider } from '../helpers/oauth2-provider.js';
import { startTestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, tempTree, waitFor, type TempTree } from '../daemon/pipeline-fixtures.js';

const skip = !hasDovecot && 'dovecot not installed (apt-get install dovecot-imapd) or not root';
const USER = 'ap@test';
const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function mail(subject: string): Promise<Buffer> {
  return new MailComposer({ from: 'vendor@example.com', to: USER, subject, text: 'see attached', attachments: [{ filename: `${subject}.png`, content: PNG_1PX }] }).compile().build();
}

function captureLog(): { logger: ReturnType<typeof createLogger>; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', format: 'json', destination: new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }) });
  return { logger, lines };
}

describe('OAuth2 mailboxes against dovecot', { skip }, () => {
  let imap: Dovecot;
  let provider: TestProvider;
  let tree: TempTree;
  let ledger: LedgerStore;
  const intakes: MailIntake[] = [];
  before(async () => {
    provider = await startTestProvider({ user: USER, clientId: 'cid' });
    imap = await startDovecot({ [USER]: 'unused-password' }, { oauth2: { introspectionUrl: provider.introspectionUrl } });
    tree = await tempTree('docdrop-oauth2-imap-');
    ledger = await openLedger({ path: join(tree.root, 'state.db'), synchronous: 'normal' });
  });
  after(async () => {
    await Promise.all(intakes.map((i) => i.stop()));
    await ledger?.close();
    await imap?.stop();
    await provider?.stop();
    await tree?.cleanup();
  });

  async function configFor(name: string): Promise<DaemonConfig> {
    const tokenFile = join(tree.root, `${name}.refresh-token`);
    await writeFile(tokenFile, `${provider.issueRefreshToken()}\n`, { mode: 0o600 });
    return parseConfig(
      JSON.stringify({
        rules: [{ name, watch: `inbox/${name}`, workflow: 'Invoices' }],
        mailboxes: [{
          name, host: imap.host, port: imap.port, tls: false, insecure_plaintext: true, user: USER, rule: name, poll_s: 0.2,
          auth: { type: 'oauth2', token_url: provider.tokenUrl, client_id: 'cid', refresh_token_file: tokenFile, scope: 'imap offline_access' },
        }],
      }),
      { baseDir: tree.root },
    );
  }

  function start(config: DaemonConfig, logger = silentLogger): MailIntake {
    const intake = startMailIntake({ mailbox: config.mailboxes[0]!, rule: config.rules[0]!, ledger, workDir: join(tree.root, 'mail'), logger, reconnectMinMs: 50 });
    intakes.push(intake);
    return intake;
  }

  const dropped = async (config: DaemonConfig) => (await readdir(config.rules[0]!.watch).catch(() => [] as string[])).filter((f) => !f.startsWith('.'));

  test('logs in with an access token from the refresh token, takes mail, and asks again after the token expired mid-run', async () => {
    // A token of 2 s: long enough for a login, short enough to expire mid-run.
    provider.expiresIn = 2;
    const config = await configFor('expiry');
    await imap.append(USER, await mail('first'));
    const before = provider.tokenRequests.length;
    const intake = start(config);
    await waitFor('the first message taken', async () => (await dropped(config)).length === 1);
    assert.deepEqual(intake.status(), { loggedIn: true });
    const first = provider.issued.at(-1)!.accessToken;
    assert.deepEqual(provider.tokenRequests.slice(before).map((r) => r.grant), ['refresh_token']);

    // The session outlives its token (the server checked it at login); the next login needs a new one.
    await waitFor('the first access token to expire at the provider', async () => provider.introspections.some((i) => i.token === first) && Date.now() > provider.expiryOf(first));
    await imap.kick(USER);
    await imap.append(USER, await mail('second'));
    await waitFor('the second message taken after a new login', async () => (await dropped(config)).length === 2);
    const second = provider.issued.at(-1)!.accessToken;
    assert.notEqual(second, first);
    assert.deepEqual(provider.tokenRequests.slice(before).map((r) => r.grant), ['refresh_token', 'refresh_token']);
    assert.ok(!provider.introspections.some((i) => !i.active), 'no expired token was offered to the server');
    await intake.stop();
    provider.expiresIn = 3600;
  });

  test('a cached token the server refuses is replaced once by a new one', async () => {
    const config = await configFor('refused');
    const intake = start(config);
    await waitFor('logged in', async () => intake.status().loggedIn);
    const cached = provider.issued.at(-1)!.accessToken;
    provider.revokeAccessTokens();
    await imap.kick(USER);
    await imap.append(USER, await mail('after-kick'));
    await waitFor('the message taken after the new login', async () => (await dropped(config)).length === 1);
    const refusedThenNew = provider.introspections.slice(provider.introspections.findIndex((i) => i.token === cached && !i.active));
    assert.deepEqual(refusedThenNew.map((i) => i.active), [false, true], 'one refusal, then a fresh token accepted');
    await intake.stop();
  });

  test('a revoked refresh token is reported once and the mailbox fails until a new one is stored', async () => {
    const config = await configFor('revoked');
    const { logger, lines } = captureLog();
    const intake = start(config, logger);
    await waitFor('logged in', async () => intake.status().loggedIn);
    const refusedBefore = provider.tokenRequests.filter((r) => r.error).length;
    provider.revokeAll();
    await imap.kick(USER);
    const retries = () => lines.filter((l) => l.includes('mailbox unavailable; retrying')).length;
    await waitFor('three failed reconnects', async () => retries() >= 3);
    const status = intake.status();
    assert.ok(!status.loggedIn && status.authentication, JSON.stringify(status));
    assert.match(status.reason, /refused: invalid_grant .*run `docdrop mail login revoked`/);
    assert.equal(provider.tokenRequests.filter((r) => r.error).length - refusedBefore, 1, 'the revoked refresh token was sent once');
    assert.equal(lines.filter((l) => l.includes('mailbox login refused')).length, 1, 'and reported once');

    const checks = await mailboxChecks(config);
    assert.equal(checks[0]!.status, 'fail');
    assert.match(checks[0]!.detail, /no access token: .*invalid_grant/);

    // `docdrop mail login` writes a new refresh token: the next reconnect uses it.
    await writeFile(config.mailboxes[0]!.auth?.type === 'oauth2' ? config.mailboxes[0]!.auth.refresh_token_file! : '', provider.issueRefreshToken());
    await intake.checkNow().catch(() => undefined);
    await waitFor('logged in again', async () => intake.status().loggedIn, 90_000);
    assert.ok(!lines.join('').includes(provider.issued.at(-1)!.accessToken), 'tokens are never logged');
    await intake.stop();
  });

  test('doctor logs an OAuth2 mailbox in with its token', async () => {
    const config = await configFor('doctor');
    const [check] = await mailboxChecks(config);
    assert.equal(check!.status, 'pass', check!.detail);
    assert.match(check!.detail, /ap@test@127\.0\.0\.1:\d+ logs in \(no TLS: insecure_plaintext, OAuth2 refresh token\)/);
  });

  test('/readyz names the mailbox whose refresh token was revoked', { timeout: 120_000 }, async (t) => {
    const svc = await startTestService();
    t.after(() => svc.close());
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
    const root = join(tree.root, 'daemon');
    await mkdir(join(root, 'inbox', 'invoices'), { recursive: true });
    const tokenFile = join(root, 'ap.refresh-token');
    await writeFile(tokenFile, 'rt-revoked-long-ago\n');
    const yaml =
      configYaml({ root, baseUrl: svc.url, apiKey: svc.keys[0]! }) +
      `health:\n  listen: "127.0.0.1:0"\nmailboxes:\n  - { name: ap, host: ${imap.host}, port: ${imap.port}, tls: false, insecure_plaintext: true, user: ${USER}, rule: invoices, ` +
      `auth: { type: oauth2, token_url: "${provider.tokenUrl}", client_id: cid, refresh_token_file: ${tokenFile} } }\n`;
    const daemon = await startDaemon(parseConfig(yaml, { baseDir: root }), { logger: silentLogger });
    try {
      const body = await waitFor('/readyz to name the mailbox', async () => {
        const res = await fetch(`${daemon.healthUrl}/readyz`);
        const b = (await res.json()) as { checks: Record<string, string>; failed: string[] };
        return res.status === 503 && b.checks['mailbox:ap']?.includes('invalid_grant') ? b : undefined;
      });
      assert.match(body.checks['mailbox:ap']!, /^failed: .*invalid_grant.*docdrop mail login ap/);
    } finally {
      await daemon.stop();
    }
  });
});
