// IMAP intake against a real dovecot on loopback: attachments land in the rule's inbox under sanitised
// names, the message is flagged/moved/deleted only after the ledger has it, a message with nothing to
// drop ends in the failed folder with the reason, a bad password is retried without ever being logged,
// and a daemon with a mailbox turns mailed invoices into CSV rows that `docdrop status` counts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { parseConfig } from '../../src/daemon/config/config.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { openLedger, type LedgerStore } from '../../src/daemon/ledger/open-ledger.js';
import { startMailIntake, type MailIntake } from '../../src/daemon/intake/mail/imap-intake.js';
import { createLogger, silentLogger } from '../../src/shared/logger.js';
import { startDaemonProcess } from '../../bench/daemon-process.js';
import { hasDovecot, startDovecot, type Dovecot } from '../helpers/dovecot.js';
import { startMailWorld, type MailWorld } from './mail-world.js';
import type { TestService } from '../helpers/service.js';
import { configYaml, listFiles, numberedInvoice, readCsvFile, tempTree, waitFor, writeConfig, type TempTree } from '../daemon/pipeline-fixtures.js';

const run = promisify(execFile);
const skip = !hasDovecot && 'dovecot not installed (apt-get install dovecot-imapd) or not root';
const USER = 'ap@test';
const PASS = 'imap-secret-Zq81';
const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function mail(opts: { subject: string; attachments?: { filename?: string; content: Buffer; contentType?: string; cid?: string }[]; html?: string }): Promise<Buffer> {
  return new MailComposer({ from: 'vendor@example.com', to: USER, text: 'see attached', ...opts }).compile().build();
}

