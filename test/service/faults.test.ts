// Issue 2 §3 fault injection, observable over real HTTP: 429 with Retry-After, 5xx, dropped connections,
// added latency, jobs forced to failed/exception; pre-signed URLs are never faulted; a seed repeats the
// same sequence of decisions; option validation names the option.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { ServiceClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/api-error.js';
import { FaultInjector, parseMsRange, validateFaultOptions, type FaultOptions } from '../../src/service/faults.js';
import { startTestService } from '../helpers/service.js';
import { invoicePdf, invoiceTemplate, writeFixture } from '../helpers/job-fixtures.js';

async function withFaults(faults: FaultOptions, fn: (url: string, key: string, dataDir: string) => Promise<void>) {
  const svc = await startTestService({ faults });
  try {
    await fn(svc.url, svc.keys[0], svc.dataDir);
  } finally {
    await svc.close();
  }
}

const get = (url: string, key?: string) => request(`${url}/v1/templates`, { headers: key ? { 'x-api-key': key } : {} });

describe('HTTP faults', () => {
  test('answers 429 rate_limited with the configured Retry-After', async () => {
    await withFaults({ rate429: 1, retryAfterSeconds: 7 }, async (url, key) => {
      const res = await get(url, key);
      const body = (await res.body.json()) as Record<string, unknown>;
      assert.equal(res.statusCode, 429);
      assert.equal(res.headers['retry-after'], '7');
      assert.equal(body.success, false);
      assert.equal(body.error, 'rate_limited');
      const client = new ServiceClient({ baseUrl: url, apiKey: key, retry: false });
      await assert.rejects(client.listTemplates(), (e: unknown) => e instanceof ApiError && e.status === 429 && e.retryAfterMs === 7000);
    });
  });

  test('answers 500 internal_error', async () => {
    await withFaults({ rate5xx: 1 }, async (url, key) => {
      const res = await get(url, key);
      assert.equal(res.statusCode, 500);
      assert.equal(((await res.body.json()) as Record<string, unknown>).error, 'internal_error');
    });
  });

  test('drops the connection without an answer', async () => {
    await withFaults({ dropRate: 1 }, async (url, key) => {
      await assert.rejects(get(url, key), (e: Error & { code?: string }) => /socket|closed|ECONNRESET/i.test(`${e.code} ${e.message}`));
      const client = new ServiceClient({ baseUrl: url, apiKey: key, retry: false });
      await assert.rejects(client.listTemplates(), (e: unknown) => e instanceof ApiError && e.status === 0 && e.code === 'network_error');
    });
  });

  test('requests without an API key (pre-signed URLs) are never faulted', async () => {
    await withFaults({ rate5xx: 1 }, async (url) => {
      const res = await get(url);
      assert.equal(res.statusCode, 401, 'reaches auth instead of the injected 500');
      await res.body.dump();
    });
  });

  test('a seed makes the 429/5xx/pass sequence repeatable', async () => {
    const statuses = async () => {
      const seen: number[] = [];
      await withFaults({ rate429: 0.3, rate5xx: 0.3, seed: 42 }, async (url, key) => {
        for (let i = 0; i < 12; i++) {
          const res = await get(url, key);
          seen.push(res.statusCode);
          await res.body.dump();
        }
      });
      return seen;
    };
    const first = await statuses();
    assert.deepEqual(await statuses(), first);
    assert.ok(first.includes(429) && first.includes(500) && first.includes(200), `a mix of outcomes: ${first.join(',')}`);
  });

  test('with latency configured, requests are still answered normally', async () => {
    await withFaults({ latencyMs: [5, 10] }, async (url, key) => {
      const res = await get(url, key);
      assert.equal(res.statusCode, 200);
      await res.body.dump();
    });
    const f = new FaultInjector({ latencyMs: 25 });
    assert.equal(f.active, true);
  });
});

describe('job faults', () => {
  for (const [option, status] of [
    ['jobFailedRate', 'failed'],
    ['jobExceptionRate', 'exception'],
  ] as const) {
    test(`${option}=1 ends every job ${status} with a user_error_msg naming the fault`, async () => {
      await withFaults({ [option]: 1 }, async (url, key, dataDir) => {
        const svcClient = new ServiceClient({ baseUrl: url, apiKey: key, retry: false });
        const pdf = await writeFixture(dataDir, `fault-${option}.pdf`, await invoicePdf({ number: 'F-1', total: '1.00', date: '2026-01-01' }));
        const doc = (await svcClient.uploadDocument(pdf)).document_id;
        const t = (await svcClient.createTemplate(invoiceTemplate('faulty'))).template_id;
        const { request_id } = await svcClient.runParser(doc, { template_id: t });
        let job = await svcClient.getJob(request_id);
        for (let i = 0; i < 200 && (job.request_status === 'pending' || job.request_status === 'processing'); i++) {
          await new Promise((r) => setTimeout(r, 25));
          job = await svcClient.getJob(request_id);
        }
        assert.equal(job.request_status, status);
        assert.match(job.response_body?.user_error_msg ?? '', new RegExp(`injected fault: fault-job-${status}-rate`));
        assert.equal(job.response_body?.result_json_data, null);
        assert.equal(job.credits_used, 0);
      });
    });
  }
});

describe('fault options', () => {
  test('parseMsRange reads N and MIN-MAX and rejects anything else with the expected form', () => {
    assert.equal(parseMsRange('250'), 250);
    assert.deepEqual(parseMsRange('100-500'), [100, 500]);
    assert.throws(() => parseMsRange('fast'), /N or MIN-MAX/);
    assert.throws(() => parseMsRange('500-100'), /MIN <= MAX/);
  });
  test('rates outside 0..1, or summing over 1, are refused naming the option', () => {
    assert.throws(() => validateFaultOptions({ rate429: 1.5 }), /rate429/);
    assert.throws(() => validateFaultOptions({ jobFailedRate: 0.6, jobExceptionRate: 0.6 }), /jobFailedRate \+ jobExceptionRate/);
  });
});
