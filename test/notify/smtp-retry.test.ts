// A mail the SMTP server does not take is retried with backoff and never holds up the caller: record()
// returns at once while the server is down, the mail goes out once it is back. The queue is bounded:
// the oldest waiting mails give way, and how many is logged. Real SMTP server, virtual time.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { captureLog, settingsFor, until, virtualNotifier } from './notify-fixtures.js';

let smtp: SmtpSink;
before(async () => {
  smtp = await startSmtpSink();
});
after(() => smtp.close());

test('SMTP server down then up: the alert is retried with backoff and sent once the server is back', async () => {
  smtp.mails.length = 0;
  await smtp.close();
  const log = captureLog();
  const { notifier, scheduler } = virtualNotifier(settingsFor(smtp.port), { logger: log.logger });
  notifier.record({ type: 'input_failed', rule: 'invoices', file: '/in/a.pdf', reason: 'job_failed', message: 'x', finalPath: null });
  // record() returned at once: the pipeline goes on; the mail waits in the queue.
  assert.equal(notifier.pendingMails, 1);
  // (nodemailer's sockets do not keep the process alive, so wait with until(), not whenPending().)
  await until('the first attempt to fail and schedule its retry', () => scheduler.pendingTimers === 1);
  assert.ok(log.lines().some((l) => l.msg === 'could not send mail; will retry' && /ECONNREFUSED/.test(String(l.err))));
  await scheduler.advance(10_000);
  await until('the second attempt to fail', () => scheduler.pendingTimers === 1 && log.lines().filter((l) => l.retryInMs).length === 2);
  assert.equal(notifier.pendingMails, 1);

  await smtp.reopen();
  await scheduler.advance(300_000);
  const [m] = await smtp.waitFor(1);
  assert.equal(m!.subject, '[docdrop] 1 file failed (invoices)');
  await until('the queue to empty', () => notifier.pendingMails === 0);
  await notifier.stop();
  assert.equal(scheduler.pendingTimers, 0);
});

test('while the server is gone, the queue keeps max_queued mails, dropping the oldest waiting ones and logging how many', async () => {
  smtp.mails.length = 0;
  await smtp.close();
  const log = captureLog();
  const { notifier, scheduler } = virtualNotifier(settingsFor(smtp.port, { max_queued: 2 }), { logger: log.logger });
  // A refused login is alerted at once: four mails at once.
  for (const mailbox of ['a', 'b', 'c', 'd']) notifier.record({ type: 'mailbox_down', mailbox, reason: 'Authentication failed', authentication: true });
  assert.equal(notifier.pendingMails, 2, 'the mail being tried (a) and the newest (d)');
  assert.ok(log.lines().some((l) => String(l.msg).startsWith('mail queue full')));
  await until('the first attempt to fail', () => scheduler.pendingTimers === 1);
  await smtp.reopen();
  await scheduler.advance(300_000);
  const mails = await smtp.waitFor(2);
  assert.deepEqual(mails.map((m) => m.subject), ['[docdrop] mailbox a cannot log in', '[docdrop] mailbox d cannot log in']);
  await until('the drop count to be logged', () => log.lines().some((l) => l.dropped === 2));
  await notifier.stop();
});

test('a mail still unsent at stop is tried once more and reported, with no timer left', async () => {
  await smtp.close();
  const log = captureLog();
  const { notifier, scheduler } = virtualNotifier(settingsFor(smtp.port), { logger: log.logger });
  notifier.record({ type: 'mailbox_down', mailbox: 'a', reason: 'Authentication failed', authentication: true });
  await until('the first attempt to fail', () => scheduler.pendingTimers === 1);
  await notifier.stop();
  assert.ok(log.lines().some((l) => l.unsent === 1));
  assert.equal(scheduler.pendingTimers, 0);
  await smtp.reopen();
});
