import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFile, link, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { sanitiseFileName } from '../../src/shared/safe-paths.js';
import { deleteInput, moveDuplicate, moveToFailed, moveToProcessed, type DispositionRule } from '../../src/daemon/inputs/disposition.js';
import type { InputRecord } from '../../src/daemon/ledger/ledger.js';

const root = await mkdtemp(join(tmpdir(), 'docdrop-dispo-'));
after(() => rm(root, { recursive: true, force: true }));
let n = 0;

async function setup(afterDirs: Partial<DispositionRule['after']> = {}) {
  const dir = join(root, `case-${++n}`);
  await mkdir(join(dir, 'in'), { recursive: true });
  const rule: DispositionRule = {
    name: 'invoices',
    watch: join(dir, 'in'),
    after: {
      success: 'move',
      processed_dir: join(dir, 'processed/{rule}/{date}'),
      failed_dir: join(dir, 'failed/{rule}'),
      duplicates_dir: join(dir, 'dup/{rule}'),
      ...afterDirs,
    },
  };
  const drop = async (name: string, content: string) => {
    const path = join(dir, 'in', name);
    await writeFile(path, content);
    return { path, size: Buffer.byteLength(content), sha256: createHash('sha256').update(content).digest('hex'), id: n };
  };
  return { dir, rule, drop };
}

const when = new Date(2026, 10, 21, 15, 30);

test('moves a processed input into its {rule}/{date} folder without overwriting an existing name', async () => {
  const { dir, rule, drop } = await setup();
  const first = await moveToProcessed(rule, await drop('scan.pdf', 'first'), when);
  assert.equal(first, join(dir, 'processed/invoices/2026-11-21/scan.pdf'));
  const second = await moveToProcessed(rule, await drop('scan.pdf', 'second'), when);
  assert.equal(second, join(dir, 'processed/invoices/2026-11-21/scan (1).pdf'));
  assert.equal(await readFile(first!, 'utf8'), 'first');
  assert.equal(await readFile(second!, 'utf8'), 'second');
  assert.deepEqual(await readdir(join(dir, 'in')), []);
});

