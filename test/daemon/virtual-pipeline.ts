// A Pipeline on virtual time over a real service, a real SQLite ledger and the config's first rule, as
// the daemon wires it (the tests that need to step time: stop, disk full, edge cases). Not started.
import { ServiceClient } from '../../src/api/client.js';
import type { DaemonConfig } from '../../src/daemon/config/config.js';
import { incompleteWaitMs } from '../../src/daemon/inputs/inspect-file.js';
import { openSqliteLedger, type SqliteLedger } from '../../src/daemon/ledger/sqlite-ledger.js';
import { createDisposition, createFileInspector, createPipelineApi } from '../../src/daemon/pipeline/adapters.js';
import { createOutputsWriter } from '../../src/daemon/pipeline/outputs-writer.js';
import { Pipeline } from '../../src/daemon/pipeline/pipeline.js';
import { createStepQueues } from '../../src/daemon/pipeline/rate-limit.js';
import { resolveTargets } from '../../src/daemon/pipeline/resolve-targets.js';
import { silentLogger, type Logger } from '../../src/shared/logger.js';
import { VirtualScheduler } from '../../src/shared/scheduler.js';
import type { TestService } from '../helpers/service.js';

export interface VirtualPipeline {
  pipeline: Pipeline;
  ledger: SqliteLedger;
  scheduler: VirtualScheduler;
  rule: DaemonConfig['rules'][number];
}

export async function virtualPipeline(o: {
  svc: TestService;
  config: DaemonConfig;
  polling: { initialMs: number; maxMs: number };
  logger?: Logger;
}): Promise<VirtualPipeline> {
  const rule = o.config.rules[0]!;
  const client = new ServiceClient({ baseUrl: o.svc.url, apiKey: o.svc.keys[0]! });
  const targets = await resolveTargets([{ name: rule.name, workflow: rule.workflow! }], client);
  const ledger = await openSqliteLedger(o.config.state.path);
  // Virtual time starts at the real time, as the ledger stamps rows with the real clock.
  const scheduler = new VirtualScheduler(Date.now());
  const pipeline = new Pipeline({
    ledger,
    api: createPipelineApi(client, o.config.service.submit, new Map([[rule.name, rule.options]])),
    outputs: createOutputsWriter(new Map([[rule.name, rule.output]])),
    disposition: createDisposition(new Map([[rule.name, rule]])),
    files: createFileInspector(),
    rules: new Map([
      [
        rule.name,
        {
          name: rule.name,
          target: targets.get(rule.name)!,
          duplicates: rule.duplicates,
          afterSuccess: rule.after.success,
          incompleteWaitMs: incompleteWaitMs(rule.stable_ms),
        },
      ],
    ]),
    queues: createStepQueues({ uploadConcurrency: 2, pollConcurrency: 2 }),
    polling: { ...o.polling, giveUpAfterMs: 600_000, slowRecheckMs: 600_000 },
    logger: o.logger ?? silentLogger,
    scheduler,
  });
  return { pipeline, ledger, scheduler, rule };
}
