// The skew of a page's text lines, measured on rendered lines of text turned by known angles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { skewDegrees } from '../../src/engine/read/deskew.js';

async function receipt(turn: number): Promise<{ gray: Uint8Array; width: number; height: number }> {
  const rows = ['KWONG WAH GROUP ENTERPRISE', 'LOT G-36, GROUND FLOOR, MIDVALLEY MEGAMALL', 'JALAN TEBRAU, 10200 GEORGETOWN', 'TEL: 04-2261234'];
  for (let i = 0; i < 14; i++) rows.push(`ITEM ${i + 1} NASI LEMAK SPECIAL      ${(i + 3).toFixed(2)}`);
  const text = rows.map((r, i) => `<text x="40" y="${60 + i * 34}" font-family="DejaVu Sans Mono" font-size="20">${r}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="760" height="760"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).rotate(turn, { background: '#fff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { gray: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

test('the angle that levels text lines turned by a degree or two; a level page is left alone', async () => {
  for (const turn of [1.5, -2, 3]) {
    const r = await receipt(turn);
    const d = skewDegrees(r.gray, r.width, r.height);
    assert.ok(Math.abs(d + turn) <= 0.3, `turned ${turn}°, measured ${d}°`);
  }
  const level = await receipt(0);
  assert.equal(skewDegrees(level.gray, level.width, level.height), 0);
  assert.equal(skewDegrees(new Uint8Array(100 * 100).fill(255), 100, 100), 0);
});

/** A photo of a receipt lying on a dark table: light falling off across the paper, grain, a little blur. */
async function photo(turn: number, side = 120): Promise<{ gray: Uint8Array; width: number; height: number }> {
  const rows = ['GREENLEAF PHARMACY', '55 ELM AVE', 'SPRINGFIELD IL 62704'];
  for (let i = 0; i < 14; i++) rows.push(`ITEM ${i + 1} BANDAGES     ${(i + 3).toFixed(2)}`);
  const text = rows.map((r, i) => `<text x="30" y="${60 + i * 30}" font-family="DejaVu Sans" font-size="16">${r}</text>`).join('');
  const [w, h] = [420, 120 + rows.length * 30];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  const { data } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  let seed = 7;
  const grain = () => (seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5;
  const paper = Buffer.alloc(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const white = data[y * w + x] / 255;
      paper[y * w + x] = Math.max(0, Math.min(255, white * 232 * (1 - 0.35 * (x / w)) + 30 * (1 - white) + 30 * grain()));
    }
  const table = '#464646';
  const out = await sharp(paper, { raw: { width: w, height: h, channels: 1 } })
    .extend({ top: 40, bottom: 40, left: side, right: side, background: table })
    .rotate(turn, { background: table })
    .blur(1)
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { gray: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.length), width: out.info.width, height: out.info.height };
}

test('a receipt photographed on a dark table: its lines of text set the angle, not the table round the paper', async () => {
  for (const turn of [2, 3, -2.5]) {
    const r = await photo(turn);
    const d = skewDegrees(r.gray, r.width, r.height);
    assert.ok(Math.abs(d + turn) <= 0.5, `turned ${turn}°, measured ${d}°`);
  }
  // The table fills most of the picture, so its darkness is the picture's median: the paper is what is bright.
  for (const turn of [1.9, -1.5]) {
    const r = await photo(turn, 500);
    const d = skewDegrees(r.gray, r.width, r.height);
    assert.ok(Math.abs(d + turn) <= 0.5, `on a wide table, turned ${turn}°, measured ${d}°`);
  }
});
