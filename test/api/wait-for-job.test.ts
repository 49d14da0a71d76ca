import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/api-error.js';
import { ServiceClient } from '../../src/api/client.js';
import { waitForJob } from '../../src/api/wait-for-job.js';
import { sendJson, startServer, type RecordingServer } from './recording-server.js';

// Jobs whose status sequence is scripted per request_id; each poll advances one step.
const scripts: Record<string, string[]> = {
  done: ['pending', 'processing', 'processing', 'processing', 'complete'],
  fails: ['pending', 'failure'],
  boom: ['exception'],
  stuck: ['pending'],
};
const polls: Record<string, number> = {};

let server: RecordingServer;
before(async () => {
  server = await startServer((req, res) => {
    const id = req.query.get('request_id') ?? '';
    const n = (polls[id] = (polls[id] ?? 0) + 1);
    const seq = scripts[id];
    sendJson(res, 200, { request_id: id, request_status: seq[Math.min(n, seq.length) - 1], classification: null, confidence_scores: null });
  });
});
after(() => server.close());

function virtualClock() {
  let t = 0;
  const waits: number[] = [];
  return {
    waits,
    now: () => t,
    sleep: async (ms: number) => {
      waits.push(ms);
      t += ms;
    },
  };
}

const client = () => new ServiceClient({ baseUrl: server.baseUrl, apiKey: 'k' });

test('backs off exponentially and returns the job once it is completed', async () => {
  const clock = virtualClock();
  const job = await waitForJob(client(), 'done', { ...clock, random: () => 0.5 });
  assert.equal(job.request_status, 'complete');
  assert.equal(polls.done, 5);
  assert.deepEqual(clock.waits, [1000, 2000, 4000, 8000]);
});

test('caps the wait at maxMs and never polls faster than once a second', async () => {
  const clock = virtualClock();
  polls.done = 0;
  await waitForJob(client(), 'done', { ...clock, initialMs: 100, maxMs: 3000, random: () => 0 });
  assert.ok(clock.waits.every((w) => w >= 1000 && w <= 3000), `waits ${clock.waits}`);
});

test('stops on failed and exception states', async () => {
  const clock = virtualClock();
  assert.equal((await waitForJob(client(), 'fails', clock)).request_status, 'failure');
  assert.equal((await waitForJob(client(), 'boom', clock)).request_status, 'exception');
  assert.equal(polls.boom, 1);
});

test('polls GET /v1/extract when via is extract', async () => {
  const start = server.requests.length;
  polls.boom = 0;
  await waitForJob(client(), 'boom', { ...virtualClock(), via: 'extract' });
  assert.equal(server.requests[start].path, '/v1/extract');
});

test('throws poll_timeout after giveUpMs, with one last poll at the deadline', async () => {
  const clock = virtualClock();
  const err = await waitForJob(client(), 'stuck', { ...clock, giveUpMs: 10_000, random: () => 0.5 }).catch((e: unknown) => e);
  assert.ok(err instanceof ApiError);
  assert.equal(err.code, 'poll_timeout');
  assert.match(err.message, /stuck/);
  assert.equal(clock.now(), 10_000);
  assert.deepEqual(clock.waits, [1000, 2000, 4000, 3000]);
});

test('stops when its signal is aborted', async () => {
  const controller = new AbortController();
  const clock = virtualClock();
  const sleep = async (ms: number) => {
    await clock.sleep(ms);
    if (clock.waits.length === 2) controller.abort(new Error('stopped by test'));
  };
  await assert.rejects(waitForJob(client(), 'stuck', { now: clock.now, sleep, signal: controller.signal }), /stopped by test/);
  assert.equal(clock.waits.length, 2);
});
