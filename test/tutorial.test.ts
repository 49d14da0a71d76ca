// The README's tutorial ("Your own Workflow in five minutes"), run as written: its YAML block becomes the
// config file it names, and every shell line runs in a scratch checkout layout with `npx docdrop`
// pointing at this build. A README edit that breaks the tutorial breaks this test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pdfOf } from './helpers/job-fixtures.js';
import { tempFiles } from './helpers/service-fixtures.js';

const REPO = resolve(import.meta.dirname, '..');
const CLI = `${process.execPath} ${join(REPO, 'dist/src/cli/main.js')}`;

function tutorialSection(readme: string): string {
  const start = readme.indexOf('## Your own Workflow in five minutes');
  assert.ok(start >= 0, 'README has the tutorial section');
  const end = readme.indexOf('\n## ', start + 3);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** Fenced blocks of the section, in order, with their language. */
function blocks(section: string): { lang: string; body: string }[] {
  return [...section.matchAll(/^[ \t]*```(\w+)\n([\s\S]*?)^[ \t]*```/gm)].map((m) => ({
    lang: m[1]!,
    body: m[2]!.replace(/^ {3}/gm, ''),
  }));
}

/** A purchase order like the one the tutorial has in mind. */
function purchaseOrder(): Promise<Buffer> {
  return pdfOf([
    [
      [50, 60, 'Northwind Traders'],
      [50, 80, 'PURCHASE ORDER'],
      [50, 120, 'PO Number:'], [200, 120, 'PO-2026-0412'],
      [50, 140, 'Order Date:'], [200, 140, '03.11.2026'],
      [50, 200, 'SKU'], [200, 200, 'Description'], [450, 200, 'Qty'],
      [50, 220, 'NW-100'], [200, 220, 'Copy paper A4'], [450, 220, '12'],
      [50, 240, 'NW-205'], [200, 240, 'Toner black'], [450, 240, '3'],
    ],
  ]);
}

async function waitForFile(dir: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const names = await readdir(dir).catch(() => []);
    if (names.some((n) => n.endsWith('.csv'))) return;
    if (Date.now() > until) throw new Error(`no CSV appeared in ${dir}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test("the README tutorial's commands work as written and end in a CSV of the order's lines", async () => {
  const steps = blocks(tutorialSection(await readFile(join(REPO, 'README.md'), 'utf8')));
  const tmp = await tempFiles();
  const background: ChildProcess[] = [];
  try {
    const root = tmp.dir;
    await writeFile(join(root, 'po.pdf'), await purchaseOrder());
    const outputs: string[] = [];
    for (const step of steps) {
      if (step.lang === 'yaml') {
        const path = /^# (\S+)/.exec(step.body)?.[1];
        assert.ok(path, 'the YAML block names its file in a first-line comment');
        await mkdir(join(root, path, '..'), { recursive: true });
        await writeFile(join(root, path), step.body);
        continue;
      }
      for (const raw of step.body.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean)) {
        const line = raw.replaceAll('npx docdrop', CLI);
        if (line.endsWith('&')) {
          background.push(spawn('sh', ['-c', `exec ${line.slice(0, -1)}`], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] }));
          continue;
        }
        if (line.startsWith('cat var/outbox/')) await waitForFile(join(root, 'var/outbox/orders'), 60_000);
        const r = spawnSync('sh', ['-c', line], { cwd: root, encoding: 'utf8', timeout: 120_000 });
        assert.equal(r.status, 0, `${raw}\n${r.stdout}${r.stderr}`);
        outputs.push(r.stdout);
      }
    }
    const [tried, , csv] = [outputs[0]!, outputs[1], outputs.at(-1)!];
    assert.match(tried, /po_number\s.*PO-2026-0412/);
    assert.match(tried, /NW-205/);
    const rows = csv.trim().split('\n');
    assert.equal(rows.length, 3, csv);
    assert.match(rows[0]!, /po_number/);
    assert.match(rows[1]!, /PO-2026-0412.*2026-11-03.*NW-100.*12/);
    assert.match(rows[2]!, /NW-205.*3/);
  } finally {
    for (const p of background) p.kill('SIGTERM');
    await Promise.all(background.map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once('exit', r)))));
    await tmp.cleanup();
  }
});
