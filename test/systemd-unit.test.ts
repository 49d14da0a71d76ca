// The shipped unit must load cleanly: systemd-analyze only warns (exit 0) on misspelt keys and bad
// values, so any output at all counts as a failure here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
