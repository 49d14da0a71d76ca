// `docdrop serve` as docdrop-serve.service runs it (Type=notify, WatchdogSec=): a real serve process
// reports READY=1 once listening, WATCHDOG=1 while its event loop turns, and STOPPING=1 on SIGTERM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServeProcess } from '../../bench/daemon-process.js';
import { waitFor } from '../daemon/pipeline-fixtures.js';

interface DgramSocket {
  bind(path: string): void;
  on(event: 'message', fn: (buf: Buffer) => void): void;
  close(): void;
}
const dgram = createRequire(import.meta.url)('unix-dgram') as { createSocket(type: 'unix_dgram'): DgramSocket };

test('serve notifies READY=1 with its address, WATCHDOG=1, and STOPPING=1', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-serve-notify-'));
  const socket = dgram.createSocket('unix_dgram');
  const messages: string[] = [];
  socket.on('message', (buf) => messages.push(buf.toString()));
  socket.bind(join(dir, 'notify.sock'));
  const serve = await startServeProcess(join(dir, 'data'), 'serve-notify-key', {
    tsx: true,
    env: { NOTIFY_SOCKET: join(dir, 'notify.sock'), WATCHDOG_USEC: '400000' },
  });
  try {
    const ready = await waitFor('READY=1', async () => messages.find((m) => m.startsWith('READY=1')));
    assert.equal(ready, `READY=1\nSTATUS=listening at ${serve.url}`);
    await waitFor('2 keep-alives', async () => messages.filter((m) => m === 'WATCHDOG=1').length >= 2);
    serve.child.kill('SIGTERM');
    await serve.exited;
    assert.equal(serve.child.exitCode, 0, serve.log());
    await waitFor('STOPPING=1', async () => messages.includes('STOPPING=1'));
  } finally {
    if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
    socket.close();
    await rm(dir, { recursive: true, force: true });
  }
});
