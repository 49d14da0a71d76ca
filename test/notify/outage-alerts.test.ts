// Outage alerts to a real SMTP server, on virtual time: the service unreachable for down_after_s (a real
// `docdrop serve` stopped, then started again on its port) and a mailbox whose login is refused (a real
// IMAP intake against dovecot with a wrong password) or that cannot connect for down_after_s.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { parseConfig } from '../../src/daemon/config/config.js';
import { openLedger } from '../../src/daemon/ledger/open-ledger.js';
import { startMailIntake, type MailboxStatus } from '../../src/daemon/intake/mail/imap-intake.js';
import { silentLogger } from '../../src/shared/logger.js';
import { hasDovecot, startDovecot } from '../helpers/dovecot.js';
import { startTestService } from '../helpers/service.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { settingsFor, until, virtualNotifier } from './notify-fixtures.js';

let smtp: SmtpSink;
before(async () => {
  smtp = await startSmtpSink();
});
after(() => smtp.close());

test('the service unreachable for down_after_s is mailed once, and once more when it answers again', async () => {
  smtp.mails.length = 0;
  let svc = await startTestService();
  const port = Number(new URL(svc.url).port);
  const client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]!, retry: false });
  let pings = 0;
  const ping = () => client.listTemplates({ limit: 1 }).finally(() => pings++);
  // down_after_s 60: the probe asks every 15 s.
  const { notifier, scheduler } = virtualNotifier(settingsFor(smtp.port, { down_after_s: 60 }), { ping });
  const probe = async () => {
    const before = pings;
    await scheduler.advance(15_000);
    await until('the probe to answer', () => pings > before);
    await new Promise((r) => setImmediate(r));
  };
  try {
    await probe();
    await svc.close();
    for (let i = 0; i < 4; i++) await probe(); // down at the first of these, 45 s so far
    assert.equal(smtp.mails.length, 0, 'not yet down_after_s');
    await probe(); // 60 s
    const [down] = await smtp.waitFor(1);
    assert.equal(down!.subject, '[docdrop] service unreachable for 60 s');
    assert.match(down!.text, /has not answered since .*\nLast error: .*ECONNREFUSED/);
    for (let i = 0; i < 4; i++) await probe();
    assert.equal(smtp.mails.length, 1, 'one mail per outage');

    svc = await startTestService({ port });
    await probe();
    const [, back] = await smtp.waitFor(2);
    assert.equal(back!.subject, '[docdrop] service reachable again (down 2 min)'); // from the probe at 30 s to the one at 165 s
  } finally {
    await notifier.stop();
    await svc.close();
  }
  assert.equal(scheduler.pendingTimers, 0);
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

async function intakeStatuses(host: string, port: number, statuses: (s: MailboxStatus) => void) {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-notify-mail-'));
  const config = parseConfig(
    JSON.stringify({
      rules: [{ name: 'invoices', watch: 'in', workflow: 'Invoices' }],
      mailboxes: [{ name: 'ap-mail', host, port, tls: false, insecure_plaintext: true, user: 'ap@test', password: 'wrong-Pw-77', rule: 'invoices' }],
    }),
    { baseDir: dir },
  );
  const ledger = await openLedger({ path: join(dir, 'state.db'), synchronous: 'normal' });
  const intake = startMailIntake({
    mailbox: config.mailboxes[0]!,
    rule: config.rules[0]!,
    ledger,
    workDir: join(dir, 'mail'),
    logger: silentLogger,
    reconnectMinMs: 50,
    onStatus: statuses,
  });
  return {
    async stop() {
      await intake.stop();
      await ledger.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

test('a mailbox whose login is refused is mailed at once, once, without the password', { skip: !hasDovecot && 'dovecot not installed or not root' }, async () => {
  smtp.mails.length = 0;
  const imap = await startDovecot({ 'ap@test': 'right-pw' });
  const { notifier } = virtualNotifier(settingsFor(smtp.port));
  let attempts = 0;
  const intake = await intakeStatuses(imap.host, imap.port, (s) => {
    attempts++;
    notifier.record(s.loggedIn ? { type: 'mailbox_up', mailbox: 'ap-mail' } : { type: 'mailbox_down', mailbox: 'ap-mail', reason: s.reason, authentication: s.authentication });
  });
  try {
    const [m] = await smtp.waitFor(1);
    await until('two refused logins', () => attempts >= 2);
    assert.equal(m!.subject, '[docdrop] mailbox ap-mail cannot log in');
    assert.match(m!.text, /Last error: .*Authentication failed/i);
    assert.doesNotMatch(m!.text, /wrong-Pw-77/);
    assert.equal(smtp.mails.length, 1, 'one mail however often the login is retried');
  } finally {
    await intake.stop();
    await imap.stop();
    await notifier.stop();
  }
});

test('a mailbox that cannot connect is mailed only once down_after_s has passed', async () => {
  smtp.mails.length = 0;
  const { notifier, scheduler } = virtualNotifier(settingsFor(smtp.port, { down_after_s: 120 }));
  let failures = 0;
  const intake = await intakeStatuses('127.0.0.1', await closedPort(), (s) => {
    if (!s.loggedIn) {
      failures++;
      assert.equal(s.authentication, false);
      notifier.record({ type: 'mailbox_down', mailbox: 'ap-mail', reason: s.reason, authentication: s.authentication });
    }
  });
  try {
    await until('a failed connect', () => failures >= 1);
    await scheduler.advance(119_000);
    assert.equal(notifier.pendingMails + smtp.mails.length, 0);
    await scheduler.advance(1_000);
    const [m] = await smtp.waitFor(1);
    assert.equal(m!.subject, '[docdrop] mailbox ap-mail cannot log in');
    assert.match(m!.text, /ECONNREFUSED/);
  } finally {
    await intake.stop();
    await notifier.stop();
  }
});
