// The optional LLM engine is reachable from `docdrop serve`: --llm-* flags become ServiceOptions.llm,
// and a service started with it extracts through the endpoint. The endpoint is a local stand-in for a
// hosted LLM (the one party we cannot run here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../src/api/client.js';
import { jobOutcome } from '../../src/api/job-status.js';
import { llmOptionsFrom } from '../../src/cli/serve-command.js';
import { startTestService } from '../helpers/service.js';
import { invoicePdf, invoiceTemplate, writeFixture } from '../helpers/job-fixtures.js';

test('--llm-url and --llm-model map to the engine config, the first model being the default', () => {
  const cfg = llmOptionsFrom({ llmUrl: 'http://127.0.0.1:9/v1', llmModel: ['model-4o-mini=small', 'model-4o=large'], llmTimeoutMs: 5000 }, 'k');
  assert.deepEqual(cfg, {
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey: 'k',
    models: { 'model-4o-mini': 'small', 'model-4o': 'large' },
    defaultModel: 'small',
    timeoutMs: 5000,
    maxChars: 60000,
  });
  assert.equal(llmOptionsFrom({ llmTimeoutMs: 5000 }, 'k'), undefined);
});

test('malformed --llm-* flags are refused with the flag named', () => {
  assert.throws(() => llmOptionsFrom({ llmUrl: 'http://x/v1', llmModel: ['gpt-4o'], llmTimeoutMs: 1 }, undefined), /--llm-model: expected QUERY_MODEL=MODEL/);
  assert.throws(() => llmOptionsFrom({ llmModel: ['a=b'], llmTimeoutMs: 1 }, undefined), /--llm-model: needs --llm-url/);
  assert.throws(() => llmOptionsFrom({ llmUrl: 'not a url', llmTimeoutMs: 1 }, undefined), /--llm-\*: baseUrl/);
});

test('a service started with an LLM config extracts through the endpoint', async (t) => {
  const seen: string[] = [];
  const llm = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    seen.push(JSON.parse(raw).model);
    res.setHeader('content-type', 'application/json');
    const answer = { invoice_number: 'FROM-LLM-1', date: '2026-01-02', total: 99.5, vendor: null, line_items: [] };
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify(answer) } }] }));
  });
  await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
  t.after(() => llm.close());
  const llmUrl = `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`;

  const svc = await startTestService({ llm: llmOptionsFrom({ llmUrl, llmModel: ['model-4o-mini=local-small'], llmTimeoutMs: 10000 }, undefined) });
  t.after(() => svc.close());
  const client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false, timeoutMs: 120_000 });
  const pdf = await writeFixture(svc.dataDir, 'inv.pdf', await invoicePdf({ number: 'INV-7', total: '10.00', date: '2026-11-01' }));
  const doc = await client.uploadDocument(pdf);
  const template = await client.createTemplate(invoiceTemplate('LLM invoices'));
  const job = await client.runParser(doc.document_id, { template_id: template.template_id, query_model: 'model-4o-mini' });
  await svc.service.context.jobs.idle();
  const out = jobOutcome(await client.getJob(job.request_id));
  assert.equal(out.status, 'completed');
  assert.equal(out.data?.invoice_number, 'FROM-LLM-1');
  assert.deepEqual(seen, ['local-small']);
});
