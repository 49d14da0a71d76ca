// `docdrop mail login`: the device-code flow (RFC 8628) against a local identity provider. Polls honour
// authorization_pending and slow_down (interval + 5 s, on a recording clock), expired_token and
// access_denied end it with a clear message, and the refresh token lands in refresh_token_file (mode 600)
// without ever being printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deviceLogin } from '../../src/daemon/intake/mail/oauth2-device-login.js';
import type { OAuth2Auth } from '../../src/daemon/intake/mail/oauth2-token.js';
import type { Scheduler } from '../../src/shared/scheduler.js';
import { docdrop } from '../helpers/cli.js';
import { startTestProvider, type ProviderOptions } from '../helpers/oauth2-provider.js';

/** Virtual time that records each wait asked for and lets it pass at once. */
function recordingClock(): Scheduler & { waits: number[] } {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    schedule(ms, fn) {
      waits.push(ms);
      now += ms;
      setImmediate(fn);
      return () => undefined;
    },
  };
}

async function setup(t: { after(fn: () => Promise<void>): void }, opts: Partial<ProviderOptions>) {
  const provider = await startTestProvider({ user: 'ap@test', clientId: 'cid', deviceInterval: 1, ...opts });
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-device-'));
  t.after(async () => {
    await provider.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const file = join(dir, 'ap.refresh-token');
  const auth: OAuth2Auth = { type: 'oauth2', grant: 'refresh_token', token_url: provider.tokenUrl, device_authorization_url: provider.deviceUrl, client_id: 'cid', refresh_token_file: file, scope: 'imap offline_access' };
  return { provider, dir, file, auth };
}

test('waits out authorization_pending and slow_down, then stores the refresh token with mode 600', async (t) => {
  const { provider, file, auth } = await setup(t, { devicePolls: ['authorization_pending', 'slow_down', 'authorization_pending'] });
  const clock = recordingClock();
  const prompts: string[] = [];
  const stored = await deviceLogin(auth, { mailbox: 'ap', scheduler: clock, prompt: (d) => prompts.push(`${d.verification_uri} ${d.user_code}`) });
  assert.equal(stored, file);
  assert.deepEqual(prompts, [`${provider.url}/device WDJB-MJHT`]);
  assert.deepEqual(clock.waits, [1000, 1000, 6000, 6000], 'the provider interval, then 5 s more after slow_down');
  assert.equal((await readFile(file, 'utf8')).trim(), provider.issued[0]!.refreshToken);
  assert.equal((await stat(file)).mode & 0o777, 0o600);
});

test('an expired code and a declined sign-in end the flow with a clear message and write nothing', async (t) => {
  for (const [answer, message] of [['expired_token', /the code expired before the sign-in was completed/], ['access_denied', /the sign-in was declined/]] as const) {
    const { file, auth } = await setup(t, { devicePolls: ['authorization_pending', answer] });
    await assert.rejects(deviceLogin(auth, { mailbox: 'ap', scheduler: recordingClock(), prompt: () => undefined }), message);
    await assert.rejects(stat(file), { code: 'ENOENT' });
  }
});

test('docdrop mail login NAME prints the page and the code, stores the token and never prints it', async (t) => {
  const { provider, dir, file } = await setup(t, { deviceInterval: 0, devicePolls: ['authorization_pending'] });
  const config = join(dir, 'docdrop.yaml');
  await writeFile(
    config,
    'rules:\n  - { name: invoices, watch: ./in, workflow: Invoices }\n' +
      `mailboxes:\n  - name: ap\n    host: 127.0.0.1\n    user: ap@test\n    rule: invoices\n    auth: { type: oauth2, token_url: "${provider.tokenUrl}", device_authorization_url: "${provider.deviceUrl}", client_id: cid, refresh_token_file: tokens/ap.refresh-token, scope: imap }\n`,
  );
  const r = await docdrop(['mail', 'login', 'ap', '--config', config]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`open ${provider.url}/device in any browser and enter the code WDJB-MJHT`));
  const stored = join(dir, 'tokens', 'ap.refresh-token');
  assert.match(r.stdout, new RegExp(`stored in ${stored} \\(mode 600\\)`));
  const token = (await readFile(stored, 'utf8')).trim();
  assert.equal(token, provider.issued[0]!.refreshToken);
  assert.ok(!`${r.stdout}${r.stderr}`.includes(token) && !`${r.stdout}${r.stderr}`.includes(provider.issued[0]!.accessToken), 'no token printed');
  assert.notEqual(file, stored);

  const unknown = await docdrop(['mail', 'login', 'nope', '--config', config]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /^docdrop mail login: no mailbox is named "nope" in .*; expected one of "ap"\n$/);
});

test('docdrop mail login refuses a Maildir mailbox: it has no login', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-device-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const config = join(dir, 'docdrop.yaml');
  await writeFile(config, 'rules:\n  - { name: invoices, watch: ./in, workflow: Invoices }\nmailboxes:\n  - { name: scans, maildir: ./scans, rule: invoices }\n');
  const r = await docdrop(['mail', 'login', 'scans', '--config', config]);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, `docdrop mail login: mailbox scans is a local Maildir (${join(dir, 'scans')}): it has no login, there is nothing to sign in\n`);
});
