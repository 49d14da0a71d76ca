import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { closeOcr, recognize, type GrayImage } from '../../src/engine/read/ocr.js';

/**
 * Bytes of the WebAssembly memories of this process (tesseract's is the only one here): V8 maps each
 * as its accessible part followed by a reservation of several GiB without access.
 */
function wasmBytes(): number {
  const maps = readFileSync('/proc/self/smaps', 'utf8')
    .split('\n')
    .map((l) => /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(l))
    .filter((m) => m !== null)
    .map((m) => ({ start: BigInt(`0x${m[1]}`), end: BigInt(`0x${m[2]}`), perms: m[3], path: m[4] }));
  let total = 0n;
  for (let i = 0; i + 1 < maps.length; i++) {
    const [m, next] = [maps[i], maps[i + 1]];
    if (m.path === '' && m.perms.startsWith('rw') && next.start === m.end && next.perms === '---p' && next.end - next.start >= 1n << 30n) {
      total += m.end - m.start;
    }
  }
  return Number(total);
}

/** An A4 page at 300 dpi with `lines` rows of words, as a rendered scan would be. */
async function scanPage(seed: number): Promise<GrayImage> {
  const rows = Array.from({ length: 40 }, (_, i) => {
    const n = (seed * 7919 + i * 104729) % 100000;
    return `<text x="${150 + (i % 3) * 60}" y="${250 + i * 75}" font-size="42" font-family="DejaVu Sans, sans-serif">Item ${i + 1} of order ${n} price ${(n / 100).toFixed(2)} EUR</text>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2480" height="3508"><rect width="100%" height="100%" fill="white"/>${rows.join('')}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { gray: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height), width: info.width, height: info.height };
}

describe('tesseract memory', { skip: !existsSync('/proc/self/smaps') && 'needs /proc/self/smaps' }, () => {
  after(closeOcr);

  it('does not hold a page while it reads the next, so its WASM memory stays near what one page needs', async () => {
    const pages = await Promise.all([1, 2, 3].map(scanPage));
    const words = await recognize(pages[0], 300);
    assert.ok(words.some((w) => w.text === 'EUR'), 'the page was read');
    const afterOne = wasmBytes();
    for (const page of pages.slice(1)) await recognize(page, 300);
    const afterThree = wasmBytes();
    // Holding the previous page while reading the next grew it by about half (A4 at 300 dpi: 105 -> 165 MB).
    assert.ok(afterThree < afterOne * 1.3, `WASM memory ${(afterOne / 1e6).toFixed(0)} MB after one page, ${(afterThree / 1e6).toFixed(0)} MB after three`);
  });
});
