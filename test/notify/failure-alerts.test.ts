// Failure alerts to a real SMTP server on loopback, on virtual time: the first failure is mailed at once,
// the ones after it wait for min_interval_s and go in one mail listing files, rules and reasons; a rule's
// own recipients get its failures as well; names from outside are sanitised.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { OPS, settingsFor, until, virtualNotifier } from './notify-fixtures.js';

let smtp: SmtpSink;
before(async () => {
  smtp = await startSmtpSink();
});
after(() => smtp.close());

const failed = (file: string, rule = 'invoices', reason = 'job_failed') =>
  ({ type: 'input_failed', rule, file: `/srv/in/${rule}/${file}`, reason, message: 'the job ended failed', finalPath: `/srv/failed/${rule}/${file}` }) as const;

test('mails the first failure at once, then the next ones together once min_interval_s has passed', async () => {
  smtp.mails.length = 0;
  const { notifier, scheduler } = virtualNotifier(settingsFor(smtp.port, { failures: { min_interval_s: 300 } }));
  notifier.record(failed('a.pdf'));
  const [first] = await smtp.waitFor(1);
  assert.equal(first!.subject, '[docdrop] 1 file failed (invoices)');
  assert.deepEqual(first!.to, [OPS]);
  assert.equal(first!.from, 'docdrop@example.test');
  assert.match(first!.text, /- a\.pdf \(invoices\) failed at .*\n    job_failed: the job ended failed\n    now at: \/srv\/failed\/invoices\/a\.pdf/);
  await until('the first mail to leave the queue', () => notifier.pendingMails === 0);

  notifier.record(failed('b.pdf'));
  notifier.record(failed('c.pdf', 'receipts', 'unsupported_file_type'));
  notifier.record({ type: 'input_timed_out', rule: 'invoices', file: '/srv/in/invoices/d.pdf', message: 'job still pending after 600 s' });
  await scheduler.advance(299_000);
  assert.equal(notifier.pendingMails, 0, 'nothing is sent before the interval');
  assert.equal(smtp.mails.length, 1);

  await scheduler.advance(1_000);
  const [, batch] = await smtp.waitFor(2);
  assert.equal(batch!.subject, '[docdrop] 2 files failed, 1 job timed out (invoices, receipts)');
  assert.match(batch!.text, /- b\.pdf \(invoices\) failed/);
  assert.match(batch!.text, /- c\.pdf \(receipts\) failed at .*\n    unsupported_file_type: the job ended failed/);
  assert.match(batch!.text, /- d\.pdf \(invoices\) timed out \(re-checked slowly\).*\n    job still pending after 600 s/);
  assert.match(batch!.text, /docdrop retry --failed/);

  // A quiet interval later, a failure is mailed at once again.
  await scheduler.advance(600_000);
  notifier.record(failed('e.pdf'));
  const [, , third] = await smtp.waitFor(3);
  assert.equal(third!.subject, '[docdrop] 1 file failed (invoices)');
  await notifier.stop();
  assert.equal(scheduler.pendingTimers, 0, 'stop() leaves no timer behind');
});

test("a rule's own recipients get that rule's failures; failures still waiting are sent at stop", async () => {
  smtp.mails.length = 0;
  const { notifier, scheduler } = virtualNotifier(settingsFor(smtp.port, {}, { to: ['ap@example.test'] }));
  notifier.record(failed('a.pdf'));
  notifier.record(failed('r.pdf', 'receipts'));
  await smtp.waitFor(2);
  const toAp = smtp.mails.filter((m) => m.to.includes('ap@example.test'));
  assert.deepEqual(toAp.map((m) => m.subject), ['[docdrop] 1 file failed (invoices)'], 'receipts is not their rule');
  // r.pdf waits in the operators' batch (a.pdf was just mailed); b.pdf joins it, and the rule's own batch.
  notifier.record(failed('b.pdf'));
  await notifier.stop();
  const mails = await smtp.waitFor(4);
  assert.deepEqual(
    mails.slice(2).map((m) => [m.to.join(','), m.subject]).sort(),
    [
      ['ap@example.test', '[docdrop] 1 file failed (invoices)'],
      [OPS, '[docdrop] 2 files failed (invoices, receipts)'],
    ],
  );
  assert.equal(scheduler.pendingTimers, 0);
});

test('file names and reasons from outside cannot add lines or reorder text in the mail', async () => {
  smtp.mails.length = 0;
  const { notifier } = virtualNotifier(settingsFor(smtp.port));
  notifier.record({
    type: 'input_failed',
    rule: 'invoices',
    file: '/srv/in/invoices/evil\n- fake.pdf (invoices) done\u202Efdp.exe',
    reason: 'job_failed',
    message: 'bad\r\nSubject: injected\u0007',
    finalPath: null,
  });
  const [m] = await smtp.waitFor(1);
  assert.equal(m!.subject, '[docdrop] 1 file failed (invoices)');
  const lines = m!.text.split('\n');
  assert.match(lines[0]!, /^- evil- fake\.pdf \(invoices\) donefdp\.exe \(invoices\) failed at \d{4}-\d\d-\d\d \d\d:\d\d$/);
  assert.equal(lines[1], '    job_failed: bad Subject: injected');
  await notifier.stop();
});

test('update() replaces recipients and intervals (a reload); update(null) mails nothing', async () => {
  smtp.mails.length = 0;
  const { notifier, scheduler } = virtualNotifier(settingsFor(smtp.port));
  notifier.update(settingsFor(smtp.port, { to: ['new-ops@example.test'], failures: { min_interval_s: 10 } }));
  notifier.record(failed('a.pdf'));
  notifier.record(failed('b.pdf'));
  await scheduler.advance(10_000);
  const mails = await smtp.waitFor(2);
  assert.deepEqual(mails.map((m) => [m.to.join(','), m.subject]), [
    ['new-ops@example.test', '[docdrop] 1 file failed (invoices)'],
    ['new-ops@example.test', '[docdrop] 1 file failed (invoices)'],
  ]);
  await until('the queue to empty', () => notifier.pendingMails === 0);
  notifier.update(null);
  notifier.record(failed('c.pdf'));
  await scheduler.advance(60_000);
  assert.equal(notifier.pendingMails, 0);
  await notifier.stop();
  assert.equal(smtp.mails.length, 2);
  assert.equal(scheduler.pendingTimers, 0);
});
