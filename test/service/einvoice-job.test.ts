// A hybrid e-invoice (ZUGFeRD / Factur-X) through `docdrop serve` over HTTP: the attached XML answers
// the Workflow's fields, and a configured LLM is asked only for the fields the XML cannot answer.
// The LLM endpoint is a local stand-in for a hosted one (the one party we cannot run here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../src/api/client.js';
import { jobOutcome } from '../../src/api/job-status.js';
import { llmOptionsFrom } from '../../src/cli/serve-command.js';
import { startTestService } from '../helpers/service.js';
import { writeFixture } from '../helpers/job-fixtures.js';
import { ciiXml, hybridPdf } from '../engine/einvoice-fixtures.js';

const XML = ciiXml({
  number: 'FX-9001',
  issued: '20261120',
  currency: 'EUR',
  seller: 'Werkstatt Nord GmbH',
  buyer: 'Kunde AG',
  grandTotal: '119.00',
  taxTotal: '19.00',
  taxBasis: '100.00',
  lines: [{ name: 'Repair', qty: '1', price: '100.00', amount: '100.00' }],
});

test('the XML answers the Workflow; the LLM is asked only for what it cannot answer', async (t) => {
  const asked: string[][] = [];
  const llm = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    const schema = body.response_format?.json_schema?.schema;
    asked.push(Object.keys(schema?.properties ?? {}));
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ contact_phone: '+49 40 5555' }) } }] }));
  });
  await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
  t.after(() => llm.close());
  const llmUrl = `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`;
  const svc = await startTestService({ llm: llmOptionsFrom({ llmUrl, llmModel: ['model-4o=local'], llmTimeoutMs: 10000 }, undefined) });
  t.after(() => svc.close());
  const client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false, timeoutMs: 120_000 });

  const pdf = await writeFixture(svc.dataDir, 'hybrid.pdf', Buffer.from(await hybridPdf(['Werkstatt Nord', 'Invoice 1', 'Total 5.00'], [{ name: 'factur-x.xml', xml: XML }])));
  const doc = await client.uploadDocument(pdf);
  const run = async (fields: { name: string; type: 'text' | 'number' | 'date' }[]) => {
    const template = await client.createTemplate({ template_title: `t${fields.length}`, template_type: 'invoice', template_schema: { fields } });
    const job = await client.runParser(doc.document_id, { template_id: template.template_id });
    await svc.service.context.jobs.idle();
    return { out: jobOutcome(await client.getJob(job.request_id)), engine: (await svc.service.context.jobs.store.get(job.request_id))?.engine };
  };

  const all = await run([{ name: 'invoice_number', type: 'text' }, { name: 'invoice_date', type: 'date' }, { name: 'total', type: 'number' }, { name: 'vendor', type: 'text' }]);
  assert.equal(all.out.status, 'completed');
  assert.deepEqual(all.out.data, { invoice_number: 'FX-9001', invoice_date: '2026-11-20', total: 119, vendor: 'Werkstatt Nord GmbH' });
  assert.equal(all.engine, 'docdrop-einvoice@1.0.0');
  assert.deepEqual(asked, [], 'the LLM was called though the XML answered every field');

  const mixed = await run([{ name: 'total', type: 'number' }, { name: 'contact_phone', type: 'text' }]);
  assert.deepEqual(mixed.out.data, { total: 119, contact_phone: '+49 40 5555' });
  assert.deepEqual(asked, [['contact_phone']]);
  assert.match(mixed.engine ?? '', /^docdrop-llm\+einvoice@/);
});
