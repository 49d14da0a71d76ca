// `docdrop serve` as a user runs it: a child process that logs its URL, serves, and exits cleanly on SIGTERM.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { raw } from '../helpers/service-fixtures.js';

let dataDir: string;
before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docdrop-serve-cli-'));
});
after(() => rm(dataDir, { recursive: true, force: true }));

function serve(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', ...args], {
    env: { ...process.env, ...env, DOCDROP_API_KEYS: env.DOCDROP_API_KEYS ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = new Promise<string>((resolve, reject) => {
    const onData = (b: Buffer) => {
      log += b.toString();
      const m = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) resolve(m[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`serve exited ${code} before listening: ${log}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, url, exited, log: () => log };
}

test('serves with --api-key flags and DOCDROP_API_KEYS, logs the URL but never the keys, stops on SIGTERM', async () => {
  const s = serve(['--port', '0', '--data-dir', dataDir, '--api-key', 'flag-key-123'], { DOCDROP_API_KEYS: 'env-key-456, env-key-789' });
  try {
    const url = await s.url;
    for (const key of ['flag-key-123', 'env-key-456', 'env-key-789']) {
      assert.equal((await raw(`${url}/v1/templates`, { key })).status, 200, key);
    }
    assert.equal((await raw(`${url}/v1/templates`, { key: 'nope' })).status, 401);
  } finally {
    s.child.kill('SIGTERM');
  }
  assert.equal(await s.exited, 0);
  assert.doesNotMatch(s.log(), /flag-key-123|env-key-456|env-key-789/);
});

test('reads account keys from --api-key-file, one per line, skipping blank lines and # comments', async () => {
  const file = join(dataDir, 'api-keys');
  await writeFile(file, '# accounts\nfile-key-aaa\n\n  file-key-bbb  \n# file-key-old\n', { mode: 0o600 });
  const s = serve(['--port', '0', '--data-dir', dataDir, '--api-key-file', file]);
  try {
    const url = await s.url;
    for (const key of ['file-key-aaa', 'file-key-bbb']) assert.equal((await raw(`${url}/v1/templates`, { key })).status, 200, key);
    for (const key of ['file-key-old', '# accounts']) assert.equal((await raw(`${url}/v1/templates`, { key })).status, 401, key);
  } finally {
    s.child.kill('SIGTERM');
  }
  assert.equal(await s.exited, 0);
  assert.doesNotMatch(s.log(), /file-key-/);
});

test('refuses to start without any API key', async () => {
  const s = serve(['--port', '0', '--data-dir', dataDir]);
  s.url.catch(() => {});
  assert.notEqual(await s.exited, 0);
  assert.match(s.log(), /api-key/);
});

test('a missing key, a missing option or a busy port is one clear line on stderr and exit 1, without help text or stack', async () => {
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const port = (busy.address() as AddressInfo).port;
  try {
    const cases: [string[], RegExp][] = [
      [['--port', '0', '--data-dir', dataDir], /^docdrop serve: --api-key: expected at least one key/],
      [['--port', '0', '--api-key', 'k'], /^docdrop serve: Missing required argument: data-dir \(see docdrop serve --help\)$/],
      [['--port', String(port), '--data-dir', dataDir, '--api-key', 'k'], new RegExp(`^docdrop serve: 127\\.0\\.0\\.1:${port} is already in use`)],
    ];
    for (const [args, expected] of cases) {
      const s = serve(args);
      s.url.catch(() => {});
      assert.equal(await s.exited, 1, s.log());
      const lines = s.log().trim().split('\n');
      assert.equal(lines.length, 1, s.log());
      assert.match(lines[0]!, expected);
    }
  } finally {
    busy.close();
  }
});