describe('IMAP intake', { skip }, () => {
  let imap: Dovecot;
  let tree: TempTree;
  let ledger: LedgerStore;
  let world: MailWorld | undefined;
  before(async () => void ({ imap, tree, ledger } = world = await startMailWorld({ [USER]: PASS }, { treePrefix: 'docdrop-mail-' })));
  after(() => world?.stop());

  function intakeFor(name: string, extra: Record<string, unknown> = {}, logger = silentLogger): { intake: MailIntake; inbox: string; failed: string } {
    const config = parseConfig(
      JSON.stringify({
        rules: [{ name, watch: `inbox/${name}`, workflow: 'Invoices' }],
        // This dovecot offers no STARTTLS: plain on purpose, these tests are about the intake.
        mailboxes: [{ name: `mb-${name}`, host: imap.host, port: imap.port, tls: false, insecure_plaintext: true, user: USER, password: PASS, rule: name, poll_s: 0.2, ...extra }],
      }),
      { baseDir: tree.root },
    );
    const rule = config.rules[0]!;
    const intake = startMailIntake({ mailbox: config.mailboxes[0]!, rule, ledger, workDir: join(tree.root, 'mail'), logger, reconnectMinMs: 50 });
    return { intake, inbox: rule.watch, failed: join(tree.root, 'var', 'failed', name) };
  }

  test('drops attachments (not the HTML body images) under sanitised names, then flags the message seen', async () => {
    const pdf = await numberedInvoice(1);
    await imap.append(
      USER,
      await mail({
        subject: 'invoice 1',
        html: '<p>hi <img src="cid:logo@x"></p>',
        attachments: [
          { filename: '../../etc/passwd inv 1.pdf', content: pdf },
          { filename: 'logo.png', content: PNG_1PX, cid: 'logo@x' },
          { filename: 'scan.png', content: PNG_1PX },
        ],
      }),
      'INBOX',
    );
    const { intake, inbox } = intakeFor('drop');
    try {
      await intake.checkNow();
      const files = (await readdir(inbox)).sort();
      assert.equal(files.length, 2, files.join(', '));
      assert.match(files[0]!, /^mb-drop-\d+-1-1-etc_passwd inv 1\.pdf$/);
      assert.match(files[1]!, /^mb-drop-\d+-1-2-scan\.png$/);
      assert.deepEqual(await readFile(join(inbox, files[0]!)), pdf);
      const [msg] = await imap.list(USER);
      assert.ok(msg!.flags.includes('\\Seen'), msg!.flags.join(' '));
    } finally {
      await intake.stop();
    }
  });

  test('a message the ledger already has is not dropped again, only flagged (crash between commit and flag)', async () => {
    await imap.append(USER, await mail({ subject: 'first', attachments: [{ filename: 'a.pdf', content: await numberedInvoice(2) }] }), 'Again');
    const first = intakeFor('again', { folder: 'Again' });
    try {
      await first.intake.checkNow();
    } finally {
      await first.intake.stop();
    }
    const dropped = await readdir(first.inbox);
    assert.equal(dropped.length, 1);
    const uidValidity = /^mb-again-(\d+)-/.exec(dropped[0]!)![1]!;
    // A second message whose drop was committed, but the process died before flagging it.
    await imap.append(USER, await mail({ subject: 'second', attachments: [{ filename: 'b.pdf', content: await numberedInvoice(3) }] }), 'Again');
    const pending = (await imap.list(USER, 'Again')).find((m) => !m.flags.includes('\\Seen'))!;
    await ledger.recordMailDropped({ mailbox: 'mb-again', uidValidity, uid: pending.uid }, []);
    const second = intakeFor('again', { folder: 'Again' });
    try {
      await second.intake.checkNow();
    } finally {
      await second.intake.stop();
    }
    assert.deepEqual(await readdir(first.inbox), dropped);
    const msgs = await imap.list(USER, 'Again');
    assert.equal(msgs.length, 2);
    assert.ok(msgs.every((m) => m.flags.includes('\\Seen')));
  });

  test('after: seen also takes new mail someone read before docdrop got to it; old read mail is left alone', async () => {
    const pdf = async (n: number) => [{ filename: `r${n}.pdf`, content: await numberedInvoice(40 + n) }];
    await imap.append(USER, await mail({ subject: 'read long ago', attachments: await pdf(0) }), 'Read', ['\\Seen']);
    await imap.append(USER, await mail({ subject: 'unread', attachments: await pdf(1) }), 'Read');
    const { intake, inbox } = intakeFor('read', { folder: 'Read' });
    try {
      await intake.checkNow();
      await imap.append(USER, await mail({ subject: 'read by a person first', attachments: await pdf(2) }), 'Read', ['\\Seen']);
      await intake.checkNow();
    } finally {
      await intake.stop();
    }
    assert.deepEqual((await readdir(inbox)).map((f) => f.replace(/^mb-read-\d+-/, '')).sort(), ['2-1-r1.pdf', '3-1-r2.pdf']);
  });

  test('after: move moves the message once dropped; after: delete removes it', async () => {
    await imap.append(USER, await mail({ subject: 'move me', attachments: [{ filename: 'm.pdf', content: await numberedInvoice(4) }] }), 'ToMove');
    const moved = intakeFor('move', { folder: 'ToMove', after: 'move', move_to: 'Done' });
    try {
      await moved.intake.checkNow();
    } finally {
      await moved.intake.stop();
    }
    assert.equal((await readdir(moved.inbox)).length, 1);
    assert.equal((await imap.list(USER, 'ToMove')).length, 0);
    assert.equal((await imap.list(USER, 'Done')).length, 1);

    await imap.append(USER, await mail({ subject: 'delete me', attachments: [{ filename: 'd.pdf', content: await numberedInvoice(5) }] }), 'ToDelete');
    const deleted = intakeFor('delete', { folder: 'ToDelete', after: 'delete' });
    try {
      await deleted.intake.checkNow();
    } finally {
      await deleted.intake.stop();
    }
    assert.equal((await readdir(deleted.inbox)).length, 1);
    assert.equal((await imap.list(USER, 'ToDelete')).length, 0);
  });

  test('a message without attachments goes to the failed folder as .eml with the reason beside it', async () => {
    await imap.append(USER, await mail({ subject: 'just text' }), 'NoAtt');
    const { intake, failed, inbox } = intakeFor('noatt', { folder: 'NoAtt' });
    try {
      await intake.checkNow();
    } finally {
      await intake.stop();
    }
    const files = (await readdir(failed)).sort();
    assert.equal(files.length, 2, files.join(', '));
    assert.match(files[0]!, /^mb-noatt-\d+-1\.eml$/);
    assert.match(await readFile(join(failed, files[0]!), 'utf8'), /Subject: just text/);
    const note = JSON.parse(await readFile(join(failed, files[1]!), 'utf8'));
    assert.equal(note.kind, 'no_attachment');
    assert.match(note.reason, /no attachment/);
    assert.deepEqual(await readdir(inbox).catch(() => []), []);
    assert.ok((await imap.list(USER, 'NoAtt'))[0]!.flags.includes('\\Seen'));
  });

  test('a message whose attachments can never be written is kept in the failed folder at once with the error', async () => {
    await imap.append(USER, await mail({ subject: 'stuck', attachments: [{ filename: 's.pdf', content: await numberedInvoice(6) }] }), 'Stuck');
    // The inbox path is a file, so every write of the attachment fails, permanently (EEXIST: docs/errors.md).
    await mkdir(join(tree.root, 'inbox'), { recursive: true });
    await writeFile(join(tree.root, 'inbox', 'stuck'), 'not a folder');
    const { intake, failed } = intakeFor('stuck', { folder: 'Stuck' });
    try {
      const files = await waitFor('the .eml and its note in the failed folder', async () => {
        // The note is written after the move (through a hidden temp file): wait for it by name.
        const f = (await readdir(failed).catch(() => [])).filter((n) => !n.startsWith('.')).sort();
        return f.length === 2 && f[1]!.endsWith('.eml.error.json') && f;
      }, 15_000);
      assert.match(files[0]!, /^mb-stuck-\d+-1\.eml$/);
      const note = JSON.parse(await readFile(join(failed, files[1]!), 'utf8'));
      assert.equal(note.kind, 'mail_unreadable');
      assert.match(note.reason, /could not be written: .*(EEXIST|ENOTDIR)/, 'given up at the first attempt, not after 3');
      await waitFor('the message flagged seen', async () => (await imap.list(USER, 'Stuck'))[0]!.flags.includes('\\Seen'), 5_000);
    } finally {
      await intake.stop();
    }
  });

  test('new mail is taken when the server pushes it (IDLE), long before poll_s', async () => {
    const { intake, inbox } = intakeFor('idle', { folder: 'Idle', poll_s: 3600 });
    try {
      await imap.append(USER, await mail({ subject: 'first' }), 'Idle'); // makes the folder
      await intake.checkNow();
      await new Promise((r) => setTimeout(r, 1500)); // the connection goes idle
      await imap.append(USER, await mail({ subject: 'pushed', attachments: [{ filename: 'p.pdf', content: await numberedInvoice(10) }] }), 'Idle');
      await waitFor('the pushed message dropped', async () => (await readdir(inbox).catch(() => [])).length === 1, 8_000);
    } finally {
      await intake.stop();
    }
  });

  test('many quiet polls leave no listeners behind (no MaxListeners warning)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    const { intake } = intakeFor('quiet', { poll_s: 0.01 });
    try {
      await new Promise((r) => setTimeout(r, 600));
    } finally {
      await intake.stop();
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings.filter((w) => /MaxListeners|memory leak/.test(w)), []);
  });

  test('stop() right after a check returns at once, even with a long poll_s', { timeout: 10_000 }, async () => {
    const { intake } = intakeFor('stopnow', { poll_s: 3600 });
    await intake.checkNow();
    await intake.stop();
  });

  test('a wrong password is logged as an authentication failure and retried; the password never reaches the log', async () => {
    let logged = '';
    const logger = createLogger({
      level: 'debug',
      destination: new Writable({ write: (chunk, _enc, cb) => ((logged += String(chunk)), cb()) }),
    });
    const { intake } = intakeFor('badpass', { password: 'wrong-Pw-77' }, logger);
    try {
      await waitFor('two failed attempts', async () => (logged.match(/mailbox unavailable/g) ?? []).length >= 2, 10_000);
    } finally {
      await intake.stop();
    }
    assert.match(logged, /"authenticationFailed":true/);
    assert.doesNotMatch(logged, /wrong-Pw-77/);
    assert.doesNotMatch(logged, new RegExp(PASS));
  });

});

