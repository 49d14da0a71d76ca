// Crash safety of the Maildir intake, as mail-crash.test.ts does for IMAP: the daemon (a child process)
// is killed with SIGKILL at random moments while scanned invoices are delivered into a real Maildir (half
// before the first start, half while the daemons run and die), then restarted until every one is done.
// Afterwards each invoice has exactly one output row, every message sits in cur/ flagged seen and is
// recorded once, tmp/ is untouched, and a re-dropped attachment is at most a skipped duplicate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { ServiceClient } from '../../src/api/client.js';
import { openLedger } from '../../src/daemon/ledger/open-ledger.js';
import type { DaemonProcess } from '../../bench/daemon-process.js';
import { createMaildir } from '../helpers/maildir.js';
import { startTestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, numberedInvoice, tempTree, writeConfig } from '../daemon/pipeline-fixtures.js';
import { assertOneOutputEach, killAndRecover } from './crash-fixtures.js';

const MESSAGES = 120;
const KILLS = 6;

test(
  'Maildir: after SIGKILL at random moments and restarts, every delivered invoice has exactly one output row',
  { timeout: 300_000 },
  async (t) => {
    const svc = await startTestService();
    const tree = await tempTree('docdrop-maildir-crash-');
    const children: DaemonProcess[] = [];
    try {
      await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
      const md = await createMaildir(join(tree.root, 'Maildir'));
      await writeFile(join(md.dir, 'tmp', 'being-delivered'), 'half a message');
      const yaml =
        configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]!, requestsPerSecond: 1000, logLevel: 'info' }) +
        `mailboxes:\n  - { name: scans, maildir: ${md.dir}, rule: invoices, poll_s: 0.2 }\n`;
      const { path: configPath, config } = await writeConfig(tree.root, yaml);
      const numbers: string[] = [];
      const messages: Buffer[] = [];
      for (let i = 1; i <= MESSAGES; i++) {
        numbers.push(`INV-${String(100 + i).padStart(5, '0')}`);
        const content = await numberedInvoice(100 + i);
        messages.push(await new MailComposer({ from: 'scanner@example.com', to: 'scans@localhost', subject: `scan ${i}`, text: 'x', attachments: [{ filename: `inv-${i}.pdf`, content }] }).compile().build());
      }
      for (const m of messages.slice(0, MESSAGES / 2)) await md.deliver(m);
      const later = messages.slice(MESSAGES / 2);

      const ledger = await openLedger(config.state);
      try {
        await killAndRecover({
          configPath, ledger, kills: KILLS, expected: MESSAGES, children, t,
          // Mail keeps arriving while daemons run and die; the rest once they are done dying.
          whileRunning: async (k) => {
            for (const m of later.splice(0, k === KILLS - 1 ? later.length : MESSAGES / 2 / KILLS)) await md.deliver(m);
          },
          settled: async () => (await md.list('new')).length === 0 && (await md.list('cur')).every((f) => f.endsWith(':2,S')),
        });
      } finally {
        await ledger.close();
      }

      assert.deepEqual(await md.list('new'), []);
      assert.equal((await md.list('cur')).length, MESSAGES, 'every message once in cur/, flagged seen');
      assert.deepEqual(await md.list('tmp'), ['being-delivered']);
      await assertOneOutputEach(join(tree.root, 'outbox', 'invoices'), numbers);
    } finally {
      for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
      await svc.close();
      await tree.cleanup();
    }
  },
);
