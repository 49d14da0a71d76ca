// The daemon's commands as a person runs them: `docdrop process`, `status --json`, `retry --failed`,
// spawned as real processes against a real service and a real ledger.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ServiceClient } from '../../src/api/client.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/shared/logger.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, listFiles, numberedInvoice, readCsvFile, tempTree, waitFor, writeConfig, type TempTree } from './pipeline-fixtures.js';

const REPO = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

async function docdrop(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: REPO, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('docdrop CLI', () => {
  let svc: TestService;
  let tree: TempTree;
  before(async () => {
    svc = await startTestService();
    tree = await tempTree('docdrop-cli-');
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
  });
  after(async () => {
    await svc.close();
    await tree.cleanup();
  });

  test('process exits 0 when every file succeeded and writes one output per file', async () => {
    const files = [join(tree.root, 'a.pdf'), join(tree.root, 'b.pdf')];
    await writeFile(files[0]!, await numberedInvoice(11));
    await writeFile(files[1]!, await numberedInvoice(12));
    const out = join(tree.root, 'out-ok');
    const r = await docdrop(['process', ...files, '--workflow', 'Invoices', '--out', out, '--base-url', svc.url, '--api-key', svc.keys[0]!]);
    assert.equal(r.code, 0, r.stderr);
    const outputs = await listFiles(out);
    assert.equal(outputs.length, 2);
    const numbers = await Promise.all(outputs.map(async (o) => (await readCsvFile(join(out, o))).rows[0]!.invoice_number));
    assert.deepEqual(numbers.sort(), ['INV-00011', 'INV-00012']);
    assert.match(r.stdout, /ok\s+.*a\.pdf/);
  });

  test('process exits non-zero and names each failed file with its reason', async () => {
    const good = join(tree.root, 'good.pdf');
    const bad = join(tree.root, 'bad.pdf');
    await writeFile(good, await numberedInvoice(13));
    await writeFile(bad, 'plain text pretending to be a PDF');
    const out = join(tree.root, 'out-mixed');
    const r = await docdrop(['process', good, bad, join(tree.root, 'missing.pdf'), '--workflow', 'Invoices', '--out', out, '--base-url', svc.url, '--api-key', svc.keys[0]!]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /failed\s+.*bad\.pdf: unsupported_file_type/);
    assert.match(r.stderr, /failed\s+.*missing\.pdf: cannot read the file: ENOENT/);
    assert.match(r.stderr, /2 of 3 file\(s\) failed/);
    assert.equal((await listFiles(out)).length, 1, 'the good file still has its output');
  });

  test('process refuses an unknown Workflow with a message listing the existing ones', async () => {
    const f = join(tree.root, 'c.pdf');
    await writeFile(f, await numberedInvoice(14));
    const r = await docdrop(['process', f, '--workflow', 'Nope', '--out', join(tree.root, 'out-x'), '--base-url', svc.url, '--api-key', svc.keys[0]!]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /"Nope".*"Invoices"/s);
  });

  test('status --json counts inputs by state and retry --failed brings a failed file back to its inbox', async () => {
    const root = join(tree.root, 'daemon');
    await mkdir(root, { recursive: true });
    const { path: configPath, config } = await writeConfig(root, configYaml({ root, baseUrl: svc.url, apiKey: svc.keys[0]! }));
    const inbox = config.rules[0]!.watch;
    await mkdir(inbox, { recursive: true });
    await writeFile(join(inbox, 'inv.pdf'), await numberedInvoice(21));
    await writeFile(join(inbox, 'junk.pdf'), 'not a pdf at all');
    const daemon = await startDaemon(config, { logger: silentLogger });
    try {
      await waitFor('both inputs final', async () => {
        const c = await daemon.ledger.countByState();
        return c.done === 1 && c.failed === 1;
      });
    } finally {
      await daemon.stop();
    }

    const status = await docdrop(['status', '--json', '--config', configPath]);
    assert.equal(status.code, 0, status.stderr);
    const parsed = JSON.parse(status.stdout) as { counts: Record<string, number>; inputs: { state: string; path: string; last_error: string | null }[] };
    assert.equal(parsed.counts.done, 1);
    assert.equal(parsed.counts.failed, 1);
    const failed = parsed.inputs.find((i) => i.state === 'failed')!;
    assert.equal(failed.path, join(inbox, 'junk.pdf'));
    assert.match(failed.last_error ?? '', /unsupported_file_type/);

    const table = await docdrop(['status', '--state', 'failed', '--config', configPath]);
    assert.match(table.stdout, /failed: 1/);
    assert.match(table.stdout, /junk\.pdf/);

    const retry = await docdrop(['retry', '--failed', '--config', configPath]);
    assert.equal(retry.code, 0, retry.stderr);
    assert.match(retry.stdout, /retried #\d+ .*junk\.pdf/);
    assert.deepEqual(await listFiles(inbox), ['junk.pdf']);
    assert.deepEqual(await listFiles(join(root, 'failed', 'invoices')), [], 'file and its .error.json left failed_dir');
  });
});
