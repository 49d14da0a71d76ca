import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, readdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  expandPlaceholders,
  MAX_FILE_NAME_BYTES,
  moveFileUnique,
  PathEscapeError,
  resolveInside,
  sanitiseFileName,
  templatePlaceholders,
  uniquePath,
} from '../../src/shared/safe-paths.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docdrop-safe-paths-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('sanitiseFileName turns hostile names into single safe segments', () => {
  assert.equal(sanitiseFileName('../../etc/passwd'), 'etc_passwd');
  assert.equal(sanitiseFileName('..\\..\\windows\\system.ini'), 'windows_system.ini');
  assert.equal(sanitiseFileName('a\u0000b.pdf'), 'ab.pdf');
  assert.equal(sanitiseFileName('CON.pdf'), '_CON.pdf');
  assert.equal(sanitiseFileName('lpt1'), '_lpt1');
  assert.equal(sanitiseFileName('nul.tar.gz'), '_nul.tar.gz');
  assert.equal(sanitiseFileName('   .pdf'), 'file.pdf');
  assert.equal(sanitiseFileName(''), 'file');
  assert.equal(sanitiseFileName('..'), 'file');
  assert.equal(sanitiseFileName('.bashrc'), 'file.bashrc', 'a bare extension gets a stem, not a hidden name');
  assert.equal(sanitiseFileName('report. . '), 'report');
  assert.equal(sanitiseFileName('a:b?<c>|"d*.pdf'), 'a_b__c___d_.pdf');
  assert.equal(sanitiseFileName('  many \t  spaces\n.pdf '), 'many spaces.pdf');
  assert.equal(sanitiseFileName('invoice\u202Efdp.exe'), 'invoicefdp.exe', 'bidi override removed');
  assert.equal(sanitiseFileName('Invoice 2024.PDF'), 'Invoice 2024.PDF');
});

test('sanitiseFileName keeps the extension within 200 bytes of UTF-8 without splitting characters', () => {
  const long = sanitiseFileName(`${'é'.repeat(300)}.pdf`);
  assert.ok(Buffer.byteLength(long) <= MAX_FILE_NAME_BYTES);
  assert.ok(long.endsWith('é.pdf'));
  assert.doesNotMatch(long, /\uFFFD/);
  const emoji = sanitiseFileName(`${'😀'.repeat(100)}.pdf`);
  assert.ok(Buffer.byteLength(emoji) <= MAX_FILE_NAME_BYTES);
  assert.equal(Array.from(emoji.slice(0, -4)).every((c) => c === '😀'), true);
});

test('sanitiseFileName keeps a suffix whole and cuts the stem instead, at any length', () => {
  for (const stem of ['a'.repeat(196), 'é'.repeat(150), '😀'.repeat(80), '']) {
    const name = sanitiseFileName(stem, { keepExtension: false, suffix: '-0123abcd.csv' });
    assert.ok(name.endsWith('-0123abcd.csv'), name);
    assert.ok(Buffer.byteLength(name) <= MAX_FILE_NAME_BYTES);
    assert.doesNotMatch(name, /\uFFFD/);
  }
  assert.equal(sanitiseFileName('', { keepExtension: false, suffix: '-x.csv' }), 'file-x.csv');
  assert.equal(sanitiseFileName('../a', { suffix: '/b' }), 'a_b', 'the suffix cannot add a segment either');
});

test('uniquePath reserves name, name (1), name (2) in turn and never hands out a taken name', async () => {
  const d = path.join(dir, 'unique');
  await mkdir(d);
  assert.equal(await uniquePath(d, 'scan.pdf'), path.join(d, 'scan.pdf'));
  assert.equal(await uniquePath(d, 'scan.pdf'), path.join(d, 'scan (1).pdf'));
  assert.equal(await uniquePath(d, 'scan.pdf'), path.join(d, 'scan (2).pdf'));
  const raced = await Promise.all(Array.from({ length: 20 }, () => uniquePath(d, 'race.pdf')));
  assert.equal(new Set(raced).size, 20, 'concurrent callers get distinct names');
  assert.equal((await readdir(d)).length, 23);
});

test('resolveInside accepts paths inside the root', async () => {
  const root = path.join(dir, 'root');
  await mkdir(path.join(root, 'sub'), { recursive: true });
  assert.equal(await resolveInside(root, 'sub/new/file.csv'), path.join(root, 'sub', 'new', 'file.csv'));
  assert.equal(await resolveInside(root, 'sub/../x.csv'), path.join(root, 'x.csv'));
  assert.equal(await resolveInside(root, '.'), root);
});

