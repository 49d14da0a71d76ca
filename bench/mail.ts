// bench/mail: N messages, each with a PDF attachment, in a real dovecot on loopback; the mailbox intake
// drops them into an inbox folder. Prints messages/s from the first check to the last message flagged,
// the intake's CPU per message and the process's peak RSS. Needs dovecot and root (as the tests).
//   npx tsx bench/mail.ts [--messages N] [--attachment-kb K]
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { parseConfig } from '../src/daemon/config/config.js';
import { openLedger } from '../src/daemon/ledger/open-ledger.js';
import { startMailIntake } from '../src/daemon/intake/mail/imap-intake.js';
import { silentLogger } from '../src/shared/logger.js';
import { hasDovecot, startDovecot } from '../test/helpers/dovecot.js';
import { vmHwmKb } from './daemon-process.js';

const { values } = parseArgs({ options: { messages: { type: 'string', default: '200' }, 'attachment-kb': { type: 'string', default: '100' } } });
const N = Number(values.messages);
const KB = Number(values['attachment-kb']);
if (!hasDovecot) {
  console.log('bench/mail: skipped, needs dovecot (apt-get install dovecot-imapd) and root');
  process.exit(0);
}

const USER = 'bench@test';
const PASS = 'bench-pass';
const imap = await startDovecot({ [USER]: PASS });
const root = await mkdtemp(join(tmpdir(), 'docdrop-bench-mail-'));
const ledger = await openLedger({ path: join(root, 'state.db'), synchronous: 'normal' });
try {
  // Distinct bytes per message: the attachment's content does not matter to the intake, only its size.
  const filler = Buffer.alloc(KB * 1024, 'x');
  for (let i = 0; i < N; i++) {
    const raw = await new MailComposer({
      from: 'vendor@example.com',
      to: USER,
      subject: `invoice ${i}`,
      text: 'attached',
      attachments: [{ filename: `inv-${i}.pdf`, content: Buffer.concat([Buffer.from(`%PDF-1.4\n% ${i}\n`), filler]) }],
    })
      .compile()
      .build();
    await imap.append(USER, raw);
  }
  const config = parseConfig(
    JSON.stringify({
      rules: [{ name: 'invoices', watch: 'inbox', workflow: 'Invoices' }],
      mailboxes: [{ name: 'ap', host: imap.host, port: imap.port, tls: false, insecure_plaintext: true, user: USER, password: PASS, rule: 'invoices', poll_s: 3600 }],
    }),
    { baseDir: root },
  );
  const cpu = process.cpuUsage();
  const started = performance.now();
  const intake = startMailIntake({ mailbox: config.mailboxes[0]!, rule: config.rules[0]!, ledger, workDir: join(root, 'mail'), logger: silentLogger });
  await intake.checkNow();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await intake.stop();
  const dropped = (await readdir(config.rules[0]!.watch)).length;
  const unseen = (await imap.list(USER)).filter((m) => !m.flags.includes('\\Seen')).length;
  console.log(
    [
      `messages              ${N} with one ${KB} KB attachment each; ${dropped} files dropped, ${unseen} left unseen`,
      `throughput            ${(N / seconds).toFixed(1)} messages/s (${seconds.toFixed(2)} s, connect included)`,
      `intake CPU            ${((used.user + used.system) / 1000 / N).toFixed(2)} ms per message`,
      `peak RSS              ${((await vmHwmKb(process.pid)) / 1024).toFixed(1)} MB (VmHWM of this process)`,
    ].join('\n'),
  );
  if (dropped !== N || unseen !== 0) process.exitCode = 1;
} finally {
  await ledger.close();
  await imap.stop();
  await rm(root, { recursive: true, force: true });
}
