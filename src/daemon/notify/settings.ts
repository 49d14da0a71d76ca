// The part of the daemon's config the notifier uses, in one value that a reload can hand to update().
import type { DaemonConfig, NotifyConfig } from '../config/config.js';

export interface RuleRecipients {
  to: readonly string[];
  attachOutput: boolean;
}

export interface NotifySettings {
  notify: NotifyConfig;
  /** Rules with recipients of their own (rules[].notify), by rule name. */
  rules: ReadonlyMap<string, RuleRecipients>;
}

/** Null when the config has no notify section: nothing is mailed. */
export function notifySettings(config: Pick<DaemonConfig, 'notify' | 'rules'>): NotifySettings | null {
  if (!config.notify) return null;
  const rules = new Map<string, RuleRecipients>();
  for (const r of config.rules) if (r.notify) rules.set(r.name, { to: r.notify.to, attachOutput: r.notify.attach_output });
  return { notify: config.notify, rules };
}
