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

test('valid files with bytes after their end are complete: a PDF with 3 KB after %%EOF, a JPEG with a motion-photo trailer', async () => {
  const doc = await pdf();
  const junk = Buffer.alloc(3000, 0x41);
  const padded = await inspectFile(await fixture('trailing.pdf', Buffer.concat([doc, junk])));
  assert.equal(padded?.complete, true);
  assert.equal(padded?.sha256, sha(Buffer.concat([doc, junk])));
  const jpeg = await image('jpeg');
  const video = Buffer.concat([Buffer.from('\0\0\0\x18ftypmp42'), Buffer.alloc(1024 * 1024 + 5000, 0x55)]); // over 1 MiB: streamed
  assert.equal((await inspectFile(await fixture('motion.jpg', Buffer.concat([jpeg, video]))))?.complete, true);
  assert.equal((await inspectFile(await fixture('motion-small.jpg', Buffer.concat([jpeg, video.subarray(0, 4000)]))))?.complete, true);
});

test('a JPEG cut short is incomplete even when its EXIF thumbnail has an end marker of its own', async () => {
  const thumb = await image('jpeg');
  const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#335577' } })
    .jpeg()
    .withExif({ IFD0: { ImageDescription: 'x'.repeat(10) } })
    .toBuffer();
  // An APP1 segment carrying a whole JPEG (with its FF D9) right after SOI, then the photo cut short.
  const app1Body = Buffer.concat([Buffer.from('Exif\0\0'), thumb]);
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1]), Buffer.from([(app1Body.length + 2) >> 8, (app1Body.length + 2) & 0xff]), app1Body]);
  const withThumb = Buffer.concat([photo.subarray(0, 2), app1, photo.subarray(2)]);
  assert.equal((await inspectFile(await fixture('thumb-whole.jpg', withThumb)))?.complete, true);
  assert.equal((await inspectFile(await fixture('thumb-cut.jpg', withThumb.subarray(0, withThumb.length - 200))))?.complete, false);
});

test('a PDF with objects after its last %%EOF (a linearized PDF cut after its first part) is not complete', async () => {
  const doc = await pdf();
  const cut = Buffer.concat([doc, Buffer.from('\n5 0 obj\n<< /Type /Page >>\nendobj\n')]);
  assert.equal((await inspectFile(await fixture('update.pdf', cut)))?.complete, false);
});

test('an empty file is not complete (a scanner creates it, then writes), and it has no kind', async () => {
  const empty = await inspectFile(await fixture('empty.pdf', Buffer.alloc(0)));
  assert.deepEqual({ ...empty, mtimeMs: 0 }, { size: 0, mtimeMs: 0, kind: null, complete: false, sha256: null });
});
