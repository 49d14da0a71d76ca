// A mailbox's filter against a real dovecot: only matching mail is taken, and only its matching
// attachments; every other message stays as it was on the server (flags, folder) and is recorded once
// as skipped, so later checks do not fetch it again (dovecot's own per-session FETCH counters show it).
// With parse_body a mail without attachment becomes a PDF the pipeline extracts, and output.include_mail
// puts the mail's from, subject, date and Message-ID into the CSV rows (formula-safe).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { parseConfig } from '../../src/daemon/config/config.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import type { LedgerStore } from '../../src/daemon/ledger/open-ledger.js';
import { startMailIntake } from '../../src/daemon/intake/mail/imap-intake.js';
import { compileMailFilter } from '../../src/daemon/intake/mail/mail-filter.js';
import { silentLogger } from '../../src/shared/logger.js';
import { hasDovecot, type Dovecot } from '../helpers/dovecot.js';
import type { TestService } from '../helpers/service.js';
import { configYaml, listFiles, numberedInvoice, readCsvFile, waitFor, writeConfig, type TempTree } from '../daemon/pipeline-fixtures.js';
import { startMailWorld, type MailWorld } from './mail-world.js';

const run = promisify(execFile);
const skip = !hasDovecot && 'dovecot not installed (apt-get install dovecot-imapd) or not root';
const USER = 'filter@test';
const PASS = 'filter-secret-Kx2';
const DAY_MS = 86_400_000;

type Attachment = { filename: string; content: Buffer | string };
function mail(from: string, subject: string, attachments: Attachment[] = [], extra: Record<string, unknown> = {}): Promise<Buffer> {
  return new MailComposer({ from, to: USER, subject, text: 'see attached', attachments, ...extra }).compile().build();
}

