// Crash safety of the mailbox intake: the daemon (a child process) is killed with SIGKILL at random
// moments while mailed invoices flow from dovecot, then restarted until every one is done. Afterwards
// each invoice has exactly one output row, every message is flagged seen and recorded once, and a
// re-dropped attachment (crash between writing it and the ledger commit) is at most a skipped duplicate.
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
        `mailboxes:\n  - { name: ap, host: ${imap.host}, port: ${imap.port}, tls: false, insecure_plaintext: true, user: ${USER}, password: ${PASS}, rule: invoices, poll_s: 0.2 }\n`;
      const { path: configPath, config } = await writeConfig(tree.root, yaml);
      const numbers: string[] = [];
      for (let i = 1; i <= MESSAGES; i++) {
        numbers.push(`INV-${String(100 + i).padStart(5, '0')}`);
        const content = await numberedInvoice(100 + i);
        await imap.append(USER, await new MailComposer({ from: 'v@example.com', to: USER, subject: `inv ${i}`, text: 'x', attachments: [{ filename: `inv-${i}.pdf`, content }] }).compile().build());
      }

      const ledger = await openLedger(config.state);
      try {
        await killAndRecover({ configPath, ledger, kills: KILLS, expected: MESSAGES, children, t });
      } finally {
        await ledger.close();
      }

      const unseen = (await imap.list(USER)).filter((m) => !m.flags.includes('\\Seen'));
      assert.deepEqual(unseen, [], 'every message flagged seen');
      await assertOneOutputEach(join(tree.root, 'outbox', 'invoices'), numbers);
    } finally {
      for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
      await imap.stop();
      await svc.close();
      await tree.cleanup();
    }
  },
);
