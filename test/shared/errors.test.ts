// docdrop's failure codes: each is documented in docs/errors.md with its class, and classifyError sorts
// real errors (the client's, the file system's, the language's) into the three classes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, ClientErrorCodes } from '../../src/api/api-error.js';
import { classifyError, DocdropError, DOCDROP_ERRORS, type FailureClass } from '../../src/shared/errors.js';
import { expandPlaceholders, resolveInside } from '../../src/shared/safe-paths.js';

const DOC = new URL('../../docs/errors.md', import.meta.url);
const CLIENT_CLASSES: Record<string, FailureClass> = {
  network_error: 'transient',
  timeout: 'transient',
  invalid_response: 'permanent',
  poll_timeout: 'permanent',
};

/** The `| \`code\` | class | ...` rows of the doc's tables, as code -> class. */
async function documentedCodes(): Promise<Map<string, string>> {
  const rows = new Map<string, string>();
  for (const m of (await readFile(DOC, 'utf8')).matchAll(/^\| `([a-z_]+)` \| ([a-z-]+) \|/gm)) rows.set(m[1]!, m[2]!);
  return rows;
}

const asDocClass = (c: FailureClass) => c.replace('_', '-');

test('every docdrop code is documented in docs/errors.md with its class, and the doc names no other code', async () => {
  const documented = await documentedCodes();
  for (const [code, failureClass] of Object.entries(DOCDROP_ERRORS)) {
    assert.equal(documented.get(code), asDocClass(failureClass), `\`${code}\` (${failureClass}) in docs/errors.md`);
  }
  for (const code of Object.values(ClientErrorCodes)) {
    assert.equal(documented.get(code), asDocClass(CLIENT_CLASSES[code]!), `client code \`${code}\` in docs/errors.md`);
  }
  const known = new Set([...Object.keys(DOCDROP_ERRORS), ...Object.values(ClientErrorCodes)]);
  assert.deepEqual([...documented.keys()].filter((c) => !known.has(c)), [], 'codes in docs/errors.md that nothing produces');
});

test('the client codes are classed as the doc says', () => {
  for (const code of Object.values(ClientErrorCodes)) {
    const err = new ApiError({ status: 0, code, message: 'x', method: 'GET', path: '/files' });
    assert.equal(err.failureClass, CLIENT_CLASSES[code], code);
  }
});

function apiError(status: number, code: string, retryAfterMs?: number): ApiError {
  return new ApiError({ status, code, message: 'the reason', method: 'POST', path: '/v1/documents', retryAfterMs });
}

test('service answers: 429 is rate-limited with its wait, 408 and 5xx transient, other 4xx permanent api_error', () => {
  const limited = classifyError(apiError(429, 'rate_limited', 2500));
  assert.deepEqual([limited.code, limited.failureClass, limited.retryAfterMs], ['api_rate_limited', 'rate_limited', 2500]);
  for (const status of [408, 500, 502, 503]) {
    const e = classifyError(apiError(status, `http_${status}`));
    assert.deepEqual([e.code, e.failureClass], ['api_unavailable', 'transient'], String(status));
  }
  for (const status of [400, 401, 403, 404, 409, 422]) {
    const e = classifyError(apiError(status, 'not_found'));
    assert.deepEqual([e.code, e.failureClass], ['api_error', 'permanent'], String(status));
  }
  const refused = classifyError(apiError(400, 'file_too_large'));
  assert.equal(refused.message, 'the reason', 'the bare reason, without method and path');
  assert.deepEqual(refused.context, { status: 400, code: 'file_too_large' });
  assert.equal(classifyError(apiError(200, ClientErrorCodes.invalidResponse)).failureClass, 'permanent');
  assert.equal(classifyError(apiError(0, ClientErrorCodes.network)).failureClass, 'transient');
  assert.equal(apiError(503, 'internal_error').retryable, true);
  assert.equal(apiError(404, 'not_found').retryable, false);
});

test('file system errors: refusals a person must fix are permanent file_refused, a full or failing disk transient disk_unavailable, the rest transient io_error', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-errors-'));
  try {
    await writeFile(join(dir, 'a-file'), 'x');
    const caught = (p: Promise<unknown>) => p.then(() => assert.fail('expected an error'), (err: unknown) => err);

    const notDir = classifyError(await caught(open(join(dir, 'a-file', 'out.csv'), 'w')));
    assert.deepEqual([notDir.code, notDir.failureClass, notDir.context.code], ['file_refused', 'permanent', 'ENOTDIR']);
    const exists = classifyError(await caught(mkdir(join(dir, 'a-file'), { recursive: true })));
    assert.deepEqual([exists.code, exists.failureClass, exists.context.code], ['file_refused', 'permanent', 'EEXIST']);
    const isDir = classifyError(await caught(readFile(dir)));
    assert.deepEqual([isDir.code, isDir.failureClass], ['file_refused', 'permanent']);

    const missing = classifyError(await caught(readFile(join(dir, 'gone.pdf'))));
    assert.deepEqual([missing.code, missing.failureClass, missing.context.code], ['io_error', 'transient', 'ENOENT']);
    for (const code of ['EAGAIN', 'EMFILE', 'EBUSY']) {
      const e = classifyError(Object.assign(new Error(`${code}: as the kernel says`), { code, errno: -1, syscall: 'write' }));
      assert.deepEqual([e.code, e.failureClass, e.context.code], ['io_error', 'transient', code]);
    }
    // A full or failing disk passes when space or the device is back: its own code, which the daemon waits out.
    for (const code of ['ENOSPC', 'EDQUOT', 'EIO']) {
      const e = classifyError(Object.assign(new Error(`${code}: as the kernel says`), { code, errno: -1, syscall: 'write' }));
      assert.deepEqual([e.code, e.failureClass, e.context.code], ['disk_unavailable', 'transient', code]);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a path that escapes its root and a folder template that cannot resolve are permanent', async () => {
  const escape = classifyError(await resolveInside(tmpdir(), '../etc/passwd').catch((err: unknown) => err));
  assert.deepEqual([escape.code, escape.failureClass], ['path_escape', 'permanent']);
  assert.equal(escape.name, 'PathEscapeError');

  let template: unknown;
  try {
    expandPlaceholders('out/{day}', {});
  } catch (err) {
    template = err;
  }
  assert.deepEqual([classifyError(template).code, classifyError(template).failureClass], ['bad_folder_template', 'permanent']);
});

test('programming errors are permanent; unknown errors transient; a DocdropError keeps its own code', () => {
  let typeError: unknown;
  try {
    (null as unknown as { x: number }).x;
  } catch (err) {
    typeError = err;
  }
  const bug = classifyError(typeError);
  assert.deepEqual([bug.code, bug.failureClass], ['programming_error', 'permanent']);
  assert.match(bug.message, /^TypeError: /);
  assert.equal(bug.cause, typeError);
  assert.equal(classifyError(new RangeError('Invalid time value')).failureClass, 'permanent');
  assert.equal(classifyError(Object.assign(new TypeError('bad arg'), { code: 'ERR_INVALID_ARG_TYPE' })).code, 'programming_error');

  for (const unknown of [new Error('database is locked'), Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }), 'a thrown string']) {
    const e = classifyError(unknown);
    assert.deepEqual([e.code, e.failureClass], ['unexpected_error', 'transient']);
  }

  const own = new DocdropError('job_failed', 'the job ended failed');
  assert.equal(classifyError(own), own);
  assert.equal(own.failureClass, 'permanent');
});
