// The jobs side's `docdrop serve` flags as a user types them: --fault-* reach the running service, and a
// bad value stops it at start with a message naming the flag.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';

let dataDir: string;
before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docdrop-fault-flags-'));
});
after(() => rm(dataDir, { recursive: true, force: true }));

function serve(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--data-dir', dataDir, '--api-key', 'k', ...args], {
    env: { ...process.env, DOCDROP_API_KEYS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    const onData = (b: Buffer) => {
      log += b.toString();
      const m = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) resolve(m[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${log}`)));
  });
  url.catch(() => undefined);
  return { child, url, exited, log: () => log };
}

test('--fault-429-rate 1 --fault-retry-after 3 answers every API call 429 with Retry-After: 3', async () => {
  const s = serve(['--fault-429-rate', '1', '--fault-retry-after', '3', '--smtp-port', '0']);
  try {
    const url = await s.url;
    const res = await request(`${url}/v1/templates`, { headers: { 'x-api-key': 'k' } });
    assert.equal(res.statusCode, 429);
    assert.equal(res.headers['retry-after'], '3');
    await res.body.dump();
  } finally {
    s.child.kill('SIGTERM');
    await s.exited;
  }
});

test('a fault rate outside 0..1 stops serve at start, naming the flag', async () => {
  const s = serve(['--fault-5xx-rate', '1.5']);
  assert.notEqual(await s.exited, 0);
  assert.match(s.log(), /--fault-5xx-rate: expected a share between 0 and 1, received 1\.5/);
});

test('a --pdf-workers that is not a whole number >= 1 stops serve at start, naming the flag', async () => {
  const s = serve(['--pdf-workers', '0']);
  assert.notEqual(await s.exited, 0);
  assert.match(s.log(), /--pdf-workers must be a whole number >= 1, got 0/);
});

test('a malformed --fault-job-delay-ms stops serve at start with the expected form', async () => {
  const s = serve(['--fault-job-delay-ms', 'slow']);
  assert.notEqual(await s.exited, 0);
  assert.match(s.log(), /--fault-job-delay-ms: expected milliseconds as N or MIN-MAX/);
});
