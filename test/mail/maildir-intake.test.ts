// Maildir intake on real folders: attachments land in the rule's inbox, then the message is flagged seen
// (cur/, ":2,S" keeping its other flags), moved into a Maildir++ folder or deleted, only after the ledger
// has it; read mail in cur/ and tmp/ are never taken or touched; a message delivered while running is
// taken; one with nothing to drop ends in the failed folder; a missing Maildir is reported, then opened;
// the mailbox's filter leaves mail it does not take where it is, recorded skipped once, and each dropped
// file's mail origin is recorded (output.include_mail).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { parseConfig } from '../../src/daemon/config/config.js';
import { openLedger, type LedgerStore } from '../../src/daemon/ledger/open-ledger.js';
import { startMailIntake, type MailIntake } from '../../src/daemon/intake/mail/imap-intake.js';
import { silentLogger } from '../../src/shared/logger.js';
import { createMaildir, type TestMaildir } from '../helpers/maildir.js';
import { numberedInvoice, tempTree, waitFor, type TempTree } from '../daemon/pipeline-fixtures.js';

function mail(subject: string, attachments: { filename: string; content: Buffer }[] = []): Promise<Buffer> {
  return new MailComposer({ from: 'scanner@example.com', to: 'scans@localhost', subject, text: 'scan', attachments }).compile().build();
}
const invoiceMail = async (n: number) => mail(`scan ${n}`, [{ filename: `scan ${n}.pdf`, content: await numberedInvoice(n) }]);

/** One check, then stopped. */
async function checkOnce(intake: MailIntake): Promise<void> {
  try {
    await intake.checkNow();
  } finally {
    await intake.stop();
  }
}

