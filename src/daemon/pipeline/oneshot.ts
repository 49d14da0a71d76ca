// `docdrop process`: the daemon's own step machine run once over named files, with an in-memory ledger,
// outputs into one folder and the input files left where they are. Same upload/submit/poll/write code as
// `docdrop run`, so the two cannot drift apart.
import { resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import type { ServiceClient } from '../../api/client.js';
import type { Logger } from '../../shared/logger.js';
import type { RuleConfig, RunOptions } from '../config/config.js';
import type { InputRecord, Ledger } from '../ledger/ledger.js';
import { openLedger } from '../ledger/open-ledger.js';
import { createOutputsWriter } from './outputs-writer.js';
import { Pipeline } from './pipeline.js';
import { createFileInspector, createPipelineApi } from './adapters.js';
import type { DispositionPort, PipelineRule } from './ports.js';
import { createStepQueues } from './rate-limit.js';
import { resolveTargets } from './resolve-targets.js';
import type { SubmitMode } from './submitter.js';

export interface OneShotOptions {
  client: ServiceClient;
  files: string[];
  workflow?: string;
  classifier?: string;
  outDir: string;
  format: 'csv' | 'xlsx' | 'json';
  layout?: 'flat' | 'line_items';
  options?: RunOptions;
  submit?: SubmitMode;
  polling?: { initialMs: number; maxMs: number; giveUpAfterMs: number };
  uploadConcurrency?: number;
  pollConcurrency?: number;
  logger: Logger;
  /** Called once per file as soon as it is finished (ok or not), for progress; results still come in order at the end. */
  onSettled?: (result: OneShotResult) => void;
}

export interface OneShotResult {
  path: string;
  ok: boolean;
  /** Output files on success. */
  outputs: string[];
  /** Why it failed, in words a person can act on. */
  error: string | null;
  requestId: string | null;
}

const RULE = 'process';

/** Inputs stay where they are: nothing is moved, so a failed file can simply be processed again. */
const leaveInPlace: DispositionPort = {
  succeed: async () => null,
  fail: async () => null,
  duplicate: async () => null,
};

export async function processFiles(o: OneShotOptions): Promise<OneShotResult[]> {
  const targets = await resolveTargets([{ name: RULE, workflow: o.workflow, classifier: o.classifier }], o.client);
  const rule: PipelineRule = { name: RULE, target: targets.get(RULE)!, duplicates: 'process', afterSuccess: 'keep' };
  const output = {
    dir: resolve(o.outDir),
    format: o.format,
    layout: o.layout ?? 'line_items',
    merge_field: 'line_items',
    include_filename: true,
    include_request_id: true,
    include_mail: false,
    group: 'per_document',
  } as RuleConfig['output'];
  const polling = o.polling ?? { initialMs: 1000, maxMs: 15_000, giveUpAfterMs: 600_000 };
  // Nothing to resume in a one-shot run: the ledger lives in memory and goes with the process.
  const ledger = await openLedger({ path: ':memory:', synchronous: 'normal' });
  const pipeline = new Pipeline({
    ledger,
    api: createPipelineApi(o.client, o.submit ?? 'run_parser', new Map([[RULE, o.options ?? {}]])),
    outputs: createOutputsWriter(new Map([[RULE, output]])),
    disposition: leaveInPlace,
    files: createFileInspector(),
    rules: new Map([[RULE, rule]]),
    queues: createStepQueues({ uploadConcurrency: o.uploadConcurrency ?? 4, pollConcurrency: o.pollConcurrency ?? 16 }),
    polling: { ...polling, slowRecheckMs: Number.MAX_SAFE_INTEGER },
    // One-shot: a local step failing twice (a full disk too) is reported rather than retried for minutes.
    maxLocalAttempts: 2,
    maxDiskAttempts: 2,
    maxApiAttempts: 6,
    logger: o.logger,
    tickMs: 100,
  });
  pipeline.start();
  try {
    const refused = (path: string, error: string): OneShotResult => ({ path, ok: false, outputs: [], error, requestId: null });
    const taken = await Promise.all(
      o.files.map(async (f) => {
        const t = await take(pipeline, resolve(f));
        if ('error' in t) o.onSettled?.(refused(t.path, t.error));
        return t;
      }),
    );
    const ids = taken.filter((t): t is { path: string; record: InputRecord } => 'record' in t).map((t) => t.record.id);
    const finals = await waitUntilSettled(ledger, ids, (r) => o.onSettled?.(describe(r)));
    return taken.map((t) => ('error' in t ? refused(t.path, t.error) : describe(finals.get(t.record.id)!)));
  } finally {
    await pipeline.stop();
    await ledger.close();
  }
}

async function take(pipeline: Pipeline, path: string): Promise<{ path: string; record: InputRecord } | { path: string; error: string }> {
  try {
    const st = await stat(path);
    if (!st.isFile()) return { path, error: 'not a regular file' };
    if (st.size === 0) return { path, error: 'empty_file: the file is empty (0 bytes)' };
  } catch (err) {
    return { path, error: `cannot read the file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  const record = await pipeline.accept(RULE, path);
  if (!record) return { path, error: 'the file is not complete (e.g. a PDF without its end marker); try again once it is fully written' };
  return { path, record };
}

async function waitUntilSettled(ledger: Ledger, ids: number[], onSettled: (r: InputRecord) => void): Promise<Map<number, InputRecord>> {
  const settled = new Map<number, InputRecord>();
  while (settled.size < ids.length) {
    for (const id of ids) {
      if (settled.has(id)) continue;
      const r = await ledger.get(id);
      if (r && ['done', 'failed', 'duplicate', 'timed_out'].includes(r.state)) {
        settled.set(id, r);
        onSettled(r);
      }
    }
    if (settled.size < ids.length) await new Promise((res) => setTimeout(res, 100));
  }
  return settled;
}

function describe(r: InputRecord): OneShotResult {
  const base = { path: r.path, requestId: r.requestId };
  if (r.state === 'done') return { ...base, ok: true, outputs: r.result?.outputs ?? [], error: null };
  if (r.state === 'timed_out') return { ...base, ok: false, outputs: [], error: `the job did not finish in time (${r.lastError ?? 'timed out'})` };
  return { ...base, ok: false, outputs: [], error: r.lastError ?? r.state };
}
