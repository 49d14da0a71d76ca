// Subjects and plain-text bodies of every alert: short, and enough to act on without opening a log.
// Everything that came from outside (file names, reasons, server replies) goes through mail-text.ts.
import type { DigestSnapshot } from './digest-stats.js';
import type { FailureItem } from './failure-batch.js';
import { duration, fileLabel, localTime, oneLine, plural } from './mail-text.js';
import type { OutageState } from './outage.js';

export interface MailContent {
  subject: string;
  text: string;
}

const PREFIX = '[docdrop]';

const ruleList = (rules: Iterable<string>) => [...new Set(rules)].sort().join(', ');

export function failuresMail(items: readonly FailureItem[], more: number): MailContent {
  const failed = items.filter((i) => i.kind === 'failed').length;
  const timedOut = items.length - failed;
  // The uncounted rest are failures as well as timeouts; the subject counts what the body lists.
  const parts = [
    ...(failed > 0 ? [`${plural(failed, 'file')} failed`] : []),
    ...(timedOut > 0 ? [`${plural(timedOut, 'job')} timed out`] : []),
  ];
  const lines = items.map((i) => {
    const where = i.finalPath ? `\n    now at: ${oneLine(i.finalPath, 500)}` : '';
    const what = i.kind === 'failed' ? 'failed' : 'timed out (re-checked slowly)';
    return `- ${fileLabel(i.file)} (${i.rule}) ${what} at ${localTime(i.at)}\n    ${oneLine(i.reason)}${where}`;
  });
  return {
    subject: `${PREFIX} ${parts.join(', ')}${more > 0 ? ` and ${more} more` : ''} (${ruleList(items.map((i) => i.rule))})`,
    text: [
      ...lines,
      ...(more > 0 ? [`... and ${more} more (see docdrop status)`] : []),
      '',
      'docdrop status --state failed lists them with their reasons; docdrop retry --failed takes them again',
      'once the cause is fixed (docdrop retry --timed-out for the timed-out ones).',
      '',
    ].join('\n'),
  };
}

export function serviceDownMail(url: string, o: OutageState, now: number): MailContent {
  return {
    subject: `${PREFIX} service unreachable for ${duration(now - o.since)}`,
    text: [
      `The document service ${oneLine(url)} has not answered since ${localTime(o.since)}.`,
      `Last error: ${oneLine(o.reason)}`,
      '',
      'Files keep being taken and wait in the ledger; they are uploaded and polled once the service is back.',
      'You get one more mail when it answers again.',
      '',
    ].join('\n'),
  };
}

export function serviceBackMail(url: string, o: OutageState & { until: number }): MailContent {
  return {
    subject: `${PREFIX} service reachable again (down ${duration(o.until - o.since)})`,
    text: `The document service ${oneLine(url)} answers again since ${localTime(o.until)}; it was unreachable from ${localTime(o.since)}.\n`,
  };
}

export function mailboxDownMail(mailbox: string, o: OutageState): MailContent {
  return {
    subject: `${PREFIX} mailbox ${mailbox} cannot log in`,
    text: [
      `The mailbox ${mailbox} has not connected since ${localTime(o.since)}.`,
      `Last error: ${oneLine(o.reason)}`,
      '',
      'docdrop keeps retrying (at most a minute apart); a refused login usually needs the password or user',
      'fixed in the config. You get one more mail when the mailbox logs in again.',
      '',
    ].join('\n'),
  };
}

export function mailboxBackMail(mailbox: string, o: OutageState & { until: number }): MailContent {
  return {
    subject: `${PREFIX} mailbox ${mailbox} logs in again`,
    text: `The mailbox ${mailbox} is connected again since ${localTime(o.until)}; it could not log in from ${localTime(o.since)}.\n`,
  };
}

export function outputMail(rule: string, file: string, attached: readonly string[], notAttached: string | null): MailContent {
  return {
    subject: `${PREFIX} ${fileLabel(file)} processed (${rule})`,
    text: [
      `${fileLabel(file)} was processed by the rule ${rule}.`,
      attached.length > 0 ? `Attached: ${attached.map(fileLabel).join(', ')}` : 'No output file was written for it.',
      ...(notAttached ? [notAttached] : []),
      '',
    ].join('\n'),
  };
}

export function digestMail(d: DigestSnapshot): MailContent {
  const rules = [...d.rules.entries()].sort(([a], [b]) => a.localeCompare(b));
  const total = (k: 'done' | 'failed') => rules.reduce((n, [, c]) => n + c[k], 0);
  const width = Math.max(4, ...rules.map(([name]) => name.length));
  const row = (cells: (string | number)[]) =>
    `  ${String(cells[0]).padEnd(width)}  ${cells.slice(1).map((c) => String(c).padStart(10)).join('')}`;
  const failedCount = total('failed');
  return {
    subject: `${PREFIX} daily digest: ${total('done')} done, ${failedCount} failed`,
    text: [
      `From ${localTime(d.since)} to ${localTime(d.until)}.`,
      '',
      ...(rules.length === 0
        ? ['No input finished.']
        : [row(['rule', 'done', 'failed', 'duplicate', 'timed out']), ...rules.map(([name, c]) => row([name, c.done, c.failed, c.duplicate, c.timed_out]))]),
      '',
      ...(d.failures.length > 0
        ? [
            `Failures${failedCount > d.failures.length ? ` (first ${d.failures.length} of ${failedCount})` : ''}:`,
            ...d.failures.map((f) => `- ${fileLabel(f.file)} (${f.rule}): ${oneLine(f.reason)}`),
            '',
          ]
        : []),
      ...(d.slowest.length > 0
        ? ['Slowest steps:', ...d.slowest.map((s) => `- ${duration(s.ms).padStart(8)}  ${s.from} -> ${s.to}  ${fileLabel(s.file)} (${s.rule})`), '']
        : []),
    ].join('\n'),
  };
}