test('resolveInside rejects .., absolute paths, NUL and symlinks that lead out', async () => {
  const root = path.join(dir, 'root2');
  const outside = path.join(dir, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret'), 'x');
  await symlink(outside, path.join(root, 'link'));
  await symlink(path.join(outside, 'secret'), path.join(root, 'file-link'));
  await symlink(path.join(dir, 'nowhere'), path.join(root, 'dangling'));
  const rejects = (rel: string, re: RegExp) =>
    assert.rejects(resolveInside(root, rel), (err: Error) => err instanceof PathEscapeError && re.test(err.message));
  await rejects('../outside/secret', /leads outside/);
  await rejects('sub/../../x', /leads outside/);
  await rejects('/etc/passwd', /absolute/);
  await rejects('C:\\Windows', /absolute/);
  await rejects('a\u0000b', /NUL/);
  await rejects('link/secret', /symlink/);
  await rejects('link/new/deeper.csv', /symlink/);
  await rejects('file-link', /symlink/);
  await rejects('dangling/x', /dangling/);
});

test('resolveInside allows a symlink that stays inside the root', async () => {
  const root = path.join(dir, 'root3');
  await mkdir(path.join(root, 'real'), { recursive: true });
  await symlink(path.join(root, 'real'), path.join(root, 'alias'));
  assert.equal(await resolveInside(root, 'alias/x.csv'), path.join(root, 'alias', 'x.csv'));
});

test('expandPlaceholders fills values as single sanitised segments', () => {
  const day = new Date(2024, 2, 5);
  assert.equal(
    expandPlaceholders('./var/outbox/{rule}/{date}', { rule: 'invoices', date: day }),
    './var/outbox/invoices/2024-03-05',
  );
  assert.equal(
    expandPlaceholders('out/{rule}/{label}/{workflow}', { rule: '../../etc', label: '/abs/path', workflow: '..' }),
    'out/etc/abs_path/_',
  );
  assert.equal(expandPlaceholders('out/{label}', { label: 'a\\b\u0000c:d' }), 'out/a_bc_d');
  assert.equal(expandPlaceholders('out/{label}', { label: 'CON' }), 'out/_CON');
  for (const v of ['../..', '/', '..\\..', 'x/../../y']) {
    const got = expandPlaceholders('base/{rule}', { rule: v });
    assert.equal(got.split('/').length, 2, `${JSON.stringify(v)} -> ${got} adds no segment`);
    assert.ok(!got.split('/').includes('..'));
  }
});

test('expandPlaceholders names unknown placeholders and missing values', () => {
  assert.throws(() => expandPlaceholders('out/{day}', {}), /unknown placeholder \{day\}.*\{rule\} \{label\} \{date\} \{workflow\}/);
  assert.throws(() => expandPlaceholders('out/{label}', { rule: 'x' }), /placeholder \{label\} .* has no value/);
  assert.throws(() => expandPlaceholders('out/{label}', { label: '  ' }), /\{label\}/);
  assert.deepEqual(templatePlaceholders('./{rule}/{date}/x'), ['rule', 'date']);
});

test('resolveInside accepts a root that does not exist yet but still rejects ..', async () => {
  const root = path.join(dir, 'not-yet', 'root');
  assert.equal(await resolveInside(root, 'a/b.csv'), path.join(root, 'a', 'b.csv'));
  await assert.rejects(resolveInside(root, '../b.csv'), PathEscapeError);
});

test('moveFileUnique moves without overwriting an existing name', async () => {
  const from = path.join(dir, 'move-from');
  const to = path.join(dir, 'move-to', 'deep');
  await mkdir(from);
  await writeFile(path.join(from, 'scan.pdf'), 'first');
  assert.equal(await moveFileUnique(path.join(from, 'scan.pdf'), to), path.join(to, 'scan.pdf'));
  await writeFile(path.join(from, 'scan.pdf'), 'second');
  assert.equal(await moveFileUnique(path.join(from, 'scan.pdf'), to), path.join(to, 'scan (1).pdf'));
  assert.equal(await readFile(path.join(to, 'scan.pdf'), 'utf8'), 'first');
  assert.equal(await readFile(path.join(to, 'scan (1).pdf'), 'utf8'), 'second');
  assert.deepEqual(await readdir(from), []);
  await assert.rejects(moveFileUnique(path.join(from, 'gone.pdf'), to), { code: 'ENOENT' });
  assert.deepEqual((await readdir(to)).sort(), ['scan (1).pdf', 'scan.pdf'], 'a failed move leaves no new name behind');
});

test('moveFileUnique copies and removes the source across file systems', async (t) => {
  const shm = '/dev/shm';
  let other: string;
  try {
    other = await mkdtemp(path.join(shm, 'docdrop-move-'));
  } catch {
    return t.skip('no /dev/shm on this machine');
  }
  try {
    const src = path.join(dir, 'cross.pdf');
    await writeFile(src, 'payload');
    const dest = await moveFileUnique(src, other);
    assert.equal(dest, path.join(other, 'cross.pdf'));
    assert.equal(await readFile(dest, 'utf8'), 'payload');
    await assert.rejects(readFile(src), { code: 'ENOENT' });
    // A name near the 255-byte limit: the hidden temp file beside the destination must fit too.
    const long = path.join(dir, `${'ü'.repeat(123)}.pdf`);
    await writeFile(long, 'long');
    const longDest = await moveFileUnique(long, other);
    assert.ok(Buffer.byteLength(path.basename(longDest)) <= MAX_FILE_NAME_BYTES);
    assert.equal(await readFile(longDest, 'utf8'), 'long');
  } finally {
    await rm(other, { recursive: true, force: true });
  }
});
