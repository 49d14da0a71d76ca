// `docdrop serve` limits what one client can hold open: headers must arrive within --headers-timeout-s,
// a request body must keep a minimum rate over each --body-timeout-s window (authenticated or not), a
// silent connection is closed after --idle-timeout-s, and one address holds at most
// --max-connections-per-ip connections. A slow but steady body longer than the window still completes.
// The timeouts are set to ~1 s here; each test waits for the server to close a real socket.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { ServiceClient } from '../../src/api/client.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
let port: number;

before(async () => {
  svc = await startTestService({ headersTimeoutMs: 800, bodyTimeoutMs: 800, idleTimeoutMs: 1500, maxConnectionsPerIp: 3 });
  port = Number(new URL(svc.url).port);
});
after(() => svc.close());

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** Writes `chunk` every `everyMs` until the server closes the socket; resolves with what the server sent. */
async function trickle(s: Socket, chunk: string, everyMs: number): Promise<string> {
  let answer = '';
  s.on('data', (d) => (answer += d.toString()));
  s.on('error', () => {});
  const closed = new Promise<void>((r) => s.once('close', () => r()));
  let done = false;
  void closed.then(() => (done = true));
  while (!done) {
    if (s.writable) s.write(chunk);
    await Promise.race([sleep(everyMs), closed]);
  }
  return answer;
}

const TEST_TIMEOUT = { timeout: 20_000 };

describe('connection limits', () => {
  test('a request whose headers trickle in is closed', TEST_TIMEOUT, async () => {
    const s = await open();
    s.write(`GET /v1/documents HTTP/1.1\r\nHost: x\r\n`);
    await trickle(s, 'X', 100); // one header byte every 100 ms, never the blank line
  });

  test('an unauthenticated request whose body trickles in is closed', TEST_TIMEOUT, async () => {
    const s = await open();
    s.write(`POST /v1/documents HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n`);
    await trickle(s, 'a', 100);
  });

  test('a pre-signed PUT whose body trickles in is closed', TEST_TIMEOUT, async () => {
    const client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false });
    const { upload_url } = await client.getUploadUrl('slow.pdf');
    const u = new URL(upload_url);
    const s = await open();
    s.write(`PUT ${u.pathname}${u.search} HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n`);
    await trickle(s, '%', 100);
  });

  test('a slow but steady pre-signed PUT that lasts several windows completes', TEST_TIMEOUT, async () => {
    const client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false });
    const { upload_url } = await client.getUploadUrl('steady.pdf');
    const chunk = Buffer.alloc(16 * 1024, 0x25);
    const chunks = 8; // 128 KiB at 16 KiB per 300 ms: ~2.4 s, three times the 0.8 s window
    const res = await request(upload_url, {
      method: 'PUT',
      headers: { 'content-length': String(chunk.length * chunks) },
      body: Readable.from(
        (async function* () {
          for (let i = 0; i < chunks; i++) {
            yield chunk;
            await sleep(300);
          }
        })(),
      ),
    });
    const body = (await res.body.json()) as { success: boolean; message: string };
    assert.equal(res.statusCode, 200, JSON.stringify(body));
    assert.match(body.message, new RegExp(`received ${chunk.length * chunks} bytes`));
  });

  test('a connection that sends nothing is closed', TEST_TIMEOUT, async () => {
    const s = await open();
    s.resume(); // read, so the server's close is seen
    await new Promise<void>((r) => s.once('close', () => r()));
  });

  test('a keep-alive connection left idle after its request is closed', TEST_TIMEOUT, async () => {
    const s = await open();
    let answer = '';
    s.on('data', (d) => (answer += d.toString()));
    s.write(`GET /v1/documents HTTP/1.1\r\nHost: x\r\nx-api-key: ${svc.keys[0]}\r\n\r\n`);
    await new Promise<void>((r) => s.once('close', () => r()));
    assert.match(answer, /^HTTP\/1.1 200/);
  });

  test('one address holds at most the cap of open connections; the others still answer', TEST_TIMEOUT, async () => {
    const held = [await open(), await open(), await open()];
    const extra = await open();
    extra.resume();
    await new Promise<void>((r) => extra.once('close', () => r()));
    for (const s of held) s.destroy();
    await sleep(50);
    const res = await request(`${svc.url}/v1/documents`, { headers: { 'x-api-key': svc.keys[0] } });
    assert.equal(res.statusCode, 200);
    await res.body.dump();
  });
});
