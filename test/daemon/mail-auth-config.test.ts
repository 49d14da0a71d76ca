// mailboxes[].auth: password by default; oauth2 with provider presets (token URL, device endpoint, scope),
// the grant chosen by the keys written (refresh_token_file, or client_secret_file alone: app-only), each
// mistake named by its key path, the client secret read from its file and never shown, and the OAuth2
// files left alone by commands that read no secret.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeConfig, loadConfig, parseConfig } from '../../src/daemon/config/config.js';
import { BASE, problems } from './config-problems.js';

const RULE = 'rules:\n  - { name: invoices, watch: ./in, workflow: Invoices }\n';
const mailbox = (auth: string, extra = '') => `${RULE}mailboxes:\n  - name: ap\n    host: outlook.office365.com\n    user: ap@example.com\n    rule: invoices\n${extra}    auth: ${auth}\n`;

test('a mailbox logs in with its password unless auth says oauth2', () => {
  const c = parseConfig(`${RULE}mailboxes:\n  - { name: ap, host: h, user: u, password: pw, rule: invoices }\n`, { baseDir: BASE, env: {} });
  assert.deepEqual(c.mailboxes[0]!.auth, { type: 'password' });
  assert.equal(c.mailboxes[0]!.password, 'pw');
});

test('provider microsoft365 fills token URL, device endpoint and the delegated scope, with the tenant (default "organizations")', () => {
  const c = parseConfig(mailbox('{ type: oauth2, provider: microsoft365, client_id: cid, refresh_token_file: ap.rt }'), { baseDir: BASE, env: {} });
  assert.deepEqual(c.mailboxes[0]!.auth, {
    type: 'oauth2',
    grant: 'refresh_token',
    provider: 'microsoft365',
    token_url: 'https://login.microsoftonline.com/organizations/oauth2/v2.0/token',
    device_authorization_url: 'https://login.microsoftonline.com/organizations/oauth2/v2.0/devicecode',
    client_id: 'cid',
    refresh_token_file: `${BASE}/ap.rt`,
    scope: 'https://outlook.office365.com/IMAP.AccessAsUser.All offline_access',
  });
  assert.equal(c.mailboxes[0]!.password, '');
  const tenant = parseConfig(mailbox('{ type: oauth2, provider: microsoft365, tenant: contoso.onmicrosoft.com, client_id: cid, refresh_token_file: ap.rt }'), { baseDir: BASE, env: {} });
  const auth = tenant.mailboxes[0]!.auth;
  assert.ok(auth?.type === 'oauth2' && auth.token_url === 'https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token');
});

test('provider google fills its endpoints and the Gmail scope; written keys override a preset', () => {
  const c = parseConfig(mailbox('{ type: oauth2, provider: google, client_id: cid, refresh_token_file: /var/lib/docdrop/ap.rt, scope: "https://mail.google.com/ openid" }'), { baseDir: BASE, env: {} });
  const auth = c.mailboxes[0]!.auth;
  assert.ok(auth?.type === 'oauth2');
  assert.equal(auth.token_url, 'https://oauth2.googleapis.com/token');
  assert.equal(auth.device_authorization_url, 'https://oauth2.googleapis.com/device/code');
  assert.equal(auth.scope, 'https://mail.google.com/ openid');
});

test('client_secret_file without refresh_token_file selects the client-credentials grant (app-only) with the .default scope; the secret is read and redacted', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-mail-auth-'));
  try {
    await writeFile(join(dir, 'secret'), 'client-secret-Xy7\n');
    await writeFile(join(dir, 'd.yaml'), mailbox('{ type: oauth2, provider: microsoft365, tenant: contoso.com, client_id: cid, client_secret_file: secret }'));
    const c = await loadConfig(join(dir, 'd.yaml'), {});
    const auth = c.mailboxes[0]!.auth;
    assert.ok(auth?.type === 'oauth2');
    assert.equal(auth.grant, 'client_credentials');
    assert.equal(auth.client_secret, 'client-secret-Xy7');
    assert.equal(auth.scope, 'https://outlook.office365.com/.default');
    assert.ok(!JSON.stringify(describeConfig(c)).includes('client-secret-Xy7'), 'describeConfig redacts the client secret');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('each oauth2 mistake is named by its key path', () => {
  const at = (list: string[]) => (p: string) => assert.ok(list.some((g) => g.startsWith(p)), `${p}\n in:\n${list.join('\n')}`);
  // Wrong values stop at the schema, before the rules between keys.
  const schema = at(problems(`${RULE}mailboxes:\n  - { name: f, host: h, user: u, rule: invoices, auth: { type: oauth2, provider: yahoo, token_url: "ftp://x", client_id: c, refresh_token_file: f } }\n`));
  schema('mailboxes[0].auth.provider: expected one of microsoft365, google, got "yahoo"');
  schema('mailboxes[0].auth.token_url: expected an http(s):// URL');
  const cross = at(
    problems(
      `${RULE}mailboxes:\n` +
        '  - { name: a, host: h, user: u, rule: invoices, auth: { type: oauth2, provider: microsoft365 } }\n' +
        '  - { name: b, host: h, user: u, rule: invoices, auth: { type: oauth2, client_id: c, refresh_token_file: f } }\n' +
        '  - { name: c, host: h, user: u, rule: invoices, password: pw, auth: { type: oauth2, provider: google, tenant: t, client_id: c, refresh_token_file: f } }\n' +
        '  - { name: d, host: h, user: u, rule: invoices, password: pw, auth: { client_id: c } }\n' +
        '  - { name: e, host: h, user: u, rule: invoices, auth: { type: oauth2, provider: google, client_id: c, client_secret_file: /nonexistent/s } }\n',
    ),
  );
  cross('mailboxes[0].auth.client_id: required with type: oauth2');
  cross('mailboxes[0].auth.refresh_token_file: required with type: oauth2 (where `docdrop mail login a` stores the refresh token); or, for app-only access (client-credentials grant), client_secret_file without refresh_token_file');
  cross('mailboxes[1].auth.token_url: required with type: oauth2 unless provider is set');
  cross('mailboxes[2].auth.tenant: only used with provider: microsoft365, got provider google');
  cross('mailboxes[2].password: not used with auth.type: oauth2');
  cross('mailboxes[3].auth.client_id: only used with type: oauth2, but type is password');
  cross('mailboxes[4].auth.refresh_token_file: required with provider google: Google has no client-credentials grant for IMAP');
  cross('mailboxes[4].auth.client_secret_file: cannot read /nonexistent/s: ENOENT');
});

test("secrets: 'skip' (status, retry) neither expands nor reads the OAuth2 files", () => {
  const yaml = mailbox('{ type: oauth2, provider: microsoft365, client_id: cid, client_secret_file: "${CREDENTIALS_DIRECTORY}/secret", refresh_token_file: "${STATE}/ap.rt" }');
  const c = parseConfig(yaml, { baseDir: BASE, env: {}, secrets: 'skip' });
  const auth = c.mailboxes[0]!.auth;
  assert.ok(auth?.type === 'oauth2' && auth.client_secret === undefined && auth.refresh_token_file === undefined);
  assert.throws(() => parseConfig(yaml, { baseDir: BASE, env: {} }), /CREDENTIALS_DIRECTORY/);
});
