import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, readdir, readFile, writeFile, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { atomicWriteFile } from '../../src/shared/atomic-write.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docdrop-atomic-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('replaces the file with the new content and leaves no temp file', async () => {
  const dest = path.join(dir, 'out.csv');
  await writeFile(dest, 'old\r\n');
  await atomicWriteFile(dest, 'new\r\n');
  assert.equal(await readFile(dest, 'utf8'), 'new\r\n');
  await atomicWriteFile(dest, Buffer.from('bytes'));
  assert.equal(await readFile(dest, 'utf8'), 'bytes');
  assert.deepEqual(await readdir(dir), ['out.csv']);
});

test('a content function that throws half-way leaves the old file intact and removes its temp file', async () => {
  const dest = path.join(dir, 'keep.csv');
  await writeFile(dest, 'complete old content');
  let tmpSeen = '';
  await assert.rejects(
    atomicWriteFile(dest, async (tmp) => {
      tmpSeen = tmp;
      await writeFile(tmp, 'half of the new');
      throw new Error('disk on fire');
    }),
    /disk on fire/,
  );
  assert.equal(await readFile(dest, 'utf8'), 'complete old content');
  assert.equal(path.dirname(tmpSeen), dir, 'the temp file is in the destination folder (same file system)');
  assert.match(path.basename(tmpSeen), /^\.keep\.csv\.[0-9a-f]+\.tmp$/, 'the temp file is hidden');
  assert.deepEqual((await readdir(dir)).filter((f) => f.startsWith('.')), []);
});

test('a reader holding the old file never sees a mix of old and new content', async () => {
  const dest = path.join(dir, 'reader.txt');
  const oldText = 'A'.repeat(1 << 20);
  await writeFile(dest, oldText);
  const reader = await open(dest, 'r');
  try {
    await atomicWriteFile(dest, async (tmp) => {
      await writeFile(tmp, 'B'.repeat(1 << 20));
    });
    // The open descriptor still reads the complete old file; a new open reads the complete new one.
    assert.equal(await reader.readFile('utf8'), oldText);
  } finally {
    await reader.close();
  }
  assert.equal(await readFile(dest, 'utf8'), 'B'.repeat(1 << 20));
});

test('fails with the file system error when the folder does not exist, leaving nothing behind', async () => {
  await assert.rejects(atomicWriteFile(path.join(dir, 'missing', 'x.csv'), 'x'), { code: 'ENOENT' });
});
