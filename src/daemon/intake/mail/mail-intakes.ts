// The daemon's mailboxes as one set that a config reload can change: an added mailbox starts, a removed
// one stops (a message half taken is finished again by the next start, as after a crash), and one whose
// settings or rule folder changed is restarted with the new ones.
import type { DaemonConfig } from '../../config/config.js';
import type { MailboxStatus, MailIntake } from './imap-intake.js';

type Mailbox = DaemonConfig['mailboxes'][number];
type Rule = DaemonConfig['rules'][number];

export interface MailIntakes {
  update(config: Pick<DaemonConfig, 'mailboxes' | 'rules'>): Promise<void>;
  /** A running mailbox's login state (readiness, metrics); a mailbox a reload removed is reported as such. */
  status(name: string): MailboxStatus;
  stop(): Promise<void>;
}

export function startMailIntakes(
  config: Pick<DaemonConfig, 'mailboxes' | 'rules'>,
  start: (mailbox: Mailbox, rule: Rule) => MailIntake,
): MailIntakes {
  const running = new Map<string, { intake: MailIntake; settings: string }>();
  const launch = (cfg: Pick<DaemonConfig, 'mailboxes' | 'rules'>) => {
    for (const mb of cfg.mailboxes) {
      if (running.has(mb.name)) continue;
      const rule = cfg.rules.find((r) => r.name === mb.rule)!;
      running.set(mb.name, { intake: start(mb, rule), settings: settingsOf(mb, rule) });
    }
  };
  launch(config);
  return {
    async update(next) {
      const wanted = new Map(next.mailboxes.map((mb) => [mb.name, settingsOf(mb, next.rules.find((r) => r.name === mb.rule)!)]));
      const stale = [...running].filter(([name, m]) => wanted.get(name) !== m.settings);
      await Promise.all(stale.map(([, m]) => m.intake.stop()));
      for (const [name] of stale) running.delete(name);
      launch(next);
    },
    status: (name) => running.get(name)?.intake.status() ?? { loggedIn: false, reason: 'not running (removed by a reload)', authentication: false },
    async stop() {
      await Promise.all([...running.values()].map((m) => m.intake.stop()));
      running.clear();
    },
  };
}

/** What a mailbox's intake depends on (its password included, compared here and never logged). */
function settingsOf(mb: Mailbox, rule: Rule): string {
  return JSON.stringify([mb, rule.name, rule.watch, rule.after]);
}
