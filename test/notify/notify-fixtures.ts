// Shared by the notify tests: settings from a real config text, a notifier on virtual time that mails a
// real SMTP server on loopback, and a logger whose lines the test can read.
import { Writable } from 'node:stream';
import { parseConfig } from '../../src/daemon/config/config.js';
import { createNotifier, type Notifier } from '../../src/daemon/notify/notifier.js';
import { notifySettings, type NotifySettings } from '../../src/daemon/notify/settings.js';
import { createLogger, type Logger } from '../../src/shared/logger.js';
import { VirtualScheduler } from '../../src/shared/scheduler.js';

export const OPS = 'ops@example.test';

/** Two rules, invoices and receipts; `rule` is the invoices rule's notify section. */
export function settingsFor(smtpPort: number, notify: Record<string, unknown> = {}, rule?: Record<string, unknown>): NotifySettings {
  const config = parseConfig(
    JSON.stringify({
      rules: [
        { name: 'invoices', watch: 'in/invoices', workflow: 'Invoices', ...(rule ? { notify: rule } : {}) },
        { name: 'receipts', watch: 'in/receipts', workflow: 'Receipts' },
      ],
      notify: { smtp: { host: '127.0.0.1', port: smtpPort }, from: 'docdrop@example.test', to: [OPS], ...notify },
    }),
    { baseDir: '/srv/docdrop', env: {} },
  );
  return notifySettings(config)!;
}

export function captureLog(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  let text = '';
  const logger = createLogger({ level: 'debug', destination: new Writable({ write: (c, _e, cb) => ((text += String(c)), cb()) }) });
  return { logger, lines: () => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

export function virtualNotifier(
  settings: NotifySettings,
  o: { start?: number; logger?: Logger; ping?: () => Promise<unknown> } = {},
): { notifier: Notifier; scheduler: VirtualScheduler } {
  const scheduler = new VirtualScheduler(o.start ?? Date.now());
  const notifier = createNotifier({
    settings,
    scheduler,
    logger: o.logger ?? captureLog().logger,
    serviceUrl: 'http://127.0.0.1:9/',
    ...(o.ping ? { ping: o.ping } : {}),
  });
  return { notifier, scheduler };
}

/** Waits (real time, bounded) until `check` holds: for real I/O that a virtual-time step started. */
export async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