describe('IMAP intake over TLS', { skip }, () => {
  let imap: Dovecot;
  let tree: TempTree;
  let ledger: LedgerStore;
  before(async () => {
    imap = await startDovecot({ [USER]: PASS }, { tls: true });
    tree = await tempTree('docdrop-mail-tls-');
    ledger = await openLedger({ path: join(tree.root, 'state.db'), synchronous: 'normal' });
    await writeFile(join(tree.root, 'server-ca.pem'), imap.cert!);
    await imap.append(USER, await mail({ subject: 'over tls', attachments: [{ filename: 't.pdf', content: await numberedInvoice(9) }] }));
  });
  after(async () => {
    await ledger?.close();
    await imap?.stop();
    await tree?.cleanup();
  });

  function start(name: string, extra: Record<string, unknown>, logger = silentLogger) {
    const config = parseConfig(
      JSON.stringify({
        rules: [{ name, watch: `inbox/${name}`, workflow: 'Invoices' }],
        mailboxes: [{ name, host: imap.host, port: imap.port, tls: true, user: USER, password: PASS, rule: name, poll_s: 0.2, ...extra }],
      }),
      { baseDir: tree.root },
    );
    const intake = startMailIntake({ mailbox: config.mailboxes[0]!, rule: config.rules[0]!, ledger, workDir: join(tree.root, 'mail'), logger, reconnectMinMs: 50 });
    return { intake, inbox: config.rules[0]!.watch };
  }

  test('an untrusted server certificate is refused, with the reason logged', async () => {
    let logged = '';
    const logger = createLogger({ level: 'warn', destination: new Writable({ write: (chunk, _enc, cb) => ((logged += String(chunk)), cb()) }) });
    const { intake, inbox } = start('untrusted', {}, logger);
    try {
      await waitFor('a refused connection', async () => /mailbox unavailable/.test(logged), 10_000);
    } finally {
      await intake.stop();
    }
    assert.match(logged, /self[- ]signed certificate/i);
    assert.deepEqual(await readdir(inbox).catch(() => []), []);
  });

  test('tls_ca_file trusts the server certificate: attachments are dropped', async () => {
    const { intake, inbox } = start('trusted', { tls_ca_file: 'server-ca.pem' });
    try {
      await intake.checkNow();
    } finally {
      await intake.stop();
    }
    assert.equal((await readdir(inbox)).length, 1);
  });
});

