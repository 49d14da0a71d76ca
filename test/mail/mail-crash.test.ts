// Crash safety of the mailbox intake: the daemon (a child process) is killed with SIGKILL at random
// moments while mailed invoices flow from dovecot, then restarted until every one is done. Afterwards
// each invoice has exactly one output row, every message is flagged seen and recorded once, and a
// re-dropped attachment (crash between writing it and the ledger commit) is at most a skipped duplicate.
// The mailbox has a filter: mail it does not take (another sender, or no PDF) is never touched (flags
// unchanged, still in INBOX) and recorded skipped once; the invoices' rows carry their mail's columns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { ServiceClient } from '../../src/api/client.js';
import { openLedger } from '../../src/daemon/ledger/open-ledger.js';
import type { DaemonProcess } from '../../bench/daemon-process.js';
import { hasDovecot, startDovecot } from '../helpers/dovecot.js';
import { startTestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, numberedInvoice, tempTree, writeConfig } from '../daemon/pipeline-fixtures.js';
import { assertOneOutputEach, killAndRecover } from './crash-fixtures.js';

const MESSAGES = 120;
/** Mail the filter does not take, one after every 8th invoice: from another sender, or with no PDF. */
const OTHERS = MESSAGES / 8;
const KILLS = 6;
const USER = 'crash@test';
const PASS = 'crash-pass';

test(
  'after SIGKILL at random moments and restarts, every mailed invoice has exactly one output row',
  { skip: !hasDovecot && 'dovecot not installed (apt-get install dovecot-imapd) or not root', timeout: 300_000 },
  async (t) => {
    const svc = await startTestService();
    const imap = await startDovecot({ [USER]: PASS });
    const tree = await tempTree('docdrop-mail-crash-');
    const children: DaemonProcess[] = [];
    try {
      await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
      const yaml =
        configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]!, requestsPerSecond: 1000, logLevel: 'info' }) +
        `mailboxes:\n  - { name: ap, host: ${imap.host}, port: ${imap.port}, tls: false, insecure_plaintext: true, user: ${USER}, password: ${PASS}, rule: invoices, poll_s: 0.2,\n` +
        `      filter: { from: ["*@example.com"], attachments: ["*.pdf"] } }\n`;
      const { path: configPath, config } = await writeConfig(tree.root, yaml.replace('      group: per_document', '      group: per_document\n      include_mail: true'));
      const numbers: string[] = [];
      for (let i = 1; i <= MESSAGES; i++) {
        numbers.push(`INV-${String(100 + i).padStart(5, '0')}`);
        const content = await numberedInvoice(100 + i);
        const notes = { filename: `notes-${i}.txt`, content: 'left out by filter.attachments' };
        await imap.append(USER, await new MailComposer({ from: 'v@example.com', to: USER, subject: `inv ${i}`, text: 'x', attachments: [{ filename: `inv-${i}.pdf`, content }, notes] }).compile().build());
        if (i % 8 === 0) {
          const other = (i / 8) % 2 === 0 ? { from: 'v@elsewhere.org', attachments: [{ filename: `x-${i}.pdf`, content }] } : { from: 'v@example.com', attachments: [notes] };
          await imap.append(USER, await new MailComposer({ to: USER, subject: `other ${i}`, text: 'x', ...other }).compile().build());
        }
      }
      const others = (await imap.list(USER)).filter((m) => m.subject?.startsWith('other '));
      assert.equal(others.length, OTHERS);

      const ledger = await openLedger(config.state);
      try {
        // Every message taken and every one the filter leaves out recorded skipped, once each.
        const settled = async () => (await ledger.mailStats())[0]?.skipped === OTHERS;
        await killAndRecover({ configPath, ledger, kills: KILLS, expected: MESSAGES, children, t, settled });
      } finally {
        await ledger.close();
      }

      const inbox = await imap.list(USER);
      const unseen = inbox.filter((m) => !m.flags.includes('\\Seen') && !m.subject?.startsWith('other '));
      assert.deepEqual(unseen, [], 'every invoice message flagged seen');
      assert.deepEqual(inbox.filter((m) => m.subject?.startsWith('other ')), others, 'mail the filter does not take is untouched, still in INBOX');
      await assertOneOutputEach(join(tree.root, 'outbox', 'invoices'), numbers, (r, f) => {
        // The row's mail columns name the mail its invoice came in (recorded before the drop, so across kills too).
        assert.equal(r.mail_subject, `inv ${Number(r.invoice_number!.slice(4)) - 100}`, `${f}: ${JSON.stringify(r)}`);
        assert.equal(r.mail_from, 'v@example.com');
      });
    } finally {
      for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
      await imap.stop();
      await svc.close();
      await tree.cleanup();
    }
  },
);
