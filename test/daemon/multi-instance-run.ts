// Several `docdrop run` processes (from dist/ when built) on one inbox pair and one ledger, against one
// `docdrop serve` with an engine that answers at once: the scenario behind the multi-instance tests on
// SQLite and on PostgreSQL. One rule writes a daily group file (the hard case for "exactly once" with
// writers in several processes), the other one file per document. Optionally one instance is killed with
// SIGKILL mid-run, and a hook runs mid-run (the PostgreSQL tests cut the database connections or restart the
// server there; the harness's own polling waits out the ledger being away).
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { FINAL_STATES, type Ledger } from '../../src/daemon/ledger/ledger.js';
import { classifyError } from '../../src/shared/errors.js';
import { startDaemonProcess, type DaemonProcess } from '../../bench/daemon-process.js';
import { instantEngine } from '../../bench/instant-engine.js';
import { startTestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, listFiles, numberedInvoice, readCsvFile, tempTree, waitFor, writeConfig } from './pipeline-fixtures.js';

/** Files per run; DOCDROP_MULTI_FILES raises it (the issue's 300) on a machine that has the time. */
export const MULTI_FILES = Number(process.env.DOCDROP_MULTI_FILES ?? 60);

/** Short leases so a killed instance's inputs are taken over within seconds. */
const LEASE_MS = 3000;

export interface MultiRunOptions {
  instances: number;
  files: number;
  /** The config's `state:` section as YAML flow text; default the SQLite file in the temp tree. */
  stateYaml?: (root: string) => string;
  openLedger: (root: string) => Promise<Ledger>;
  /** SIGKILL the first instance once this many inputs are done. */
  killAfterDone?: number;
  /** Hooks, each run once when its number of inputs is done (e.g. cut the database connections, restart it). */
  midRun?: { afterDone: number; run: () => Promise<void> }[];
  diagnostic: (msg: string) => void;
}

export interface MultiRunReport {
  /** Inputs the killed instance held claims on when it died (all finished by the others since). */
  takenOver: number;
  /** 'done' log lines per surviving instance. */
  donePerInstance: number[];
}

const RULES = ['daily', 'perdoc'] as const;

