// Alerts by e-mail: the NotifySink the daemon feeds, and what turns events into mails. Failures and
// timeouts are batched (failure-batch.ts) for notify.to and for each rule's own recipients; the service
// (probed, service-probe.ts) and each mailbox are tracked for outages (outage.ts); a digest goes out daily
// (digest-stats.ts, digest-schedule.ts); a rule may have each finished input's outputs mailed. Every mail
// goes through one bounded queue (mail-queue.ts), so nothing here ever waits for the SMTP server.
import { stat } from 'node:fs/promises';
import type { Logger } from '../../shared/logger.js';
import { realScheduler, type Cancel, type Scheduler } from '../../shared/scheduler.js';
import { scheduleDaily } from './digest-schedule.js';
import { DigestStats } from './digest-stats.js';
import { FailureBatch } from './failure-batch.js';
import { MailQueue, type OutgoingMail } from './mail-queue.js';
import { oneLine } from './mail-text.js';
import type { NotifyEvent, NotifySink } from './notify-events.js';
import { Outage } from './outage.js';
import {
  digestMail,
  failuresMail,
  mailboxBackMail,
  mailboxDownMail,
  outputMail,
  serviceBackMail,
  serviceDownMail,
  type MailContent,
} from './render-mail.js';
import { startServiceProbe } from './service-probe.js';
import type { NotifySettings } from './settings.js';
import { smtpSender } from './smtp-transport.js';

export interface NotifierOptions {
  /** Null: nothing is mailed until update() brings settings. */
  settings: NotifySettings | null;
  logger: Logger;
  /** Clock and timers of batching, digest, probe and retries; a VirtualScheduler in tests. */
  scheduler?: Scheduler;
  /** The service as mails name it (credentials already redacted). */
  serviceUrl: string;
  /** Asks the service a cheap question with the daemon's key; without it the service is not watched. */
  ping?: () => Promise<unknown>;
}

export interface Notifier extends NotifySink {
  /** Replaces the settings (a config reload): recipients, intervals, SMTP server, digest time. Null: mail nothing. */
  update(settings: NotifySettings | null): void;
  /** Sends the failures still waiting for their interval, gives queued mails one more try, cancels every timer. */
  stop(): Promise<void>;
  /** Mails waiting for the SMTP server. */
  readonly pendingMails: number;
}

/** The global recipients' batch; rules' batches are keyed by rule name. */
const OPS = '\0ops';

