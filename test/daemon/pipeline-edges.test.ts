// Files that misbehave at the edges of intake, on virtual time (no test waits a minute): a file replaced
// under its name while its input runs, a file created empty that gets its bytes late, a file that never
// gets its end, a folder reached through a symlink. Real service, real SQLite ledger, real folders.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { ServiceClient } from '../../src/api/client.js';
import { sha256File } from '../../src/daemon/inputs/inspect-file.js';
import type { InputRecord } from '../../src/daemon/ledger/ledger.js';
import type { SqliteLedger } from '../../src/daemon/ledger/sqlite-ledger.js';
import { Pipeline } from '../../src/daemon/pipeline/pipeline.js';
import { createLogger } from '../../src/shared/logger.js';
import { VirtualScheduler } from '../../src/shared/scheduler.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, numberedInvoice, tempTree, waitFor, writeConfig, type TempTree } from './pipeline-fixtures.js';
import { virtualPipeline } from './virtual-pipeline.js';

const REPO = resolve(import.meta.dirname, '../..');

let svc: TestService;
before(async () => {
  svc = await startTestService();
  await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
});
after(() => svc.close());

interface Harness {
  tree: TempTree;
  configPath: string;
  inbox: string;
  ledger: SqliteLedger;
  pipeline: Pipeline;
  scheduler: VirtualScheduler;
  /** Log lines' messages, in order. */
  logged: string[];
  /** Advances virtual time in steps (letting real I/O run between them) until `check` holds. */
  until<T>(what: string, check: () => Promise<T | undefined | false>, maxVirtualMs?: number): Promise<T>;
  close(): Promise<void>;
}

async function harness(polling: { initialMs: number } = { initialMs: 200 }): Promise<Harness> {
  const tree = await tempTree('docdrop-edges-');
  const { path: configPath, config } = await writeConfig(tree.root, configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]! }));
  const rule = config.rules[0]!;
  await mkdir(rule.watch, { recursive: true });
  const logged: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logged.push((JSON.parse(line) as { msg: string }).msg);
      done();
    },
  });
  const { pipeline, ledger, scheduler } = await virtualPipeline({
    svc,
    config,
    polling: { initialMs: polling.initialMs, maxMs: 1000 },
    logger: createLogger({ level: 'info', destination: sink }),
  });
  pipeline.start();
  return {
    tree,
    configPath,
    inbox: rule.watch,
    ledger,
    pipeline,
    scheduler,
    logged,
    async until(what, check, maxVirtualMs = 5 * 60_000) {
      for (let t = 0; ; t += 500) {
        const v = await check();
        if (v !== undefined && v !== false) return v;
        if (t > maxVirtualMs) throw new Error(`${what}: not after ${maxVirtualMs / 1000} virtual seconds`);
        await scheduler.advance(500);
        await new Promise((r) => setTimeout(r, 15)); // real I/O (HTTP, disk) of the steps just started
      }
    },
    async close() {
      await pipeline.stop();
      await ledger.close();
      await tree.cleanup();
    },
  };
}

const all = (h: Harness) => h.ledger.list({});
const final = (r: InputRecord) => ['done', 'failed', 'duplicate'].includes(r.state);

test('a file replaced under its name while its input runs is a new input; the first one\'s disposal never moves the new bytes', { timeout: 120_000 }, async () => {
  const h = await harness({ initialMs: 10_000 }); // the first poll waits 10 virtual seconds: time to replace the file
  try {
    const path = join(h.inbox, 'a.pdf');
    const v1 = await numberedInvoice(1);
    const v2 = await numberedInvoice(2);
    await writeFile(path, v1);
    const first = await h.pipeline.accept('invoices', path);
    assert.ok(first);
    await waitFor('a.pdf v1 submitted', async () => (await h.ledger.get(first.id))!.state === 'submitted');

    // A scanner saves again under the same name (write elsewhere, rename over).
    await writeFile(join(h.inbox, '.a.tmp'), v2);
    await rename(join(h.inbox, '.a.tmp'), path);
    assert.equal(await h.pipeline.accept('invoices', path), null, 'not while the first input of that name runs');

    const rows = await h.until('both versions done', async () => {
      const list = await all(h);
      return list.length === 2 && list.every((r) => r.state === 'done') && list;
    });
    const [one, two] = rows.sort((a, b) => a.id - b.id) as [InputRecord, InputRecord];
    assert.match(JSON.stringify(one.result), /INV-00001/);
    assert.match(JSON.stringify(two.result), /INV-00002/, 'the new content was extracted');
    assert.equal(one.finalPath, null, 'the first input\'s bytes were gone: nothing of it to move');
    assert.ok(two.finalPath);
    assert.deepEqual(await readFile(two.finalPath), v2);
    assert.deepEqual(await readdir(join(h.tree.root, 'processed', 'invoices')), ['a.pdf']);
  } finally {
    await h.close();
  }
});

test('a file rewritten with the same bytes before its upload (a mailbox dropping it again after a crash) is still the same input', { timeout: 120_000 }, async () => {
  const h = await harness();
  try {
    const path = join(h.inbox, 'again.pdf');
    await writeFile(path, await numberedInvoice(7));
    const st = await stat(path);
    // The ledger took it at an earlier mtime: since then the same bytes were written again (atomic rename).
    const { record } = await h.ledger.addInput({ rule: 'invoices', path, size: st.size, mtimeMs: st.mtimeMs - 5000, sha256: await sha256File(path) });
    const row = await h.until('again.pdf final', async () => {
      const r = (await h.ledger.get(record.id))!;
      return final(r) && r;
    });
    assert.equal(row.state, 'done', row.lastError ?? '');
    assert.equal((await all(h)).length, 1, 'no second input for the same bytes');
  } finally {
    await h.close();
  }
});

