// The OAuth2 token source against a local identity provider: a token is reused until shortly before it
// expires (virtual clock), a rotated refresh token is on disk (mode 600) before the access token is handed
// out, a refusal is logged once and not sent again until the refresh token file changes, and app-only
// access uses the client-credentials grant.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTokenSource, type OAuth2Auth } from '../../src/daemon/intake/mail/oauth2-token.js';
import { MailLoginError } from '../../src/daemon/intake/mail/oauth2-endpoint.js';
import { createLogger, silentLogger } from '../../src/shared/logger.js';
import { startTestProvider, type TestProvider } from '../helpers/oauth2-provider.js';

async function setup(t: { after(fn: () => Promise<void>): void }, opts: Partial<Parameters<typeof startTestProvider>[0]> = {}) {
  const provider = await startTestProvider({ user: 'ap@test', clientId: 'cid', ...opts });
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-oauth2-'));
  t.after(async () => {
    await provider.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const file = join(dir, 'ap.refresh-token');
  const auth: OAuth2Auth = { type: 'oauth2', grant: 'refresh_token', token_url: provider.tokenUrl, client_id: 'cid', refresh_token_file: file, scope: 'imap offline_access' };
  return { provider, file, auth };
}

const refreshes = (p: TestProvider) => p.tokenRequests.filter((r) => r.grant === 'refresh_token');

test('reuses the access token until shortly before expires_in, then refreshes', async (t) => {
  const { provider, file, auth } = await setup(t, { expiresIn: 3600 });
  await writeFile(file, `${provider.issueRefreshToken()}\n`);
  let now = 1_000_000;
  const tokens = createTokenSource(auth, { mailbox: 'ap', log: silentLogger, now: () => now });
  const first = await tokens.get();
  assert.equal(first.fresh, true);
  now += 3540_000 - 1; // a minute early is the margin for an hour's token
  assert.deepEqual(await tokens.get(), { token: first.token, fresh: false });
  now += 1;
  const second = await tokens.get();
  assert.notEqual(second.token, first.token);
  assert.equal(refreshes(provider).length, 2);
});

test('after invalidate() the next get() asks for a new token', async (t) => {
  const { provider, file, auth } = await setup(t);
  await writeFile(file, provider.issueRefreshToken());
  const tokens = createTokenSource(auth, { mailbox: 'ap', log: silentLogger });
  const first = await tokens.get();
  tokens.invalidate(first.token);
  const second = await tokens.get();
  assert.equal(second.fresh, true);
  assert.notEqual(second.token, first.token);
});

test('a rotated refresh token is written (mode 600) before the access token issued with it is handed out', async (t) => {
  const { provider, file, auth } = await setup(t, { rotate: true });
  const original = provider.issueRefreshToken();
  await writeFile(file, `${original}\n`);
  const tokens = createTokenSource(auth, { mailbox: 'ap', log: silentLogger });
  const got = await tokens.get();
  const issued = provider.issued.at(-1)!;
  assert.equal(got.token, issued.accessToken);
  assert.equal((await readFile(file, 'utf8')).trim(), issued.refreshToken, 'the new refresh token is on disk when get() resolves');
  assert.equal((await stat(file)).mode & 0o777, 0o600);
  tokens.invalidate(got.token);
  await tokens.get();
  assert.deepEqual(refreshes(provider).map((r) => r.refreshToken), [original, issued.refreshToken], 'the next refresh sends the rotated token');
});

test('a refused refresh token is logged once, not sent again, and a new one in the file is used', async (t) => {
  const { provider, file, auth } = await setup(t);
  await writeFile(file, 'rt-revoked');
  const lines: string[] = [];
  const log = createLogger({ level: 'info', format: 'json', destination: new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }) });
  const tokens = createTokenSource(auth, { mailbox: 'ap', log });
  for (let i = 0; i < 3; i++) {
    await assert.rejects(tokens.get(), (err: MailLoginError) => {
      assert.equal(err.authenticationFailed, true);
      assert.equal(err.code, 'invalid_grant');
      assert.match(err.message, /refused: invalid_grant .*: run `docdrop mail login ap` for a new refresh token/);
      return true;
    });
  }
  assert.equal(provider.tokenRequests.length, 1, 'the refused token was sent once');
  assert.equal(lines.filter((l) => l.includes('mailbox login refused')).length, 1, 'and reported once');
  assert.ok(!lines.join('').includes('rt-revoked'), 'the refresh token is never logged');
  await writeFile(file, provider.issueRefreshToken());
  assert.equal((await tokens.get()).fresh, true);
});

test('a missing refresh token file says to run docdrop mail login', async (t) => {
  const { auth } = await setup(t);
  const tokens = createTokenSource(auth, { mailbox: 'ap', log: silentLogger });
  await assert.rejects(tokens.get(), /refresh token file .* does not exist yet: run `docdrop mail login ap`/);
});

test('client_secret without a refresh token: the client-credentials grant', async (t) => {
  const { provider, auth } = await setup(t, { clientSecret: 's3cret' });
  const appOnly: OAuth2Auth = { type: 'oauth2', grant: 'client_credentials', token_url: auth.token_url, client_id: 'cid', client_secret: 's3cret', scope: 'x/.default' };
  const got = await createTokenSource(appOnly, { mailbox: 'shared', log: silentLogger }).get();
  assert.equal(got.token, provider.issued[0]!.accessToken);
  assert.deepEqual(provider.tokenRequests, [{ grant: 'client_credentials' }]);
  const wrong = createTokenSource({ ...appOnly, client_secret: 'nope' }, { mailbox: 'shared', log: silentLogger });
  await assert.rejects(wrong.get(), /invalid_client.*check client_id and client_secret_file/);
});

test('an unreachable token endpoint is a transient failure, not a refusal', async (t) => {
  const { provider, file, auth } = await setup(t);
  await writeFile(file, provider.issueRefreshToken());
  await provider.stop();
  const tokens = createTokenSource(auth, { mailbox: 'ap', log: silentLogger });
  await assert.rejects(tokens.get(), (err: MailLoginError) => err.authenticationFailed === false && /cannot reach/.test(err.message));
});
