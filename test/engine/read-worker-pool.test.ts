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

  it('runs every oneWorker task on one worker while other tasks still run in parallel', async () => {
    const script = pathToFileURL(
      await fx.file(
        'thread-worker.mjs',
        `import { parentPort, threadId } from 'node:worker_threads';
parentPort.on('message', ({ id, request }) => setTimeout(() => parentPort.postMessage({ id, ok: true, value: threadId }), request.ms));`,
      ),
    );
    const p = new WorkerPool(script, { size: 2, taskTimeoutMs: 5000, maxHeapMb: 64, oneWorker: (r) => (r as { heavy: boolean }).heavy });
    try {
      const heavy = (ms: number) => p.run<number>({ heavy: true, ms });
      const light = (ms: number) => p.run<number>({ heavy: false, ms });
      // Two heavy tasks at once: the second waits for the first's worker rather than taking the free one.
      const [h1, h2, l1] = await Promise.all([heavy(100), heavy(10), light(10)]);
      assert.equal(h1, h2, 'both heavy tasks ran on one worker');
      assert.notEqual(l1, h1, 'the light task ran on the other worker, beside the heavy ones');
      // A light task queued behind a heavy one that waits for its worker is not held up by it.
      const order: string[] = [];
      await Promise.all([
        heavy(300).then(() => order.push('heavy 300 ms')),
        heavy(10).then(() => order.push('heavy 10 ms')),
        light(10).then(() => order.push('light 10 ms')),
      ]);
      assert.deepEqual(order, ['light 10 ms', 'heavy 300 ms', 'heavy 10 ms']);
      assert.equal(p.workers, 2);
    } finally {
      await p.close();
    }
  });

  it('gives its workers a small young generation', async () => {
    const script = pathToFileURL(
      await fx.file(
        'limits-worker.mjs',
        `import { parentPort, resourceLimits } from 'node:worker_threads';
parentPort.on('message', ({ id }) => parentPort.postMessage({ id, ok: true, value: resourceLimits }));`,
      ),
    );
    const p = new WorkerPool(script, { size: 1, taskTimeoutMs: 5000, maxHeapMb: 64 });
    try {
      const limits = await p.run<{ maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number }>(null);
      assert.equal(limits.maxOldGenerationSizeMb, 64);
      assert.ok(limits.maxYoungGenerationSizeMb <= 8, `young generation ${limits.maxYoungGenerationSizeMb} MB`);
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