test('a file created empty that gets its bytes later than stable_ms waits for them, and is listed by status as waiting', { timeout: 120_000 }, async () => {
  const h = await harness();
  try {
    const path = join(h.inbox, 'scan.pdf');
    await writeFile(path, '');
    assert.equal(await h.pipeline.accept('invoices', path), null, 'an empty file is not complete yet');
    const waiting = await h.ledger.listWaiting();
    assert.deepEqual(
      waiting.map((w) => [w.path, w.reason, w.size]),
      [[path, 'empty', 0]],
    );

    const status = await docdrop(['status', '--json', '--config', h.configPath]);
    assert.equal(status.code, 0, status.stderr);
    const parsed = JSON.parse(status.stdout) as { waiting: { path: string; reason: string; until: string }[] };
    assert.deepEqual(parsed.waiting.map((w) => [w.path, w.reason]), [[path, 'empty']]);
    const table = await docdrop(['status', '--config', h.configPath]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /waiting: 1/);
    assert.match(table.stdout, /waiting invoices: .*scan\.pdf \(empty, 0 bytes\)/);

    await h.scheduler.advance(10_000); // the scanner takes its time: far longer than stable_ms (150 ms)
    assert.equal((await all(h)).length, 0);
    await writeFile(path, await numberedInvoice(5));
    const [row] = await h.until('scan.pdf done', async () => {
      const list = await all(h);
      return list.length === 1 && final(list[0]!) && list;
    });
    assert.equal(row!.state, 'done', row!.lastError ?? '');
    assert.match(JSON.stringify(row!.result), /INV-00005/);
    assert.deepEqual(await h.ledger.listWaiting(), []);
  } finally {
    await h.close();
  }
});

test('a file that stays empty past the incomplete wait fails as empty_file', { timeout: 120_000 }, async () => {
  const h = await harness();
  try {
    const path = join(h.inbox, 'never.pdf');
    await writeFile(path, '');
    assert.equal(await h.pipeline.accept('invoices', path), null);
    const [row] = await h.until('never.pdf failed', async () => {
      const list = await all(h);
      return list.length === 1 && final(list[0]!) && list;
    });
    assert.equal(row!.state, 'failed');
    assert.match(row!.lastError ?? '', /^empty_file: the file is empty/);
    const note = JSON.parse(await readFile(`${row!.finalPath}.error.json`, 'utf8')) as { kind: string };
    assert.equal(note.kind, 'empty_file');
    assert.deepEqual(await h.ledger.listWaiting(), []);
  } finally {
    await h.close();
  }
});

test('a stable file whose end never comes is logged once, waits a bounded time, then is taken as it is', { timeout: 120_000 }, async () => {
  const h = await harness();
  try {
    const pdf = await numberedInvoice(6);
    const path = join(h.inbox, 'cut.pdf');
    await writeFile(path, pdf.subarray(0, pdf.lastIndexOf('%%EOF')));
    assert.equal(await h.pipeline.accept('invoices', path), null);
    assert.deepEqual((await h.ledger.listWaiting()).map((w) => w.reason), ['incomplete']);
    const [row] = await h.until('cut.pdf final', async () => {
      const list = await all(h);
      return list.length === 1 && final(list[0]!) && list;
    });
    // The service reads what it can, or fails it with a reason: either way it is no longer wedged.
    assert.ok(row!.state === 'done' || row!.lastError, `${row!.state}`);
    assert.equal(h.logged.filter((m) => /not complete yet/.test(m)).length, 1, h.logged.join('\n'));
    assert.equal(h.logged.filter((m) => /taking it as it is/.test(m)).length, 1);
    assert.deepEqual(await h.ledger.listWaiting(), []);
  } finally {
    await h.close();
  }
});

test('a file reached through a symlinked folder in the inbox is read in place and left there, and not taken again', { timeout: 120_000 }, async () => {
  const h = await harness();
  try {
    const outside = join(h.tree.root, 'elsewhere');
    await mkdir(outside);
    const target = join(outside, 'x.pdf');
    const bytes = await numberedInvoice(7);
    await writeFile(target, bytes);
    await symlink(outside, join(h.inbox, 'linked'));
    const path = join(h.inbox, 'linked', 'x.pdf');
    const record = await h.pipeline.accept('invoices', path);
    assert.ok(record);
    const done = await h.until('x.pdf done', async () => {
      const r = (await h.ledger.get(record.id))!;
      return final(r) && r;
    });
    assert.equal(done.state, 'done', done.lastError ?? '');
    assert.equal(done.finalPath, path, 'left where it was');
    assert.deepEqual(await readFile(target), bytes);
    assert.equal(existsSync(join(h.tree.root, 'processed')), false);
    // Seen again (a rescan, a restart): the ledger has it finished.
    assert.equal(await h.pipeline.accept('invoices', path), null);
    assert.equal((await all(h)).length, 1);
  } finally {
    await h.close();
  }
});

async function docdrop(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: REPO, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
