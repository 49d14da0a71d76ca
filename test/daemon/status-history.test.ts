// `docdrop status ID` as a person runs it: one input with every event of its history (time, from and to
// state, details) read from the ledger, the durable audit trail that log lines lost at SIGKILL are not.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ServiceClient } from '../../src/api/client.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/shared/logger.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, tempTree, waitFor, writeConfig, type TempTree } from './pipeline-fixtures.js';

const REPO = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const docdrop = (args: string[]) => run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: REPO, timeout: 120_000 });

let svc: TestService;
let tree: TempTree;
before(async () => {
  svc = await startTestService();
  tree = await tempTree('docdrop-history-');
  await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
});
after(async () => {
  await svc?.close();
  await tree?.cleanup();
});

test('status ID shows the input and every event of its history with time, from/to state and details, as a table and as JSON', async () => {
  const { path: configPath, config } = await writeConfig(tree.root, configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]! }));
  const inbox = config.rules[0]!.watch;
  await mkdir(inbox, { recursive: true });
  await writeFile(join(inbox, 'junk.pdf'), 'not a pdf at all');
  const daemon = await startDaemon(config, { logger: silentLogger });
  let id: number;
  try {
    id = await waitFor('the input failed', async () => (await daemon.ledger.list({ state: 'failed' }))[0]?.id);
  } finally {
    await daemon.stop();
  }
  await docdrop(['retry', String(id), '--config', configPath]);

  const { stdout } = await docdrop(['status', String(id), '--json', '--config', configPath]);
  const got = JSON.parse(stdout) as {
    input: { id: number; state: string; path: string };
    events: { at: string; kind: string; from: string | null; to: string | null; detail: Record<string, unknown> | null }[];
  };
  assert.equal(got.input.id, id);
  assert.equal(got.input.path, join(inbox, 'junk.pdf'));
  const ev = got.events;
  assert.deepEqual([ev[0]!.kind, ev[0]!.from, ev[0]!.to], ['queued', null, 'queued']);
  assert.equal(ev[0]!.detail?.path, join(inbox, 'junk.pdf'));
  const failed = ev.find((e) => e.to === 'failed')!;
  assert.ok(failed.from !== null, 'the transition to failed names the state it came from');
  assert.match(JSON.stringify(failed.detail), /unsupported_file_type/);
  const retry = ev.findLast((e) => e.kind === 'retry');
  assert.deepEqual([retry?.from, retry?.to, retry?.detail?.movedBackTo], ['failed', 'queued', join(inbox, 'junk.pdf')]);
  assert.ok(ev.every((e, i) => !Number.isNaN(Date.parse(e.at)) && (i === 0 || e.at >= ev[i - 1]!.at)), 'events in order, each with its time');

  const table = (await docdrop(['status', String(id), '--config', configPath])).stdout;
  assert.match(table, new RegExp(`^input #${id}  queued  rule invoices`));
  assert.match(table, /AT +EVENT +FROM +TO +DETAILS/);
  assert.match(table, /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}  queued +queued +path=/);
  assert.match(table, new RegExp(`  failed +${failed.from} +failed +.*unsupported_file_type`));
  assert.match(table, /  retry +failed +queued +movedBackFrom=.* movedBackTo=/);

  await assert.rejects(docdrop(['status', '999999', '--config', configPath]), (err: { stderr: string }) => /no input #999999/.test(err.stderr));
});