export function createNotifier(o: NotifierOptions): Notifier {
  const scheduler = o.scheduler ?? realScheduler;
  const log = o.logger.child({ component: 'notify' });
  let settings: NotifySettings | null = null;
  let send: ((mail: OutgoingMail) => Promise<void>) | null = null;
  const queue = new MailQueue({
    send: (mail) => (send ? send(mail) : Promise.resolve()),
    scheduler,
    logger: log,
    maxQueued: () => settings?.notify.max_queued ?? 100,
  });
  const stats = new DigestStats(scheduler.now());
  const batches = new Map<string, FailureBatch>();
  const mailboxes = new Map<string, Outage>();
  const attachments = new Set<Promise<void>>();
  let digest: Cancel | null = null;
  let probe: { stop(): Promise<void> } | null = null;
  let stopped = false;

  const recipients = (key: string): readonly string[] => (key === OPS ? settings?.notify.to : settings?.rules.get(key)?.to) ?? [];
  const mail = (to: readonly string[], content: MailContent, files?: OutgoingMail['attachments']) => {
    if (settings && to.length > 0) queue.enqueue({ to, ...content, ...(files ? { attachments: files } : {}) });
  };
  const downAfterMs = () => (settings?.notify.down_after_s ?? 300) * 1000;

  const batch = (key: string) => {
    let b = batches.get(key);
    if (!b) {
      b = new FailureBatch({
        scheduler,
        intervalMs: () => (settings?.notify.failures.min_interval_s ?? 300) * 1000,
        send: (items, more) => mail(recipients(key), failuresMail(items, more)),
      });
      batches.set(key, b);
    }
    return b;
  };

  const service = new Outage({
    scheduler,
    afterMs: downAfterMs,
    onDown: (s) => mail(recipients(OPS), serviceDownMail(o.serviceUrl, s, scheduler.now())),
    onBack: (s) => mail(recipients(OPS), serviceBackMail(o.serviceUrl, s)),
  });
  const mailbox = (name: string) => {
    let m = mailboxes.get(name);
    if (!m) {
      m = new Outage({
        scheduler,
        afterMs: downAfterMs,
        onDown: (s) => mail(recipients(OPS), mailboxDownMail(name, s)),
        onBack: (s) => mail(recipients(OPS), mailboxBackMail(name, s)),
      });
      mailboxes.set(name, m);
    }
    return m;
  };

  /** The input's output files, attached when together they are small enough. */
  const mailOutputs = (rule: string, file: string, outputs: readonly string[]) => {
    const maxBytes = (settings?.notify.attachment_max_mb ?? 10) * 1024 * 1024;
    const job = Promise.all(outputs.map((p) => stat(p).then((s) => s.size, () => Number.NaN)))
      .then((sizes) => {
        const total = sizes.reduce((a, b) => a + b, 0);
        const fits = Number.isFinite(total) && total <= maxBytes;
        const note = fits ? null : Number.isNaN(total) ? 'An output file is gone, so none is attached.' : `The output is ${(total / 1048576).toFixed(1)} MB, above attachment_max_mb; it is not attached.`;
        const files = fits ? outputs.map((p) => ({ filename: p.split('/').at(-1)!, path: p })) : [];
        mail(recipients(rule), outputMail(rule, file, fits ? outputs : [], note), files);
      })
      .catch((err: unknown) => log.error({ err: oneLine(String(err)) }, 'could not prepare the output mail'))
      .finally(() => attachments.delete(job));
    attachments.add(job);
  };

  const onEvent = (e: NotifyEvent) => {
    const now = scheduler.now();
    switch (e.type) {
      case 'input_failed':
      case 'input_timed_out': {
        const item =
          e.type === 'input_failed'
            ? { kind: 'failed' as const, rule: e.rule, file: e.file, reason: `${e.reason}: ${e.message}`, finalPath: e.finalPath, at: now }
            : { kind: 'timed_out' as const, rule: e.rule, file: e.file, reason: e.message, finalPath: null, at: now };
        batch(OPS).add(item);
        if (recipients(e.rule).length > 0) batch(e.rule).add(item);
        break;
      }
      case 'input_done':
        if (settings?.rules.get(e.rule)?.attachOutput) mailOutputs(e.rule, e.file, e.outputs);
        break;
      case 'mailbox_down':
        mailbox(e.mailbox).down(e.reason, e.authentication);
        break;
      case 'mailbox_up':
        mailboxes.get(e.mailbox)?.up();
        break;
      case 'service_down':
        service.down(e.reason);
        break;
      case 'service_up':
        service.up();
        break;
      default:
    }
  };

  const apply = (next: NotifySettings | null) => {
    const before = settings;
    settings = next;
    send = next ? smtpSender(next.notify.smtp, next.notify.from) : null;
    digest?.();
    digest = next?.notify.digest ? scheduleDaily(scheduler, next.notify.digest.at, () => mail(recipients(OPS), digestMail(stats.take(scheduler.now())))) : null;
    if (before?.notify.down_after_s !== next?.notify.down_after_s || !next) {
      const old = probe;
      probe = null;
      void old?.stop();
      if (next && o.ping) {
        probe = startServiceProbe({
          scheduler,
          // Often enough that an outage is mailed close to down_after_s after it began.
          intervalMs: Math.min(60_000, Math.max(1000, downAfterMs() / 4)),
          ping: o.ping,
          onUp: () => record({ type: 'service_up' }),
          onDown: (reason) => record({ type: 'service_down', reason }),
        });
      }
    }
    if (!next) {
      service.cancel();
      for (const m of mailboxes.values()) m.cancel();
    }
  };

  function record(e: NotifyEvent): void {
    if (stopped) return;
    try {
      stats.record(e);
      if (settings) onEvent(e);
    } catch (err) {
      // An alert is never worth a failed step.
      log.error({ err: oneLine(String(err)), event: e.type }, 'could not handle a notify event');
    }
  }

  apply(o.settings);
  return {
    record,
    update: (next) => {
      if (!stopped) apply(next);
    },
    get pendingMails() {
      return queue.pending;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      digest?.();
      digest = null;
      await probe?.stop();
      probe = null;
      service.cancel();
      for (const m of mailboxes.values()) m.cancel();
      await Promise.all([...attachments]);
      for (const b of batches.values()) b.flush();
      await queue.drain();
    },
  };
}
