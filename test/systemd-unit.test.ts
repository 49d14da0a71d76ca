// The shipped units must load cleanly: systemd-analyze only warns (exit 0) on misspelt keys and bad
// values, so any output at all counts as a failure here. The sysusers.d and tmpfiles.d files are applied
// to a scratch root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unitRuntime } from '../bench/daemon-process.js';

const SYSTEMD = join(import.meta.dirname, '..', 'systemd');
const UNITS = ['docdrop.service', 'docdrop-serve.service'];
const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
const skip = !hasAnalyze && 'systemd-analyze not installed';

for (const name of UNITS) {
  test(`${name} verifies without any warning`, { skip }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'docdrop-unit-'));
    try {
      copyFileSync(join(SYSTEMD, name), join(dir, name));
      const r = spawnSync('systemd-analyze', ['verify', '--man=no', join(dir, name)], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.equal((r.stdout + r.stderr).trim(), '');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test(`${name} is hardened (exposure score at most 2.0)`, { skip }, () => {
    const r = spawnSync('systemd-analyze', ['security', '--offline=yes', '--threshold=20', join(SYSTEMD, name)], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const m = /Overall exposure level for \S+: ([\d.]+)/.exec(r.stdout);
    assert.ok(m, r.stdout);
    assert.ok(Number(m[1]) <= 2.0, `exposure ${m[1]}`);
  });

  test(`${name} is Type=notify with a watchdog, and only its main process may notify`, () => {
    const text = readFileSync(join(SYSTEMD, name), 'utf8');
    for (const line of ['Type=notify', 'NotifyAccess=main', 'WatchdogSec=60s', 'Restart=on-failure']) assert.match(text, new RegExp(`^${line}$`, 'm'));
  });
}

test('docdrop.service reloads with SIGHUP (the daemon re-reads its config)', () => {
  assert.match(readFileSync(join(SYSTEMD, 'docdrop.service'), 'utf8'), /^ExecReload=\/bin\/kill -HUP \$MAINPID$/m);
});

const hasSysusers = spawnSync('systemd-sysusers', ['--version']).status === 0 && spawnSync('systemd-tmpfiles', ['--version']).status === 0;
test('sysusers.d creates the docdrop user and tmpfiles.d its folders, owned by it (in a scratch root)', { skip: !hasSysusers && 'systemd-sysusers/tmpfiles not installed' }, () => {
  const root = mkdtempSync(join(tmpdir(), 'docdrop-root-'));
  try {
    mkdirSync(join(root, 'etc'));
    const users = spawnSync('systemd-sysusers', [`--root=${root}`, join(SYSTEMD, 'docdrop.sysusers.conf')], { encoding: 'utf8' });
    assert.equal(users.status, 0, users.stderr);
    const entry = readFileSync(join(root, 'etc/passwd'), 'utf8').split('\n').find((l) => l.startsWith('docdrop:'));
    assert.ok(entry, 'docdrop in passwd');
    const [, , uid, gid, , home, shell] = entry.split(':');
    assert.equal(home, '/var/lib/docdrop');
    assert.match(shell!, /nologin/);
    const dirs = spawnSync('systemd-tmpfiles', [`--root=${root}`, '--create', join(SYSTEMD, 'docdrop.tmpfiles.conf')], { encoding: 'utf8' });
    assert.equal(dirs.status, 0, dirs.stderr);
    for (const [path, mode, owner] of [
      ['srv/docdrop', 0o770, uid],
      ['srv/docdrop/inbox', 0o2770, uid],
      ['srv/docdrop/outbox', 0o2750, uid],
      ['etc/docdrop', 0o750, '0'],
    ] as const) {
      const st = statSync(join(root, path));
      assert.equal(st.mode & 0o7777, mode, path);
      assert.equal(String(st.uid), owner, path);
      assert.equal(String(st.gid), gid, path);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
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
