// Measures that client uploads stream from disk: peak RSS growth while sending a large file by the
// pre-signed PUT and by multipart, to a loopback server that discards the bytes.
// Run: npx tsx bench/api-upload-memory.ts [sizeMB=500]
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../src/api/client.js';

const sizeMb = Number(process.argv[2] ?? 500);
const dir = await mkdtemp(join(tmpdir(), 'docdrop-bench-upload-'));
const file = join(dir, 'big.pdf');
const fh = await open(file, 'w');
await fh.write('%PDF-1.7\n');
await fh.truncate(sizeMb * 1024 * 1024); // sparse: costs no disk, still read byte by byte
await fh.close();

let received = 0;
const server = http.createServer((req, res) => {
  req.on('data', (c: Buffer) => (received += c.length));
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ document_id: 'd', file_name: 'big.pdf' }));
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const client = new ServiceClient({ baseUrl: base, apiKey: 'k' });

async function measure(label: string, run: () => Promise<unknown>) {
  received = 0;
  global.gc?.();
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  await run();
  clearInterval(timer);
  const secs = (performance.now() - t0) / 1000;
  console.log(
    `${label}: ${sizeMb} MB sent (${(received / 2 ** 20).toFixed(0)} MB received) in ${secs.toFixed(1)} s, ` +
      `peak RSS growth ${((peak - start) / 2 ** 20).toFixed(1)} MB`,
  );
}

try {
  await measure('pre-signed PUT', () => client.putUpload(`${base}/presigned?sig=x`, file));
  await measure('multipart POST', () => client.uploadMultipart(file));
} finally {
  server.close();
  await rm(dir, { recursive: true, force: true });
}