/** Message bodies dovecot sent to this user so far, from its "Logged out ... body_count=N" lines. */
async function bodiesFetched(imap: Dovecot): Promise<number> {
  const log = await readFile(join(imap.dir, 'dovecot.log'), 'utf8');
  return [...log.matchAll(/imap\(filter@test\).*Logged out.* body_count=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
}

test('filter: sender globs and attachment names ignore case; a subject is a substring or a /regex/', () => {
  const f = compileMailFilter({ from: ['*@supplier.com'], subject: '/^invoice \\d+$/i', attachments: ['*.pdf'], parse_body: false });
  const now = Date.now();
  assert.equal(f.headerMismatch({ from: 'Billing@Supplier.COM', subject: 'Invoice 12', receivedAt: null }, now), null);
  assert.match(f.headerMismatch({ from: 'a@other.com', subject: 'Invoice 12', receivedAt: null }, now)!, /sender a@other.com matches no filter.from/);
  assert.match(f.headerMismatch({ from: 'a@supplier.com', subject: 'Re: Invoice 12', receivedAt: null }, now)!, /subject/);
  assert.ok(f.takesAttachment('SCAN.PDF') && !f.takesAttachment('scan.png'));
  const plain = compileMailFilter({ from: [], subject: 'INVOICE', attachments: [], max_age_days: 2, parse_body: false });
  assert.equal(plain.headerMismatch({ from: null, subject: 'your invoice of May', receivedAt: new Date(now - DAY_MS) }, now), null);
  assert.match(plain.headerMismatch({ from: null, subject: 'invoice', receivedAt: new Date(now - 3 * DAY_MS) }, now)!, /max_age_days \(2\)/);
  assert.ok(plain.takesAttachment('anything.bin'));
});

describe('mailbox filter', { skip }, () => {
  let imap: Dovecot;
  let tree: TempTree;
  let ledger: LedgerStore;
  let svc: TestService;
  let world: MailWorld | undefined;
  before(async () => {
    world = await startMailWorld({ [USER]: PASS }, { treePrefix: 'docdrop-mail-filter-', service: true });
    ({ imap, tree, ledger } = world);
    svc = world.svc!;
  });
  after(() => world?.stop());

  test('takes only matching mail and attachments; the rest stays untouched and is skipped once, never fetched again', async () => {
    const pdf = await numberedInvoice(31);
    const old = new Date(Date.now() - 90 * DAY_MS);
    await imap.append(USER, await mail('Vendor <vendor@supplier.com>', 'Invoice 31', [{ filename: 'inv-31.pdf', content: pdf }, { filename: 'photo.png', content: 'png' }]));
    await imap.append(USER, await mail('spam@other.com', 'Invoice 32', [{ filename: 'inv-32.pdf', content: pdf }]));
    await imap.append(USER, await mail('Billing@SUPPLIER.com', 'Newsletter', [{ filename: 'news.pdf', content: pdf }]));
    await imap.append(USER, await mail('x@supplier.com', 'INVOICE 34', [{ filename: 'notes.txt', content: 'no pdf here' }]));
    await imap.append(USER, await mail('x@supplier.com', 'invoice 35', [{ filename: 'inv-35.pdf', content: pdf }]), 'INBOX', [], old);
    const config = parseConfig(
      JSON.stringify({
        rules: [{ name: 'filtered', watch: 'inbox/filtered', workflow: 'Invoices' }],
        mailboxes: [{
          name: 'mb', host: imap.host, port: imap.port, tls: false, insecure_plaintext: true, user: USER, password: PASS, rule: 'filtered', poll_s: 0.2,
          filter: { from: ['*@supplier.com'], subject: 'invoice', attachments: ['*.pdf'], max_age_days: 30 },
        }],
      }),
      { baseDir: tree.root },
    );
    const start = () => startMailIntake({ mailbox: config.mailboxes[0]!, rule: config.rules[0]!, ledger, workDir: join(tree.root, 'mail'), logger: silentLogger, reconnectMinMs: 50 });
    const before = await imap.list(USER);
    const first = start();
    try {
      await first.checkNow();
    } finally {
      await first.stop();
    }
    const dropped = await readdir(config.rules[0]!.watch);
    assert.equal(dropped.length, 1, dropped.join(', '));
    assert.match(dropped[0]!, /^mb-\d+-1-1-inv-31\.pdf$/, 'the PNG beside it is left out');
    const afterFirst = await imap.list(USER);
    assert.deepEqual(afterFirst.map((m) => m.uid), before.map((m) => m.uid), 'every message still in INBOX');
    assert.deepEqual(afterFirst[0]!.flags, ['\\Seen']);
    assert.deepEqual(afterFirst.slice(1), before.slice(1), 'flags of the skipped ones unchanged');
    const stats = (await ledger.mailStats()).find((m) => m.mailbox === 'mb')!;
    assert.deepEqual([stats.messages, stats.files, stats.skipped], [1, 1, 4]);

    // Two more checks: the skipped messages are known, so no message body is fetched again.
    const fetched = await bodiesFetched(imap);
    assert.ok(fetched >= 2, `the taken mail and the one without a PDF were fetched (${fetched})`);
    const second = start();
    try {
      await second.checkNow();
      await second.checkNow();
    } finally {
      await second.stop();
    }
    await waitFor('dovecot logged the session out', async () => (await readFile(join(imap.dir, 'dovecot.log'), 'utf8')).split('Logged out').length > 1);
    assert.equal(await bodiesFetched(imap), fetched, 'no body fetched on later checks');
    assert.deepEqual(await imap.list(USER), afterFirst);
    assert.equal((await ledger.mailStats()).find((m) => m.mailbox === 'mb')!.skipped, 4);
    assert.deepEqual(await readdir(config.rules[0]!.watch), dropped);
  });

  test('parse_body turns a mail without attachment into an extracted PDF; include_mail adds the mail columns, formula-safe', async () => {
    const root = join(tree.root, 'daemon');
    const yaml =
      configYaml({ root, baseUrl: svc.url, apiKey: svc.keys[0]! }).replace('      group: per_document', '      group: per_document\n      include_mail: true') +
      `mailboxes:\n  - { name: ap, host: ${imap.host}, port: ${imap.port}, tls: false, insecure_plaintext: true, user: ${USER}, password: ${PASS}, rule: invoices, folder: Bodies, poll_s: 0.2, filter: { from: ["*@example.com"], parse_body: true } }\n`;
    await mkdir(root, { recursive: true });
    const { config, path } = await writeConfig(root, yaml);
    const sent = new Date('2026-11-03T09:15:00Z');
    await imap.append(
      USER,
      await mail('Vendor <vendor@example.com>', 'Invoice MAIL-7', [], {
        text: 'Hello,\n\nInvoice Number: MAIL-7\nInvoice Date: 2026-05-06\nTotal Due: 7.25\n\nRegards',
        messageId: '<mail-7@example.com>',
        date: sent,
      }),
      'Bodies',
    );
    await imap.append(USER, await mail('someone@elsewhere.org', 'Invoice 99', [{ filename: 'inv-99.pdf', content: await numberedInvoice(99) }]), 'Bodies');
    await imap.append(USER, await mail('vendor@example.com', '=HYPERLINK("http://x","y")', [{ filename: 'inv-21.pdf', content: await numberedInvoice(21) }], { messageId: '<inv-21@example.com>', date: sent }), 'Bodies');
    const daemon = await startDaemon(config, { logger: silentLogger });
    try {
      // A file dropped by hand beside them: no mail, so empty mail columns.
      await mkdir(join(root, 'inbox', 'invoices'), { recursive: true });
      await writeFile(join(root, 'inbox', 'invoices', 'by-hand.pdf'), await numberedInvoice(22));
      const outbox = join(root, 'outbox', 'invoices');
      const files = await waitFor('three CSV outputs', async () => {
        const f = (await listFiles(outbox).catch(() => [])).filter((n) => n.endsWith('.csv'));
        return f.length === 3 && f;
      }, 60_000);
      const tables = await Promise.all(files.map((f) => readCsvFile(join(outbox, f))));
      assert.deepEqual(tables[0]!.header.slice(0, 6), ['file_name', 'request_id', 'mail_from', 'mail_subject', 'mail_date', 'mail_message_id']);
      const rows = tables.flatMap((t) => t.rows);
      const body = rows.find((r) => r.invoice_number === 'MAIL-7');
      assert.ok(body, `the body PDF was extracted: ${JSON.stringify(rows)}`);
      assert.equal(body.total_due, '7.25');
      assert.match(body.file_name!, /^ap-\d+-1-body-Invoice_MAIL-7\.pdf$/);
      assert.deepEqual([body.mail_from, body.mail_subject, body.mail_date, body.mail_message_id], ['Vendor <vendor@example.com>', 'Invoice MAIL-7', sent.toISOString(), '<mail-7@example.com>']);
      const attached = rows.filter((r) => r.mail_message_id === '<inv-21@example.com>');
      assert.equal(attached.length, 2, 'two line items');
      assert.equal(attached[0]!.mail_subject, `'=HYPERLINK("http://x","y")`, 'a formula-like subject is neutralised');
      const byHand = rows.filter((r) => r.file_name === 'by-hand.pdf');
      assert.ok(byHand.length > 0);
      assert.deepEqual([byHand[0]!.mail_from, byHand[0]!.mail_subject, byHand[0]!.mail_date, byHand[0]!.mail_message_id], ['', '', '', '']);
    } finally {
      await daemon.stop();
    }
    const status = async (...args: string[]) =>
      (await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'status', '--config', path, ...args], { cwd: join(import.meta.dirname, '..', '..') })).stdout;
    const json = JSON.parse(await status('--json')) as { mailboxes: { mailbox: string; messages: number; files: number; skipped: number }[] };
    assert.deepEqual(json.mailboxes.map((m) => [m.mailbox, m.messages, m.files, m.skipped]), [['ap', 2, 2, 1]]);
    assert.match(await status(), /mailbox ap: 2 messages taken, 2 files dropped, 1 skipped by the filter, last at /);
    assert.deepEqual((await imap.list(USER, 'Bodies')).map((m) => [m.subject, m.flags]).find(([s]) => s === 'Invoice 99'), ['Invoice 99', []], 'the skipped mail is untouched');
  });
});
