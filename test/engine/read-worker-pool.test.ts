import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { WorkerPool } from '../../src/engine/read/worker-pool.js';
import { DocumentError } from '../../src/engine/types.js';
import { fixtureDir, type FixtureDir } from './read-fixtures.js';

// A worker that echoes, fails politely, crashes, exits or hangs on request.
const WORKER = `
import { parentPort } from 'node:worker_threads';
parentPort.on('message', ({ id, request }) => {
  if (request === 'crash') setImmediate(() => { throw new Error('boom'); });
  else if (request === 'exit') process.exit(3);
  else if (request === 'hang') for (;;) {}
  else if (request === 'bad') parentPort.postMessage({ id, ok: false, message: 'bad input', document: true });
  else parentPort.postMessage({ id, ok: true, value: 'echo ' + request });
});
`;

describe('WorkerPool', () => {
  let fx: FixtureDir;
  let pool: WorkerPool;
  before(async () => {
    fx = await fixtureDir();
    const script = pathToFileURL(await fx.file('worker.mjs', WORKER));
    pool = new WorkerPool(script, { size: 2, taskTimeoutMs: 5000, maxHeapMb: 64 });
  });
  after(async () => {
    await pool.close();
    await fx.cleanup();
  });

  it('ends a worker left idle for idleMs and starts one again for the next task', async () => {
    const script = pathToFileURL(await fx.file('idle-worker.mjs', WORKER));
    const idlePool = new WorkerPool(script, { size: 1, taskTimeoutMs: 5000, maxHeapMb: 64, idleMs: 100 });
    try {
      assert.equal(await idlePool.run('x'), 'echo x');
      assert.equal(idlePool.workers, 1);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(await idlePool.run('y'), 'echo y', 'a task within idleMs reuses the worker');
      assert.equal(idlePool.workers, 1);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(idlePool.workers, 0, 'the idle worker was ended');
      assert.equal(await idlePool.run('z'), 'echo z');
      assert.equal(idlePool.workers, 1);
    } finally {
      await idlePool.close();
    }
  });

  it('endIdle ends the idle workers at once and the next task starts one', async () => {
    const script = pathToFileURL(await fx.file('end-idle-worker.mjs', WORKER));
    const p = new WorkerPool(script, { size: 1, taskTimeoutMs: 5000, maxHeapMb: 64 });
    try {
      assert.equal(await p.run('x'), 'echo x');
      p.endIdle();
      assert.equal(p.workers, 0);
      assert.equal(await p.run('y'), 'echo y');
    } finally {
      await p.close();
    }
  });

  it('runs tasks on its workers', async () => {
    assert.deepEqual(await Promise.all(['a', 'b', 'c'].map((r) => pool.run<string>(r))), ['echo a', 'echo b', 'echo c']);
  });

  it('turns a document failure reported by the worker into a DocumentError', async () => {
    await assert.rejects(pool.run('bad'), (err: Error) => err instanceof DocumentError && err.message === 'bad input');
  });

  it('fails only the task whose worker crashed, exited or hung, and keeps serving', async () => {
    for (const request of ['crash', 'exit', 'hang']) {
      const [failed, fine] = await Promise.allSettled([pool.run(request), pool.run('still here')]);
      assert.equal(failed.status, 'rejected', request);
      assert.ok((failed as PromiseRejectedResult).reason instanceof DocumentError, request);
      assert.deepEqual(fine, { status: 'fulfilled', value: 'echo still here' });
    }
    assert.equal(await pool.run('after'), 'echo after');
  });

  it('rejects tasks after close', async () => {
    const script = pathToFileURL(await fx.file('worker2.mjs', WORKER));
    const closing = new WorkerPool(script, { size: 1, taskTimeoutMs: 30_000, maxHeapMb: 64 });
    assert.equal(await closing.run('x'), 'echo x');
    await closing.close();
    await assert.rejects(closing.run('y'), /closed/);
  });
});