describe('Maildir intake', () => {
  let tree: TempTree;
  let ledger: LedgerStore;
  before(async () => {
    tree = await tempTree('docdrop-maildir-');
    ledger = await openLedger({ path: join(tree.root, 'state.db'), synchronous: 'normal' });
  });
  after(async () => {
    await ledger?.close();
    await tree?.cleanup();
  });

  async function intakeFor(name: string, extra: Record<string, unknown> = {}, maildir?: TestMaildir) {
    const md = maildir ?? (await createMaildir(join(tree.root, 'mail', name)));
    const config = parseConfig(
      JSON.stringify({
        rules: [{ name, watch: `inbox/${name}`, workflow: 'Invoices' }],
        mailboxes: [{ name: `md-${name}`, maildir: md.dir, rule: name, poll_s: 3600, ...extra }],
      }),
      { baseDir: tree.root },
    );
    const rule = config.rules[0]!;
    const intake: MailIntake = startMailIntake({ mailbox: config.mailboxes[0]!, rule, ledger, workDir: join(tree.root, 'work'), logger: silentLogger, reconnectMinMs: 50 });
    return { intake, md, inbox: rule.watch, failed: join(tree.root, 'var', 'failed', name) };
  }

  test('takes new/ and unseen cur/ mail, then flags it seen in cur/ keeping its flags; read mail and tmp/ are left alone', async () => {
    const md = await createMaildir(join(tree.root, 'mail', 'seen'));
    const fresh = await md.deliver(await invoiceMail(1));
    const flagged = await md.putInCur(await invoiceMail(2), 'F');
    const read = await md.putInCur(await invoiceMail(3), 'S');
    await writeFile(join(md.dir, 'tmp', 'being-delivered'), 'half a mess');
    const { intake, inbox } = await intakeFor('seen', {}, md);
    await checkOnce(intake);
    assert.deepEqual(await readdir(inbox).then((f) => f.sort()), [`md-seen-${fresh}-1-scan 1.pdf`, `md-seen-${flagged}-1-scan 2.pdf`]);
    assert.deepEqual(await md.list('new'), []);
    assert.deepEqual(await md.list('cur'), [`${fresh}:2,S`, `${flagged}:2,FS`, `${read}:2,S`].sort());
    assert.deepEqual(await md.list('tmp'), ['being-delivered']);
    const stats = (await ledger.mailStats()).find((m) => m.mailbox === 'md-seen');
    assert.deepEqual([stats?.messages, stats?.files], [2, 2]);
  });

  test('a message the ledger already has is not dropped again, only flagged seen (crash between commit and flag)', async () => {
    const md = await createMaildir(join(tree.root, 'mail', 'again'));
    const name = await md.deliver(await invoiceMail(4));
    await ledger.recordMailDropped({ mailbox: 'md-again', name }, []);
    const { intake, inbox } = await intakeFor('again', {}, md);
    await checkOnce(intake);
    assert.deepEqual(await readdir(inbox).catch(() => []), []);
    assert.deepEqual(await md.list('cur'), [`${name}:2,S`]);
  });

  test('after: move puts the message into the Maildir++ folder .<move_to> (created with new/ cur/ tmp/); after: delete removes it', async () => {
    const moved = await intakeFor('move', { after: 'move', move_to: 'Done.Scans' });
    const name = await moved.md.deliver(await invoiceMail(5));
    const flagged = await moved.md.putInCur(await invoiceMail(6), 'F');
    await checkOnce(moved.intake);
    assert.equal((await readdir(moved.inbox)).length, 2);
    assert.deepEqual([await moved.md.list('new'), await moved.md.list('cur')], [[], []]);
    assert.deepEqual(await moved.md.list('.Done.Scans/cur'), [`${name}:2,`, `${flagged}:2,F`]);
    assert.deepEqual(await moved.md.list('.Done.Scans'), ['cur', 'maildirfolder', 'new', 'tmp']);

    const deleted = await intakeFor('delete', { after: 'delete' });
    await deleted.md.deliver(await invoiceMail(7));
    await checkOnce(deleted.intake);
    assert.equal((await readdir(deleted.inbox)).length, 1);
    assert.deepEqual([await deleted.md.list('new'), await deleted.md.list('cur')], [[], []]);
  });

  test('a message delivered while running is taken on the folder change, long before poll_s', async () => {
    const { intake, md, inbox } = await intakeFor('live');
    try {
      await intake.checkNow(); // opened and checked once: nothing there yet
      const name = await md.deliver(await invoiceMail(8));
      await waitFor('the delivered message taken', async () => (await md.list('cur')).includes(`${name}:2,S`), 20_000);
      assert.deepEqual(await readdir(inbox), [`md-live-${name}-1-scan 8.pdf`]);
    } finally {
      await intake.stop();
    }
  });

  test('a message without attachments goes to the failed folder as .eml with the reason beside it, then is flagged seen', async () => {
    const { intake, md, failed, inbox } = await intakeFor('noatt');
    const name = await md.deliver(await mail('just text'));
    await checkOnce(intake);
    const files = (await readdir(failed)).sort();
    assert.equal(files.length, 2, files.join(', '));
    assert.equal(files[0], `md-noatt-${name}.eml`);
    assert.match(await readFile(join(failed, files[0]!), 'utf8'), /Subject: just text/);
    const note = JSON.parse(await readFile(join(failed, files[1]!), 'utf8'));
    assert.equal(note.kind, 'no_attachment');
    assert.deepEqual(await readdir(inbox).catch(() => []), []);
    assert.deepEqual(await md.list('cur'), [`${name}:2,S`]);
  });

  test('filter: mail it does not take stays in new/ or cur/ as it is and is skipped once; a taken file keeps its mail origin', async () => {
    const md = await createMaildir(join(tree.root, 'mail', 'filter'));
    const from = (who: string, subject: string, attachments: { filename: string; content: Buffer }[]) =>
      new MailComposer({ from: who, to: 'scans@localhost', subject, text: 'scan', date: new Date('2026-11-03T09:15:00Z'), attachments }).compile().build();
    const pdf = await numberedInvoice(10);
    const taken = await md.deliver(await from('Scanner <scanner@example.com>', 'Invoice 10', [{ filename: 'inv.pdf', content: pdf }, { filename: 'notes.txt', content: Buffer.from('n') }]));
    const otherSender = await md.deliver(await from('x@elsewhere.org', 'Invoice 11', [{ filename: 'inv.pdf', content: pdf }]));
    const otherSubject = await md.putInCur(await from('scanner@example.com', 'newsletter', [{ filename: 'inv.pdf', content: pdf }]), 'F');
    const noPdf = await md.deliver(await from('scanner@example.com', 'Invoice 12', [{ filename: 'notes.txt', content: Buffer.from('n') }]));
    const old = await md.deliver(await from('scanner@example.com', 'Invoice 13', [{ filename: 'inv.pdf', content: pdf }]));
    const longAgo = new Date(Date.now() - 40 * 86_400_000);
    await utimes(join(md.dir, 'new', old), longAgo, longAgo);
    const filter = { from: ['*@example.com'], subject: 'invoice', attachments: ['*.pdf'], max_age_days: 30 };
    for (let check = 0; check < 2; check++) {
      const { intake, inbox } = await intakeFor('filter', { filter }, md);
      await checkOnce(intake);
      assert.deepEqual(await readdir(inbox), [`md-filter-${taken}-1-inv.pdf`], 'only the matching attachment of the matching mail');
      assert.deepEqual(await md.list('new'), [otherSender, noPdf, old].sort(), 'mail not taken stays in new/, not renamed');
      assert.deepEqual(await md.list('cur'), [`${otherSubject}:2,F`, `${taken}:2,S`].sort(), 'flags of mail not taken unchanged');
      const stats = (await ledger.mailStats()).find((m) => m.mailbox === 'md-filter');
      assert.deepEqual([stats?.messages, stats?.files, stats?.skipped], [1, 1, 4], `recorded once, check ${check + 1}`);
    }
    for (const name of [otherSender, otherSubject, noPdf, old]) assert.equal(await ledger.mailOutcome({ mailbox: 'md-filter', name }), 'skipped');
    const path = join(tree.root, 'inbox', 'filter', `md-filter-${taken}-1-inv.pdf`);
    const sha256 = createHash('sha256').update(await readFile(path)).digest('hex');
    assert.deepEqual(await ledger.mailOrigin(path, sha256), {
      from: 'Scanner <scanner@example.com>',
      subject: 'Invoice 10',
      date: '2026-11-03T09:15:00.000Z',
      messageId: (await readFile(join(md.dir, 'cur', `${taken}:2,S`), 'utf8')).match(/^Message-ID: (.*)$/im)![1]!.trim(),
    });
  });

  test('a missing Maildir is reported as not opened and retried; once it is there its mail is taken', async () => {
    const dir = join(tree.root, 'mail', 'later');
    const config = parseConfig(
      JSON.stringify({ rules: [{ name: 'later', watch: 'inbox/later', workflow: 'Invoices' }], mailboxes: [{ name: 'md-later', maildir: dir, rule: 'later' }] }),
      { baseDir: tree.root },
    );
    const statuses: string[] = [];
    const intake = startMailIntake({
      mailbox: config.mailboxes[0]!,
      rule: config.rules[0]!,
      ledger,
      workDir: join(tree.root, 'work'),
      logger: silentLogger,
      reconnectMinMs: 50,
      onStatus: (s) => statuses.push(s.loggedIn ? 'open' : s.reason),
    });
    try {
      await waitFor('the missing Maildir reported', async () => statuses.length > 0, 10_000);
      assert.match(statuses[0]!, /^no Maildir at .*later: new\/ is missing/);
      assert.equal(intake.status().loggedIn, false);
      const md = await createMaildir(dir);
      const name = await md.deliver(await invoiceMail(9));
      await waitFor('the Maildir opened and its mail taken', async () => (await md.list('cur')).includes(`${name}:2,S`), 20_000);
      assert.equal(intake.status().loggedIn, true);
    } finally {
      await intake.stop();
    }
  });
});
