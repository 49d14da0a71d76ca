// What `docdrop process` shows: one line per finished file when not on a terminal, JSON lines with a
// summary for scripts (real processes against a real service), and the progress bar on a terminal
// (its reporter driven with a stream that says it is one).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { createProgressReporter, progressModeFor } from '../../src/cli/process-progress.js';
import { docdrop } from '../helpers/cli.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { invoiceTemplate, numberedInvoice, tempTree, type TempTree } from './pipeline-fixtures.js';

describe('docdrop process output', () => {
  let svc: TestService;
  let tree: TempTree;
  let files: string[];
  before(async () => {
    svc = await startTestService();
    tree = await tempTree('docdrop-progress-');
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
    files = [join(tree.root, 'a.pdf'), join(tree.root, 'b.pdf'), join(tree.root, 'junk.pdf')];
    await writeFile(files[0]!, await numberedInvoice(41));
    await writeFile(files[1]!, await numberedInvoice(42));
    await writeFile(files[2]!, 'not a pdf');
  });
  after(async () => {
    await svc.close();
    await tree.cleanup();
  });

  test('without a terminal: one line per finished file (ok on stdout, failed on stderr) and the count of failures', async () => {
    const r = await docdrop(['process', ...files, '--workflow', 'Invoices', '--out', join(tree.root, 'out-lines'), '--base-url', svc.url, '--api-key', svc.keys[0]!]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout.split('\n').filter((l) => l.startsWith('ok ')).length, 2, r.stdout);
    assert.match(r.stdout, /^ok\s+\S*a\.pdf -> \S+\.csv$/m);
    assert.match(r.stderr, /^failed\s+\S*junk\.pdf: unsupported_file_type/m);
    assert.match(r.stderr, /^1 of 3 file\(s\) failed$/m);
    assert.doesNotMatch(r.stderr, /\x1b\[/, 'no terminal control codes in a pipe');
  });

  test('--json: one JSON line per finished file, then a summary line; the exit code is unchanged', async () => {
    const r = await docdrop(['process', ...files, '--workflow', 'Invoices', '--out', join(tree.root, 'out-json'), '--json', '--base-url', svc.url, '--api-key', svc.keys[0]!]);
    assert.equal(r.code, 1);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(lines.length, 4);
    const perFile = lines.slice(0, 3);
    assert.ok(perFile.every((l) => l.type === 'file'));
    assert.deepEqual(perFile.map((l) => String(l.path).split('/').pop()).sort(), ['a.pdf', 'b.pdf', 'junk.pdf']);
    const junk = perFile.find((l) => String(l.path).endsWith('junk.pdf'))!;
    assert.equal(junk.ok, false);
    assert.match(String(junk.error), /unsupported_file_type/);
    const good = perFile.find((l) => String(l.path).endsWith('a.pdf'))!;
    assert.equal(good.ok, true);
    assert.match(String(good.request_id), /^[0-9a-f-]{36}$/);
    assert.equal((good.outputs as string[]).length, 1);
    const summary = lines[3]!;
    assert.equal(summary.type, 'summary');
    assert.deepEqual({ total: summary.total, ok: summary.ok, failed: summary.failed }, { total: 3, ok: 2, failed: 1 });
  });
});

test('on a terminal: a progress bar with done, failed, total and rate, then the failed files', () => {
  const err = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
  const out = new PassThrough();
  let written = '';
  err.on('data', (c: Buffer) => (written += c.toString()));
  assert.equal(progressModeFor(false, err), 'bar');
  assert.equal(progressModeFor(false, {}), 'lines');
  assert.equal(progressModeFor(true, err), 'json');
  let now = 0;
  const reporter = createProgressReporter('bar', 3, { out, err }, () => now);
  const ok = { path: '/in/a.pdf', ok: true, outputs: ['/out/a.csv'], error: null, requestId: 'r1' };
  const bad = { path: '/in/b.pdf', ok: false, outputs: [], error: 'unsupported_file_type: not a PDF', requestId: null };
  const ok2 = { ...ok, path: '/in/c.pdf' };
  now = 1000;
  reporter.fileDone(ok);
  now = 2000;
  reporter.fileDone(bad);
  now = 3000;
  reporter.fileDone(ok2);
  assert.equal(reporter.finish([ok, bad, ok2]), 1);
  assert.match(written, /3\/3 \| ok 2 failed 1 \| 1\.00\/s \| ETA/);
  assert.match(written, /failed {2}\/in\/b\.pdf: unsupported_file_type: not a PDF\n/);
  assert.match(written, /2 ok, 1 failed in 3\.0 s\n/);
});
