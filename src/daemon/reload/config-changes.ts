// What a config reload would change, before anything is touched: the settings that cannot change while the
// daemon runs (refused, naming the key), and which rules are added, removed or changed.
import type { DaemonConfig, RuleConfig } from '../config/config.js';

/**
 * Settings fixed for the life of the process, each with why. Another part that can only take its setting
 * at start (a listener's address) adds itself here.
 */
export const RESTART_ONLY: readonly { key: string; why: string; value(c: DaemonConfig): unknown }[] = [
  { key: 'state.path', why: 'the ledger stays open while inputs are in flight', value: (c) => c.state.path },
  { key: 'state.url', why: 'the ledger stays open while inputs are in flight', value: (c) => c.state.url ?? null },
  { key: 'state.synchronous', why: 'set when the ledger is opened', value: (c) => c.state.synchronous },
  { key: 'instance.id', why: 'claims on inputs in flight are held under it', value: (c) => c.instance.id ?? null },
  { key: 'instance.lease_ms', why: 'claims in flight were taken with it', value: (c) => c.instance.lease_ms },
  { key: 'health.listen', why: 'the listener is bound at start', value: (c) => c.health.listen ?? null },
  { key: 'service.base_url', why: 'inputs in flight belong to the service in use', value: (c) => c.service.base_url },
  {
    key: 'service.api_key',
    why: 'inputs in flight belong to the account in use',
    // A key generated for the embedded service is new at every load and not the operator's change.
    value: (c) => (c.service.api_key_source === 'generated' ? 'generated' : c.service.api_key),
  },
  {
    key: 'service.embedded',
    why: 'the embedded service is started once',
    value: (c) => (c.service.base_url === 'embedded' ? c.service.embedded : null),
  },
];

/** One line per setting that differs but cannot change live; empty when the reload may go ahead. Never holds a value. */
export function restartOnlyChanges(prev: DaemonConfig, next: DaemonConfig): string[] {
  return RESTART_ONLY.filter((s) => JSON.stringify(s.value(prev)) !== JSON.stringify(s.value(next))).map(
    (s) => `${s.key}: cannot change while the daemon runs (${s.why}); restart the daemon to apply it`,
  );
}

export interface RuleChanges {
  added: string[];
  removed: string[];
  changed: string[];
  /** Added rules and rules whose workflow or classifier changed: their targets are looked up before applying. */
  toResolve: RuleConfig[];
}

export function ruleChanges(prev: readonly RuleConfig[], next: readonly RuleConfig[]): RuleChanges {
  const before = new Map(prev.map((r) => [r.name, r]));
  const after = new Set(next.map((r) => r.name));
  const out: RuleChanges = { added: [], removed: prev.filter((r) => !after.has(r.name)).map((r) => r.name), changed: [], toResolve: [] };
  for (const r of next) {
    const old = before.get(r.name);
    if (!old) out.added.push(r.name);
    else if (JSON.stringify(old) !== JSON.stringify(r)) out.changed.push(r.name);
    if (!old || old.workflow !== r.workflow || old.classifier !== r.classifier) out.toResolve.push(r);
  }
  return out;
}