describe('IMAP connections', { skip }, () => {
  // A dovecot of their own: its auth penalty (slower replies after failed logins) starts at zero.
  let imap: Dovecot;
  let tree: TempTree;
  let ledger: LedgerStore;
  before(async () => {
    imap = await startDovecot({ [USER]: PASS });
    tree = await tempTree('docdrop-mail-conn-');
    ledger = await openLedger({ path: join(tree.root, 'state.db'), synchronous: 'normal' });
  });
  after(async () => {
    await ledger?.close();
    await imap?.stop();
    await tree?.cleanup();
  });

  function start(name: string, extra: Record<string, unknown>) {
    let logged = '';
    const logger = createLogger({ level: 'warn', destination: new Writable({ write: (chunk, _enc, cb) => ((logged += String(chunk)), cb()) }) });
    const config = parseConfig(
      JSON.stringify({
        rules: [{ name, watch: `inbox/${name}`, workflow: 'Invoices' }],
        mailboxes: [{ name, host: imap.host, port: imap.port, tls: false, user: USER, password: PASS, rule: name, poll_s: 0.2, ...extra }],
      }),
      { baseDir: tree.root },
    );
    const intake = startMailIntake({ mailbox: config.mailboxes[0]!, rule: config.rules[0]!, ledger, workDir: join(tree.root, 'mail'), logger, reconnectMinMs: 50 });
    return { intake, inbox: config.rules[0]!.watch, log: () => logged };
  }

  test('failed logins leave no connection open, and stop() closes everything at once', { timeout: 60_000 }, async () => {
    const before = await imap.clientConnections();
    const { intake, log } = start('leak', { password: 'wrong-Pw-78', insecure_plaintext: true });
    await waitFor('two failed logins', async () => (log().match(/mailbox unavailable/g) ?? []).length >= 2, 40_000);
    // At most the attempt in flight is open; each failed one was closed.
    const open = (await imap.clientConnections()) - before;
    await intake.stop(); // also ends the attempt in flight, which the server's auth penalty holds for seconds
    assert.ok(open <= 1, `${open} connections open after 2 failed logins`);
    await waitFor('every connection closed after stop()', async () => (await imap.clientConnections()) === before, 5_000);
  });

  test('tls: false refuses a server without STARTTLS before logging in, unless insecure_plaintext is set', async () => {
    await imap.append(USER, await mail({ subject: 'plain', attachments: [{ filename: 'p.pdf', content: await numberedInvoice(11) }] }), 'Plain');
    const refused = start('refused', { folder: 'Plain' });
    try {
      await waitFor('a refused connection', async () => /mailbox unavailable/.test(refused.log()), 10_000);
    } finally {
      await refused.intake.stop();
    }
    assert.match(refused.log(), /offers no STARTTLS, so the password is not sent.*insecure_plaintext: true/);
    assert.deepEqual(await readdir(refused.inbox).catch(() => []), []);
    const dovecotLog = await readFile(join(imap.dir, 'dovecot.log'), 'utf8');
    assert.match(dovecotLog, /no auth attempts/);

    const allowed = start('allowed', { folder: 'Plain', insecure_plaintext: true });
    try {
      await allowed.intake.checkNow();
    } finally {
      await allowed.intake.stop();
    }
    assert.equal((await readdir(allowed.inbox)).length, 1);
    assert.match(allowed.log(), /without TLS: the password went in cleartext/);
    assert.doesNotMatch(allowed.log() + refused.log(), new RegExp(PASS));
  });
});