test('moves a failed input and writes <name>.error.json with the reason, status, message, request id and time', async () => {
  const { dir, rule, drop } = await setup();
  await mkdir(join(dir, 'failed/invoices'), { recursive: true });
  await writeFile(join(dir, 'failed/invoices/bad.pdf'), 'an older failure');
  const input = await drop('bad.pdf', 'broken');
  const dest = await moveToFailed(
    rule,
    input,
    { message: 'job failed', reason: 'job_failed', status: 'failed', user_error_msg: 'Invalid file', request_id: 'req-9', document_id: 'doc-9' },
    when,
  );
  assert.equal(dest, join(dir, 'failed/invoices/bad (1).pdf'));
  const note = JSON.parse(await readFile(`${dest}.error.json`, 'utf8'));
  assert.equal(note.reason, 'job failed');
  assert.equal(note.status, 'failed');
  assert.equal(note.user_error_msg, 'Invalid file');
  assert.equal(note.request_id, 'req-9');
  assert.equal(note.document_id, 'doc-9');
  assert.equal(note.file, 'bad.pdf');
  assert.equal(note.original_path, input.path);
  assert.equal(note.rule, 'invoices');
  assert.match(note.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
  assert.equal(await readFile(join(dir, 'failed/invoices/bad.pdf'), 'utf8'), 'an older failure', 'the older file is untouched');
});

test('moves a skipped duplicate aside with a note naming the file it repeats', async () => {
  const { dir, rule, drop } = await setup();
  const input = await drop('copy.pdf', 'same bytes');
  const original = {
    id: 7, rule: 'invoices', path: join(dir, 'in/orig.pdf'), size: 10, mtimeMs: 0, sha256: input.sha256, state: 'done',
    documentId: 'd', requestId: 'req-7', result: null, attempts: 0, nextAttemptAt: 0, lastError: null,
    finalPath: join(dir, 'processed/invoices/2026-11-20/orig.pdf'), createdAt: when.getTime(), updatedAt: when.getTime(),
  } satisfies InputRecord;
  const dest = await moveDuplicate(rule, input, original, when);
  assert.equal(dest, join(dir, 'dup/invoices/copy.pdf'));
  const note = JSON.parse(await readFile(`${dest}.duplicate.json`, 'utf8'));
  assert.equal(note.duplicate_of.path, original.path);
  assert.equal(note.duplicate_of.now_at, original.finalPath);
  assert.equal(note.duplicate_of.input_id, 7);
  assert.equal(note.duplicate_of.request_id, 'req-7');
  assert.match(note.note, /same content .* as orig\.pdf/);
});

test('a repeated move after a crash returns the earlier destination and moves nothing again', async () => {
  const { dir, rule, drop } = await setup();
  await mkdir(join(dir, 'processed/invoices/2026-11-21'), { recursive: true });
  await writeFile(join(dir, 'processed/invoices/2026-11-21/a.pdf'), 'other content, same name');
  const input = await drop('a.pdf', 'mine');
  const dest = await moveToProcessed(rule, input, when);
  assert.equal(dest, join(dir, 'processed/invoices/2026-11-21/a (1).pdf'));
  // The ledger never heard of the move: the pipeline runs the step again.
  assert.equal(await moveToProcessed(rule, input, when), dest);
  assert.deepEqual((await readdir(join(dir, 'processed/invoices/2026-11-21'))).sort(), ['a (1).pdf', 'a.pdf']);

  const failedInput = await drop('f.pdf', 'fails');
  const failed = await moveToFailed(rule, failedInput, { message: 'boom' }, when);
  assert.equal(await moveToFailed(rule, failedInput, { message: 'boom' }, when), failed);
  assert.deepEqual((await readdir(join(dir, 'failed/invoices'))).sort(), ['f.pdf', 'f.pdf.error.json']);
});

test('a repeated move of a long-named input finds the earlier destination under the shortened numbered name', async () => {
  const { dir, rule, drop } = await setup();
  const name = `${'é'.repeat(120)}.pdf`; // 244 bytes: the processed name is cut to 200, and "(1)" cuts more
  const input = await drop(name, 'mine');
  const destDir = join(dir, 'processed/invoices/2026-11-21');
  await mkdir(destDir, { recursive: true });
  await writeFile(join(destDir, sanitiseFileName(name)), 'another input, same shortened name');
  const dest = await moveToProcessed(rule, input, when);
  assert.ok(dest?.endsWith(' (1).pdf'), dest ?? 'null');
  assert.ok(Buffer.byteLength(basename(dest!)) <= 255);
  assert.equal(await moveToProcessed(rule, input, when), dest, 'the repeat after a crash finds its own earlier move');
  assert.equal((await readdir(destDir)).length, 2);
});

test('a move interrupted after linking the destination but before removing the source is completed, not made twice', async () => {
  const { dir, rule, drop } = await setup();
  const input = await drop('half.pdf', 'linked already');
  const destDir = join(dir, 'processed/invoices/2026-11-21');
  await mkdir(destDir, { recursive: true });
  await link(input.path, join(destDir, 'half.pdf'));
  assert.equal(await moveToProcessed(rule, input, when), join(destDir, 'half.pdf'));
  assert.equal(existsSync(input.path), false);
  assert.deepEqual(await readdir(destDir), ['half.pdf']);
});

test('an identical earlier file of the same name is another input, not this move done already', async () => {
  const { dir, rule, drop } = await setup();
  const destDir = join(dir, 'processed/invoices/2026-11-21');
  await mkdir(destDir, { recursive: true });
  const input = await drop('same.pdf', 'same bytes');
  await copyFile(input.path, join(destDir, 'same.pdf'));
  assert.equal(await moveToProcessed(rule, input, when), join(destDir, 'same (1).pdf'));
  assert.equal(existsSync(input.path), false);
  assert.deepEqual((await readdir(destDir)).sort(), ['same (1).pdf', 'same.pdf']);
});

test('moving never leaves an empty placeholder behind when the source vanishes mid-move', async () => {
  const { dir, rule, drop } = await setup();
  const input = await drop('gone.pdf', 'x');
  await rm(input.path);
  assert.equal(await moveToProcessed(rule, input, when), null);
  assert.equal(existsSync(join(dir, 'processed/invoices/2026-11-21/gone.pdf')), false);
});

test('returns null when the input is gone and nowhere at its destination; deleting twice is fine', async () => {
  const { rule, drop } = await setup();
  const input = await drop('gone.pdf', 'x');
  await deleteInput(rule, input);
  await deleteInput(rule, input);
  assert.equal(existsSync(input.path), false);
  assert.equal(await moveToProcessed(rule, input, when), null);
  assert.equal(await moveToFailed(rule, input, { message: 'x' }, when), null);
});

test('moves across file systems (copy, fsync, unlink)', { skip: !existsSync('/dev/shm') }, async () => {
  const shm = await mkdtemp('/dev/shm/docdrop-dispo-');
  try {
    const { rule, drop } = await setup({ processed_dir: join(shm, '{rule}') });
    const input = await drop('far.pdf', 'travels');
    const dest = await moveToProcessed(rule, input, when);
    assert.equal(dest, join(shm, 'invoices/far.pdf'));
    assert.equal(await readFile(dest!, 'utf8'), 'travels');
    assert.equal(existsSync(input.path), false);
  } finally {
    await rm(shm, { recursive: true, force: true });
  }
});

test('a file replaced under the input\'s name (renamed over, or rewritten in place) is another input: no disposal moves or deletes it', async () => {
  const { dir, rule, drop } = await setup();
  const input = await drop('scan.pdf', 'first version');
  // Renamed over: a new file with other bytes takes the name.
  await writeFile(join(dir, 'in', '.scan.tmp'), 'second version, longer');
  await rename(join(dir, 'in', '.scan.tmp'), input.path);
  assert.equal(await moveToProcessed(rule, input, when), null);
  assert.equal(await moveToFailed(rule, input, { message: 'x' }, when), null);
  assert.equal(await deleteInput(rule, input), null);
  // Rewritten in place with the same size: only the hash tells.
  await writeFile(input.path, 'FIRST VERSION');
  assert.equal(await moveToProcessed(rule, input, when), null);
  assert.equal(await deleteInput({ ...rule, after: { ...rule.after, success: 'delete' } }, input), null);
  assert.equal(await readFile(input.path, 'utf8'), 'FIRST VERSION');
  assert.equal(existsSync(join(dir, 'processed')), false);
  assert.equal(existsSync(join(dir, 'failed')), false);
});

test('a file reached through a symlink below the watched folder is left where it is: never moved, deleted or noted beside', async () => {
  const { dir, rule } = await setup();
  const outside = join(dir, 'elsewhere');
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, 'a.pdf'), 'outside a');
  await writeFile(join(outside, 'b.pdf'), 'outside b');
  await symlink(outside, join(dir, 'in', 'linked-dir'));
  await symlink(join(outside, 'b.pdf'), join(dir, 'in', 'linked-file.pdf'));
  const input = (name: string, content: string) => ({ path: name, size: content.length, sha256: createHash('sha256').update(content).digest('hex') });
  const viaDir = input(join(dir, 'in', 'linked-dir', 'a.pdf'), 'outside a');
  const viaFile = input(join(dir, 'in', 'linked-file.pdf'), 'outside b');
  assert.equal(await moveToProcessed(rule, viaDir, when), viaDir.path);
  assert.equal(await moveToFailed(rule, viaDir, { message: 'x' }, when), viaDir.path);
  assert.equal(await moveDuplicate(rule, viaDir, { id: 1, path: 'x', createdAt: 0 } as InputRecord, when), viaDir.path);
  assert.equal(await deleteInput(rule, viaDir), viaDir.path);
  assert.equal(await moveToProcessed(rule, viaFile, when), viaFile.path);
  assert.deepEqual((await readdir(outside)).sort(), ['a.pdf', 'b.pdf']);
  assert.deepEqual((await readdir(join(dir, 'in'))).sort(), ['linked-dir', 'linked-file.pdf']);
  for (const d of ['processed', 'failed', 'dup']) assert.equal(existsSync(join(dir, d)), false);
});
