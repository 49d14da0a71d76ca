// The shipped unit must load cleanly: systemd-analyze only warns (exit 0) on misspelt keys and bad
// values, so any output at all counts as a failure here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unitRuntime } from '../bench/daemon-process.js';

const unit = join(import.meta.dirname, '..', 'systemd', 'docdrop.service');
const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

test('systemd unit verifies without any warning', { skip: !hasAnalyze && 'systemd-analyze not installed' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'docdrop-unit-'));
  try {
    copyFileSync(unit, join(dir, 'docdrop.service'));
    const r = spawnSync('systemd-analyze', ['verify', '--man=no', join(dir, 'docdrop.service')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal((r.stdout + r.stderr).trim(), '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('systemd unit is hardened (exposure score at most 2.0)', { skip: !hasAnalyze && 'systemd-analyze not installed' }, () => {
  const r = spawnSync('systemd-analyze', ['security', '--offline=yes', '--threshold=20', unit], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const m = /Overall exposure level for \S+: ([\d.]+)/.exec(r.stdout);
  assert.ok(m, r.stdout);
  assert.ok(Number(m[1]) <= 2.0, `exposure ${m[1]}`);
});

// The quick start should have the memory profile of the deployed service (bench/accuracy measures the unit's).
test("npm start runs node with the unit's node flags and malloc settings", async () => {
  const { nodeFlags, env } = await unitRuntime();
  assert.ok(nodeFlags.includes('--optimize-for-size'), nodeFlags.join(' '));
  const start: string = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')).scripts.start;
  const m = /^((?:\w+=\S+ )*)node ((?:--\S+ )*)dist\//.exec(start);
  assert.ok(m, start);
  assert.deepEqual(m[2]!.trim().split(' '), nodeFlags);
  const startEnv = Object.fromEntries(m[1]!.trim().split(' ').map((kv) => kv.split('=')));
  for (const k of Object.keys(env).filter((k) => k.startsWith('MALLOC_'))) assert.equal(startEnv[k], env[k], k);
});
