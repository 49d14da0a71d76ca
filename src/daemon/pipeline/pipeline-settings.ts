// The rule-dependent parts of the daemon's pipeline, built from the config: the rules with their resolved
// targets and the adapters that read each rule's options, output and "after" settings. Built once at start
// and again by a config reload (Pipeline.reconfigure), so both paths wire the pipeline the same way.
import type { ServiceClient } from '../../api/client.js';
import type { DaemonConfig, RuleConfig } from '../config/config.js';
import { incompleteWaitMs } from '../inputs/inspect-file.js';
import type { MailOrigins } from '../ledger/mail-ledger.js';
import { createDisposition, createPipelineApi } from './adapters.js';
import { createOutputsWriter } from './outputs-writer.js';
import type { PipelineSettings, PollingPolicy } from './pipeline.js';
import type { PipelineRule } from './ports.js';
import type { ResolvedTarget } from './resolve-targets.js';

/**
 * `rules` are the config's rules; `retired` are rules a reload removed whose inputs still finish: the
 * adapters keep serving them, but they are not in the pipeline's rules (no new file is taken for them).
 * `mailOrigins`: the mail ledger, for outputs with include_mail.
 */
export function pipelineSettings(
  rules: readonly RuleConfig[],
  service: DaemonConfig['service'],
  client: ServiceClient,
  targets: ReadonlyMap<string, ResolvedTarget>,
  retired: readonly RuleConfig[] = [],
  mailOrigins?: MailOrigins,
): PipelineSettings {
  const all = [...retired, ...rules];
  const p = service.polling;
  return {
    rules: new Map<string, PipelineRule>(
      rules.map((r) => [
        r.name,
        { name: r.name, target: targets.get(r.name)!, duplicates: r.duplicates, afterSuccess: r.after.success, incompleteWaitMs: incompleteWaitMs(r.stable_ms) },
      ]),
    ),
    api: createPipelineApi(client, service.submit, new Map(all.map((r) => [r.name, r.options]))),
    outputs: createOutputsWriter(new Map(all.map((r) => [r.name, r.output])), mailOrigins),
    disposition: createDisposition(new Map(all.map((r) => [r.name, r]))),
    polling: {
      initialMs: p.initial_s * 1000,
      maxMs: p.max_s * 1000,
      giveUpAfterMs: p.give_up_after_s * 1000,
      // timed_out jobs: checked again every few minutes, not forgotten.
      slowRecheckMs: Math.max(60_000, p.max_s * 4000),
    } satisfies PollingPolicy,
    concurrency: { upload: service.upload_concurrency, poll: service.poll_concurrency },
  };
}
