import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { inspectFile, sha256File } from '../../src/daemon/intake/folder/folder-intake.js';

const dir = await mkdtemp(join(tmpdir(), 'docdrop-filecheck-'));
after(() => rm(dir, { recursive: true, force: true }));

async function fixture(name: string, bytes: Buffer | Uint8Array): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, bytes);
  return p;
}

async function pdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText('Invoice 42', { x: 20, y: 100 });
  return Buffer.from(await doc.save());
}

const image = (format: 'jpeg' | 'png' | 'tiff') =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .toFormat(format)
    .toBuffer();

const kinds: [string, 'pdf' | 'jpeg' | 'png' | 'tiff', () => Promise<Buffer>][] = [
  ['PDF', 'pdf', pdf],
  ['JPEG', 'jpeg', () => image('jpeg')],
  ['PNG', 'png', () => image('png')],
  ['TIFF (JPEG-compressed, tables at the end)', 'tiff', () => image('tiff')],
  ['TIFF (LZW)', 'tiff', () => sharp({ create: { width: 300, height: 200, channels: 3, background: '#808080' } }).tiff({ compression: 'lzw' }).toBuffer()],
];
for (const [label, kind, make] of kinds) {
  test(`a whole ${label} is complete and one cut short by a slow copier is not`, async () => {
    const bytes = await make();
    assert.equal((await inspectFile(await fixture(`whole-${label}.${kind}`, bytes)))?.complete, true);
    const cut = bytes.subarray(0, Math.floor(bytes.length * 0.6));
    assert.equal((await inspectFile(await fixture(`cut-${label}.${kind}`, cut)))?.complete, false);
  });
}

const sha = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');
const bigTiff = () => sharp({ create: { width: 1200, height: 1000, channels: 3, background: '#406080' } }).tiff({ compression: 'none' }).toBuffer();
for (const [label, kind, make] of [...kinds, ['TIFF over 1 MiB (streamed, not read whole)', 'tiff', bigTiff] as const]) {
  test(`inspectFile tells the kind, completeness and sha256 of a ${label} in one pass`, async () => {
    const bytes = await make();
    const whole = await inspectFile(await fixture(`inspect-${label}.${kind}`, bytes));
    assert.deepEqual({ ...whole, mtimeMs: 0 }, { size: bytes.length, mtimeMs: 0, kind, complete: true, sha256: sha(bytes) });
    const cut = await inspectFile(await fixture(`inspect-cut-${label}.${kind}`, bytes.subarray(0, Math.floor(bytes.length * 0.6))));
    assert.equal(cut?.kind, kind);
    assert.equal(cut?.complete, false);
    assert.equal(cut?.sha256, null, 'no hash of a file still being written');
  });
}

test('inspectFile: an unsupported type is complete with its hash (it fails as such), a folder or a missing path is null', async () => {
  const text = Buffer.from('just some text, not a document');
  assert.deepEqual({ ...(await inspectFile(await fixture('notes.txt', text))), mtimeMs: 0 }, { size: text.length, mtimeMs: 0, kind: null, complete: true, sha256: sha(text) });
  assert.equal(await inspectFile(dir), null);
  assert.equal(await inspectFile(join(dir, 'gone.pdf')), null);
});

test('a PDF with bytes after %%EOF is still complete; a missing file is not', async () => {
  const bytes = Buffer.concat([await pdf(), Buffer.from('\n\0\0\r\n')]);
  assert.equal((await inspectFile(await fixture('trailing.pdf', bytes)))?.complete, true);
  assert.equal(await inspectFile(join(dir, 'nope.pdf')), null);
});

test('sha256File streams the file and returns the hex digest', async () => {
  const bytes = Buffer.alloc(3 * 1024 * 1024 + 7, 0x5a);
  const p = await fixture('big.bin', bytes);
  assert.equal(await sha256File(p), createHash('sha256').update(bytes).digest('hex'));
});
