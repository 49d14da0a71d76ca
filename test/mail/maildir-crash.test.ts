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
import { startDaemonProcess, type DaemonProcess } from '../../bench/daemon-process.js';
import { createMaildir } from '../helpers/maildir.js';
import { startTestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, listFiles, numberedInvoice, readCsvFile, tempTree, waitFor, writeConfig } from '../daemon/pipeline-fixtures.js';

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
        const doneAtKill: string[] = [];
        for (let k = 0; k < KILLS; k++) {
          const child = await startDaemonProcess(configPath, { tsx: true });
          children.push(child);
          // Mail keeps arriving while daemons run and die; the first kills come early, while mail is taken.
          for (const m of later.splice(0, MESSAGES / 2 / KILLS)) await md.deliver(m);
          await new Promise((r) => setTimeout(r, k < 3 ? Math.random() * 500 : 100 + Math.random() * 700));
          child.child.kill('SIGKILL');
          await child.exited;
          doneAtKill.push(`${(await ledger.mailStats())[0]?.messages ?? 0}/${(await ledger.countByState()).done}`);
        }
        for (const m of later.splice(0)) await md.deliver(m);
        t.diagnostic(`messages taken / inputs done at each kill: ${doneAtKill.join(', ')}`);
        const last = await startDaemonProcess(configPath, { tsx: true });
        children.push(last);
        await waitFor(
          'every delivered invoice done and every message taken',
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
        await waitFor('every message flagged seen', async () => (await md.list('new')).length === 0 && (await md.list('cur')).every((f) => f.endsWith(':2,S')), 20_000);
        last.child.kill('SIGTERM');
        await last.exited;
        const counts = await ledger.countByState();
        assert.equal(counts.failed, 0);
        t.diagnostic(`re-dropped attachments skipped as duplicates: ${counts.duplicate}`);
      } finally {
        await ledger.close();
      }

      assert.deepEqual(await md.list('new'), []);
      assert.equal((await md.list('cur')).length, MESSAGES, 'every message once in cur/, flagged seen');
      assert.deepEqual(await md.list('tmp'), ['being-delivered']);
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
      await svc.close();
      await tree.cleanup();
    }
  },
);