export async function runInstances(o: MultiRunOptions): Promise<MultiRunReport> {
  const svc = await startTestService({ engine: instantEngine });
  const tree = await tempTree('docdrop-multi-');
  const daemons: DaemonProcess[] = [];
  try {
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
    let yaml = configYaml({
      root: tree.root,
      baseUrl: svc.url,
      apiKey: svc.keys[0]!,
      rules: [
        { name: 'daily', group: 'daily', layout: 'flat' },
        { name: 'perdoc', group: 'per_document', layout: 'flat' },
      ],
      requestsPerSecond: 1000,
      logLevel: 'info',
    });
    yaml += `instance: { lease_ms: ${LEASE_MS} }\n`;
    if (o.stateYaml) yaml = yaml.replace(/^state:\n {2}path: .*$/m, `state: ${o.stateYaml(tree.root)}`);
    const { path: configPath } = await writeConfig(tree.root, yaml);
    for (const rule of RULES) await mkdir(join(tree.root, 'inbox', rule), { recursive: true });
    const ledger = await o.openLedger(tree.root);
    try {
      for (let i = 0; i < o.instances; i++) daemons.push(await startDaemonProcess(configPath));
      const owners = daemons.map((d) => /"instance":"([^"]+)"/.exec(d.log())?.[1] ?? '?');
      o.diagnostic(`${o.instances} instances via ${daemons[0]!.via}: ${owners.join(', ')}`);

      // All instances see every new file: the intake race is part of the test.
      const base = await numberedInvoice(1);
      const names: Record<(typeof RULES)[number], string[]> = { daily: [], perdoc: [] };
      for (let i = 0; i < o.files; i++) {
        const rule = RULES[i % 2]!;
        const name = `f-${String(i).padStart(4, '0')}.pdf`;
        names[rule].push(name);
        await writeFile(join(tree.root, 'inbox', rule, name), Buffer.concat([base, Buffer.from(`\n%multi-${i}\n`)]));
      }

      let takenOver = 0;
      let killed: DaemonProcess | null = null;
      const hooks = [...(o.midRun ?? [])];
      let awayPolls = 0;
      await waitFor(
        'every file done',
        untilLedgerBack(async () => {
          const done = (await ledger.countByState()).done;
          if (o.killAfterDone !== undefined && !killed && done >= o.killAfterDone) {
            const held = await heldBy(ledger, owners[0]!);
            killed = daemons[0]!;
            killed.child.kill('SIGKILL');
            await killed.exited;
            takenOver = held.length;
            o.diagnostic(`SIGKILL of ${owners[0]} at ${done} done, holding claims on ${held.length} inputs`);
          }
          while (hooks[0] && done >= hooks[0].afterDone) {
            await hooks.shift()!.run();
            o.diagnostic(`mid-run hook ran at ${done} done`);
          }
          const unfinished = (await ledger.list({})).filter((r) => !FINAL_STATES.includes(r.state)).length;
          return done >= o.files && unfinished === 0;
        }, (err) => {
          if (awayPolls++ === 0) o.diagnostic(`harness poll waits for the ledger: ${err.message}`);
        }),
        240_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}\n${daemons.map((d, i) => `instance ${i} stderr tail:\n${d.log().slice(-3000)}`).join('\n')}`);
      });

      const survivors = daemons.filter((d) => d !== killed);
      for (const d of survivors) d.child.kill('SIGTERM');
      for (const d of survivors) await d.exited;
      for (const d of survivors) assert.equal(d.child.exitCode, 0, `SIGTERM stops an instance cleanly:\n${d.log().slice(-2000)}`);

      if (awayPolls > 0) o.diagnostic(`harness polls that found the ledger away: ${awayPolls}`);
      await checkExactlyOnce(ledger, tree.root, names);
      return { takenOver, donePerInstance: survivors.map((d) => d.log().split('\n').filter((l) => l.includes('"msg":"done"')).length) };
    } finally {
      await ledger.close();
    }
  } finally {
    for (const d of daemons) if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
    await svc.close();
    await tree.cleanup();
  }
}

/** A poll whose ledger may be away for a while (connections cut, the server restarting): a transient
 * `ledger_unavailable` answer means "not yet", the next poll asks again; any other error fails the run. */
function untilLedgerBack<T>(check: () => Promise<T>, onAway: (err: Error) => void): () => Promise<T | false> {
  return async () => {
    try {
      return await check();
    } catch (err) {
      const e = classifyError(err);
      if (e.code === 'ledger_unavailable') return onAway(e), false;
      throw err;
    }
  };
}

/** Unfinished inputs `owner` holds a live claim on. */
async function heldBy(ledger: Ledger, owner: string): Promise<number[]> {
  const ids: number[] = [];
  for (const r of await ledger.list({})) {
    if (!FINAL_STATES.includes(r.state) && (await ledger.claimOf(r.id))?.owner === owner) ids.push(r.id);
  }
  return ids;
}

/** Every file: done exactly once in the ledger, one output (group row or own file), processed once; no claim left. */
async function checkExactlyOnce(ledger: Ledger, root: string, names: Record<(typeof RULES)[number], string[]>): Promise<void> {
  const all = await ledger.list({});
  const counts = await ledger.countByState();
  assert.equal(counts.failed, 0, 'no input failed');
  const done = all.filter((r) => r.state === 'done').map((r) => `${r.rule}/${r.path.split('/').pop()}`);
  const expected = RULES.flatMap((rule) => names[rule].map((n) => `${rule}/${n}`));
  assert.deepEqual([...done].sort(), [...expected].sort(), 'every file is done by exactly one input');
  // An input made by an instance that saw a file another one had already finished ends `duplicate`, naming it.
  for (const r of all.filter((x) => x.state === 'duplicate')) {
    const original = (await ledger.events(r.id)).at(-1)?.detail?.original;
    assert.equal(all.find((x) => x.id === original)?.state, 'done', `duplicate input ${r.id} names the input that took its file`);
  }
  for (const r of all) assert.equal(await ledger.claimOf(r.id), null, `no claim left on input ${r.id}`);

  const dailyDir = join(root, 'outbox', 'daily');
  const rows: Record<string, string>[] = [];
  for (const f of (await listFiles(dailyDir)).filter((n) => n.endsWith('.csv'))) rows.push(...(await readCsvFile(join(dailyDir, f))).rows);
  assert.deepEqual(rows.map((r) => r.file_name).sort(), [...names.daily].sort(), 'each daily input has exactly one row in the group file');
  assert.equal(new Set(rows.map((r) => r.request_id)).size, rows.length, 'one row per request id');

  const perdoc = await listFiles(join(root, 'outbox', 'perdoc'));
  const stems = perdoc.map((f) => f.replace(/-[0-9a-f]{8}\.csv$/, '.pdf')).sort();
  assert.deepEqual(stems, [...names.perdoc].sort(), 'each per-document input has exactly one output file');

  for (const rule of RULES) {
    const processed = (await readdir(join(root, 'processed', rule))).filter((n) => !n.startsWith('.'));
    assert.deepEqual(processed.sort(), [...names[rule]].sort(), `each ${rule} input is in processed exactly once`);
    assert.deepEqual(await listFiles(join(root, 'inbox', rule)), [], `the ${rule} inbox is empty`);
  }
}
