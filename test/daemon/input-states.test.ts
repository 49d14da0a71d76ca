// The input states are listed once, in the ledger port (INPUT_STATES); what else names them is checked
// against that list here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { FINAL_STATES, INPUT_STATES } from '../../src/daemon/ledger/ledger.js';

test('README lists the input states of the ledger, in order', async () => {
  const readme = await readFile(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
  const line = readme.split('\n').find((l) => l.startsWith('| `--state S`'));
  assert.ok(line, 'README documents status --state');
  assert.deepEqual([...line.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]), [...INPUT_STATES]);
});

test('the final states are input states', () => {
  for (const s of FINAL_STATES) assert.ok(INPUT_STATES.includes(s), s);
});