describe('daemon with a mailbox', { skip }, () => {
  let svc: TestService;
  let imap: Dovecot;
  let tree: TempTree;
  let world: MailWorld | undefined;
  before(async () => {
    world = await startMailWorld({ [USER]: PASS }, { dovecot: { starttls: true }, service: true });
    ({ imap, tree } = world);
    svc = world.svc!;
  });
  after(() => world?.stop());

  test('mailed invoices become CSV rows (over STARTTLS, the default with tls: false) and the message is flagged seen', async () => {
    const yaml =
      configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]! }) +
      `
mailboxes:
  - name: ap
    host: ${imap.host}
    port: ${imap.port}
    tls: false
    tls_ca_file: ${imap.certFile}
    user: ${USER}
    password_file: ${join(tree.root, 'imap-password')}
    rule: invoices
    poll_s: 0.2
`;
    await writeFile(join(tree.root, 'imap-password'), `${PASS}\n`, { mode: 0o600 });
    const { config, path } = await writeConfig(tree.root, yaml);
    assert.equal(config.mailboxes[0]!.password, PASS);
    const attachments = await Promise.all([7, 8].map(async (i) => ({ filename: `inv-${i}.pdf`, content: await numberedInvoice(i) })));
    await imap.append(USER, await mail({ subject: 'two invoices', attachments }));
    const daemon = await startDaemon(config, { logger: silentLogger });
    try {
      const outbox = join(tree.root, 'outbox', 'invoices');
      const outputs = await waitFor('two CSV outputs', async () => {
        const files = await listFiles(outbox).catch(() => []);
        return files.length === 2 && files;
      }, 60_000);
      const numbers = (await Promise.all(outputs.map((f) => readCsvFile(join(outbox, f))))).flatMap((t) => t.rows.map((r) => r.invoice_number));
      assert.deepEqual([...new Set(numbers)].sort(), ['INV-00007', 'INV-00008']);
      const [msg] = await imap.list(USER);
      assert.ok(msg!.flags.includes('\\Seen'));
    } finally {
      await daemon.stop();
    }
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'status', '--json', '--config', path], {
      cwd: join(import.meta.dirname, '..', '..'),
    });
    const status = JSON.parse(stdout) as { mailboxes: { mailbox: string; messages: number; files: number; last_at: string }[] };
    assert.deepEqual(status.mailboxes.map((m) => [m.mailbox, m.messages, m.files]), [['ap', 1, 2]]);
    assert.ok(Date.parse(status.mailboxes[0]!.last_at) > Date.now() - 120_000);
  });

  test('after failed logins, SIGTERM ends the daemon process promptly (no connection holds it open)', { timeout: 90_000 }, async () => {
    const root = join(tree.root, 'sigterm');
    await mkdir(root, { recursive: true });
    const yaml =
      configYaml({ root, baseUrl: svc.url, apiKey: svc.keys[0]!, logLevel: 'info' }) +
      `mailboxes:\n  - { name: ap, host: ${imap.host}, port: ${imap.port}, tls: false, tls_ca_file: ${imap.certFile}, user: ${USER}, password: wrong-Pw-79, rule: invoices, poll_s: 0.2 }\n`;
    const { path } = await writeConfig(root, yaml);
    const daemon = await startDaemonProcess(path, { tsx: true });
    try {
      await waitFor('two failed logins', async () => (daemon.log().match(/mailbox unavailable/g) ?? []).length >= 2, 40_000);
      daemon.child.kill('SIGTERM');
      await daemon.exited; // before the fix, leaked connections kept the process alive for minutes
      assert.equal(daemon.child.exitCode, 0, daemon.log().slice(-2000));
    } finally {
      daemon.child.kill('SIGKILL');
    }
  });
});

