// A rotated refresh token survives a SIGKILL of a real `docdrop run` at the worst moment: the provider
// (test/helpers/oauth2-provider.ts, rotating: each refresh issues a new refresh token and voids the old)
// kills the daemon while dovecot asks it about the new access token, i.e. while the daemon uses it. The
// refresh token on disk then must already be the new one, and the restarted daemon logs in with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { ServiceClient } from '../../src/api/client.js';
import { openLedger } from '../../src/daemon/ledger/open-ledger.js';
import { startDaemonProcess, type DaemonProcess } from '../../bench/daemon-process.js';
import { hasDovecot, startDovecot } from '../helpers/dovecot.js';
import { startTestProvider } from '../helpers/oauth2-provider.js';
import { startTestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, numberedInvoice, tempTree, waitFor, writeConfig } from '../daemon/pipeline-fixtures.js';

const USER = 'ap@test';

test(
  'a rotated refresh token is on disk before its access token is used: SIGKILL then, and the restart logs in with it',
  { skip: !hasDovecot && 'dovecot not installed (apt-get install dovecot-imapd) or not root', timeout: 180_000 },
  async (t) => {
    const provider = await startTestProvider({ user: USER, clientId: 'cid', rotate: true });
    t.after(() => provider.stop());
    const imap = await startDovecot({ [USER]: 'unused-password' }, { oauth2: { introspectionUrl: provider.introspectionUrl } });
    t.after(() => imap.stop());
    const svc = await startTestService();
    t.after(() => svc.close());
    const tree = await tempTree('docdrop-oauth2-crash-');
    t.after(() => tree.cleanup());
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));

    const tokenFile = join(tree.root, 'ap.refresh-token');
    const original = provider.issueRefreshToken();
    await writeFile(tokenFile, `${original}\n`, { mode: 0o600 });
    const yaml =
      configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]!, logLevel: 'info' }) +
      `mailboxes:\n  - { name: ap, host: ${imap.host}, port: ${imap.port}, tls: false, insecure_plaintext: true, user: ${USER}, rule: invoices, poll_s: 0.2, ` +
      `auth: { type: oauth2, token_url: "${provider.tokenUrl}", client_id: cid, refresh_token_file: ${tokenFile} } }\n`;
    const { path: configPath, config } = await writeConfig(tree.root, yaml);
    const content = await numberedInvoice(1);
    await imap.append(USER, await new MailComposer({ from: 'v@example.com', to: USER, subject: 'inv 1', text: 'x', attachments: [{ filename: 'inv-1.pdf', content }] }).compile().build());

    // The first use of an access token: kill the daemon there, before dovecot hears back.
    let seenAtKill: { onDisk: string; issuedWith?: string } | undefined;
    let first: Promise<DaemonProcess> | undefined;
    provider.onIntrospect = async (token) => {
      if (seenAtKill || !first) return;
      seenAtKill = { onDisk: (await readFile(tokenFile, 'utf8')).trim(), issuedWith: provider.issued.find((i) => i.accessToken === token)?.refreshToken };
      const child = await first;
      child.child.kill('SIGKILL');
      await child.exited;
    };
    first = startDaemonProcess(configPath, { tsx: true });
    const killed = await first;
    await killed.exited;
    assert.ok(seenAtKill, `the daemon was killed while logging in; its log:\n${killed.log().slice(-3000)}`);
    assert.ok(seenAtKill.issuedWith && seenAtKill.issuedWith !== original, 'the provider rotated the refresh token');
    assert.equal(seenAtKill.onDisk, seenAtKill.issuedWith, 'the new refresh token was on disk when its access token was used');

    const second = await startDaemonProcess(configPath, { tsx: true });
    t.after(async () => {
      second.child.kill('SIGTERM');
      await second.exited;
    });
    const ledger = await openLedger(config.state);
    try {
      await waitFor('the mailed invoice taken after the restart', async () => ((await ledger.mailStats())[0]?.messages ?? 0) === 1).catch((err: Error) => {
        throw new Error(`${err.message}\ndaemon stderr:\n${second.log().slice(-3000)}`);
      });
    } finally {
      await ledger.close();
    }
    assert.deepEqual(provider.tokenRequests.filter((r) => r.error), [], 'no refresh token was refused');
    assert.deepEqual(provider.tokenRequests.map((r) => r.refreshToken), [original, seenAtKill.issuedWith], 'the restart refreshed with the rotated token');
    const log = killed.log() + second.log();
    for (const i of provider.issued) assert.ok(!log.includes(i.accessToken) && !log.includes(i.refreshToken ?? '\0'), 'no token in the logs');
  },
);
