// The folder rules of docs/architecture.md, as .dependency-cruiser.mjs states them, hold for src/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cruise, type ICruiseOptions, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const { default: rules } = (await import(pathToFileURL(join(REPO, '.dependency-cruiser.mjs')).href)) as {
  default: { forbidden: IForbiddenRuleType[]; options: ICruiseOptions };
};

async function violations(baseDir: string): Promise<string[]> {
  const { output } = await cruise(['src'], {
    ...rules.options,
    baseDir,
    validate: true,
    ruleSet: { forbidden: rules.forbidden },
    tsConfig: { fileName: join(REPO, 'tsconfig.json') },
  });
  const result = output as ICruiseResult;
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`);
}

test('src/ breaks no folder rule and has no import cycle', async () => {
  assert.deepEqual(await violations(REPO), []);
});

test('the rules catch a forbidden folder import and a type-only cycle', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-arch-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const files: Record<string, string> = {
    'src/engine/reader.ts': "import { handler } from '../service/handler.js';\nexport const reader = handler;\n",
    'src/service/handler.ts': 'export const handler = 1;\n',
    'src/daemon/ledger/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
    'src/daemon/ledger/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  const found = await violations(dir);
  assert.ok(found.some((v) => v.startsWith('engine-on-contract: src/engine/reader.ts -> src/service/handler.ts')), found.join('\n'));
  assert.ok(found.some((v) => v.startsWith('no-cycle: src/daemon/ledger/a.ts')), found.join('\n'));
});

test('docs/architecture.md names every folder of src/', async () => {
  const { readdir, readFile } = await import('node:fs/promises');
  const doc = await readFile(join(REPO, 'docs/architecture.md'), 'utf8');
  const folders = (await readdir(join(REPO, 'src'), { recursive: true, withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(join(REPO, 'src').length + 1));
  const missing = folders.filter((f) => !doc.includes(`src/${f}/`) && !doc.includes(`\`${f.split('/').at(-1)}/\``));
  assert.deepEqual(missing, []);
});
