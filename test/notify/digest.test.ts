// The daily digest at digest.at local time, on virtual time, to a real SMTP server: counts per rule,
// the failures and the slowest steps since the last digest; then the next day's, which starts afresh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextLocalTime } from '../../src/daemon/notify/digest-schedule.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { settingsFor, virtualNotifier } from './notify-fixtures.js';

let smtp: SmtpSink;
before(async () => {
  smtp = await startSmtpSink();
});
after(() => smtp.close());

test('nextLocalTime finds the next HH:MM of the local calendar', () => {
  const at = (h: number, m: number, day = 15) => new Date(2026, 0, day, h, m).getTime();
  assert.equal(nextLocalTime(at(6, 30), '07:00'), at(7, 0));
  assert.equal(nextLocalTime(at(7, 0), '07:00'), at(7, 0, 16), 'exactly at the time: the next day');
  assert.equal(nextLocalTime(at(23, 59), '00:00'), at(0, 0, 16));
});

test('sends the digest at digest.at with counts per rule, failures and slowest steps, then daily', async () => {
  const start = new Date(2026, 0, 15, 6, 30).getTime();
  const { notifier, scheduler } = virtualNotifier(settingsFor(smtp.port, { digest: { at: '07:00' }, to: ['boss@example.test'] }), { start });
  const file = (name: string) => `/srv/in/invoices/${name}`;
  for (const name of ['a.pdf', 'b.pdf']) notifier.record({ type: 'input_done', rule: 'invoices', file: file(name), outputs: [] });
  notifier.record({ type: 'input_done', rule: 'receipts', file: '/srv/in/receipts/r.jpg', outputs: [] });
  notifier.record({ type: 'input_duplicate', rule: 'invoices', file: file('a (1).pdf') });
  notifier.record({ type: 'step_done', rule: 'invoices', file: file('a.pdf'), from: 'submitted', to: 'extracted', ms: 42_000 });
  notifier.record({ type: 'step_done', rule: 'invoices', file: file('b.pdf'), from: 'queued', to: 'uploaded', ms: 1_500 });
  notifier.record({ type: 'input_failed', rule: 'invoices', file: file('c.pdf'), reason: 'job_failed', message: 'no text', finalPath: null });
  // The failure itself is alerted at once; the digest is the second mail.
  await smtp.waitFor(1);

  await scheduler.advance(29 * 60_000);
  assert.equal(smtp.mails.length, 1, 'no digest before 07:00');
  await scheduler.advance(60_000);
  const digest = (await smtp.waitFor(2))[1]!;
  assert.equal(digest.subject, '[docdrop] daily digest: 3 done, 1 failed');
  assert.deepEqual(digest.to, ['boss@example.test']);
  const text = digest.text;
  assert.match(text, /^From 2026-01-15 06:30 to 2026-01-15 07:00\./);
  assert.match(text, /rule\s+done\s+failed\s+duplicate\s+timed out\n\s+invoices\s+2\s+1\s+1\s+0\n\s+receipts\s+1\s+0\s+0\s+0/);
  assert.match(text, /Failures:\n- c\.pdf \(invoices\): job_failed: no text/);
  assert.match(text, /Slowest steps:\n-\s+42 s\s+submitted -> extracted\s+a\.pdf \(invoices\)\n-\s+1\.5 s\s+queued -> uploaded\s+b\.pdf \(invoices\)/);

  await scheduler.advance(24 * 3600_000);
  const next = (await smtp.waitFor(3))[2]!;
  assert.equal(next.subject, '[docdrop] daily digest: 0 done, 0 failed');
  assert.match(next.text, /^From 2026-01-15 07:00 to 2026-01-16 07:00\.\n\nNo input finished\./);
  await notifier.stop();
  assert.equal(scheduler.pendingTimers, 0);
});
