// The daemon end to end with notify: configured: a real `docdrop serve`, real folders and a real SMTP
// server. A failed input is mailed to the operators and to the rule's own recipients, a finished one's
// output file is mailed to the rule's recipients as an attachment; with the SMTP server gone, inputs still
// reach their final states while the mails wait.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ServiceClient } from '../../src/api/client.js';
import { parseConfig } from '../../src/daemon/config/config.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/shared/logger.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { configYaml, invoiceTemplate, numberedInvoice, tempTree, waitFor, type TempTree } from '../daemon/pipeline-fixtures.js';

let svc: TestService;
let smtp: SmtpSink;
before(async () => {
  svc = await startTestService();
  await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
  smtp = await startSmtpSink();
});
after(async () => {
  await smtp.close();
  await svc.close();
});

async function daemonWithNotify(tree: TempTree) {
  const tree0 = parseYaml(configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]! })) as { rules: Record<string, unknown>[] };
  tree0.rules[0]!.notify = { to: ['ap@example.test'], attach_output: true };
  const notify = { smtp: { host: '127.0.0.1', port: smtp.port }, from: 'docdrop@example.test', to: ['ops@example.test'] };
  const config = parseConfig(JSON.stringify({ ...tree0, notify }), { baseDir: tree.root });
  await mkdir(config.rules[0]!.watch, { recursive: true });
  return { daemon: await startDaemon(config, { logger: silentLogger }), inbox: config.rules[0]!.watch };
}

test('mails a failure to operators and the rule, and a finished input output to the rule', async () => {
  smtp.mails.length = 0;
  const tree = await tempTree('docdrop-notify-');
  const { daemon, inbox } = await daemonWithNotify(tree);
  try {
    await writeFile(join(inbox, 'inv-1.pdf'), await numberedInvoice(1));
    await writeFile(join(inbox, 'notes.pdf'), 'plain text, not a PDF');
    const mails = await smtp.waitFor(3, 60_000);
    const to = (addr: string) => mails.filter((m) => m.to.includes(addr)).map((m) => m.subject).sort();
    assert.deepEqual(to('ops@example.test'), ['[docdrop] 1 file failed (invoices)']);
    assert.deepEqual(to('ap@example.test'), ['[docdrop] 1 file failed (invoices)', '[docdrop] inv-1.pdf processed (invoices)']);
    const failure = mails.find((m) => m.to.includes('ops@example.test'))!;
    assert.match(failure.text, /- notes\.pdf \(invoices\) failed at .*\n    unsupported_file_type: /);
    const output = mails.find((m) => m.subject.includes('processed'))!;
    assert.equal(output.attachments.length, 1);
    assert.match(output.attachments[0]!.filename, /^inv-1.*\.csv$/);
    assert.match(output.attachments[0]!.content.toString('utf8'), /INV-00001/);
  } finally {
    await daemon.stop();
    await tree.cleanup();
  }
});

test('with the SMTP server gone, inputs still reach their final states; the mails wait in the queue', async () => {
  await smtp.close();
  const tree = await tempTree('docdrop-notify-down-');
  const { daemon, inbox } = await daemonWithNotify(tree);
  try {
    await writeFile(join(inbox, 'inv-2.pdf'), await numberedInvoice(2));
    await writeFile(join(inbox, 'bad.pdf'), 'not a PDF either');
    const counts = await waitFor('both inputs final', async () => {
      const c = await daemon.ledger.countByState();
      return c.done === 1 && c.failed === 1 ? c : undefined;
    });
    assert.equal(counts.done + counts.failed, 2);
    await waitFor('the mails to wait in the queue', async () => daemon.notifier.pendingMails >= 2);
  } finally {
    await daemon.stop();
    await tree.cleanup();
    await smtp.reopen();
  }
});
