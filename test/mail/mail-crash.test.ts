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
import { startDaemonProcess, type DaemonProcess } from '../../bench/daemon-process.js';
import { hasDovecot, startDovecot } from '../helpers/dovecot.js';
import { startTestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, listFiles, numberedInvoice, readCsvFile, tempTree, waitFor, writeConfig } from '../daemon/pipeline-fixtures.js';

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
        const doneAtKill: string[] = [];
        for (let k = 0; k < KILLS; k++) {
          const child = await startDaemonProcess(configPath, { tsx: true });
          children.push(child);
          // The first kills come early, while mail is being taken; later ones hit the pipeline.
          await new Promise((r) => setTimeout(r, k < 3 ? Math.random() * 500 : 100 + Math.random() * 700));
          child.child.kill('SIGKILL');
          await child.exited;
          doneAtKill.push(`${(await ledger.mailStats())[0]?.messages ?? 0}/${(await ledger.countByState()).done}`);
        }
        t.diagnostic(`messages taken / inputs done at each kill: ${doneAtKill.join(', ')}`);
        const last = await startDaemonProcess(configPath, { tsx: true });
        children.push(last);
        await waitFor(
          'every mailed invoice done and every message taken',
          async () => {
            const c = await ledger.countByState();
            const taken = (await ledger.mailStats())[0]?.messages ?? 0;
            const active = c.queued + c.uploaded + c.submitted + c.extracted + c.written + c.timed_out;
            return c.done === MESSAGES && taken === MESSAGES && active === 0 ? c : undefined;
          },
          120_000,
        ).catch((err: Error) => {
          throw new Error(`${err.message}\nlast daemon stderr:\n${last.log().slice(-4000)}`);
        });
        last.child.kill('SIGTERM');
        await last.exited;
        const counts = await ledger.countByState();
        assert.equal(counts.failed, 0);
        t.diagnostic(`re-dropped attachments skipped as duplicates: ${counts.duplicate}`);
      } finally {
        await ledger.close();
      }

      const unseen = (await imap.list(USER)).filter((m) => !m.flags.includes('\\Seen'));
      assert.deepEqual(unseen, [], 'every message flagged seen');
      const outDir = join(tree.root, 'outbox', 'invoices');
      const perNumber = new Map<string, number>();
      for (const f of (await listFiles(outDir)).filter((n) => n.endsWith('.csv'))) {
        for (const r of (await readCsvFile(join(outDir, f))).rows) perNumber.set(r.invoice_number!, (perNumber.get(r.invoice_number!) ?? 0) + 1);
      }
      // Two line items per invoice: two rows each, never four.
      assert.deepEqual([...perNumber.keys()].sort(), numbers);
      assert.deepEqual([...new Set(perNumber.values())], [2], 'no invoice written twice');
    } finally {
      for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
      await imap.stop();
      await svc.close();
      await tree.cleanup();
    }
  },
);
