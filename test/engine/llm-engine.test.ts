import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { createBuiltinEngine } from '../../src/engine/builtin/builtin-engine.js';
import { createLlmEngine } from '../../src/engine/llm-engine.js';
import { createLogger } from '../../src/shared/logger.js';
import { makePage } from './page-fixture.js';

const KEY = 'sk-test-secret-123';
const page = makePage(['ACME Ltd', 'Invoice No: 77', 'Total: 12.50']);
const fields = [
  { name: 'invoice_number', type: 'text' as const },
  { name: 'total', type: 'number' as const, required: true },
];

async function fakeLlm(answer: (body: any) => string): Promise<{ server: Server; url: string; requests: { body: any; auth?: string }[] }> {
  const requests: { body: any; auth?: string }[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    requests.push({ body, auth: req.headers.authorization });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: answer(body) } }] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests };
}

function captureLogger() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c) => (text += c));
  return { logger: createLogger({ level: 'debug', destination: out }), text: () => text };
}

test('extracts through the endpoint with a JSON schema of the fields and the mapped model', async (t) => {
  const llm = await fakeLlm(() => JSON.stringify({ invoice_number: 'A-77', total: 12.5 }));
  t.after(() => llm.server.close());
  const engine = createLlmEngine({ baseUrl: llm.url, apiKey: KEY, models: { 'model-4o-mini': 'small-model' } }, createBuiltinEngine(), captureLogger().logger);
  const r = await engine.extract({ pages: [page], fields, dateFormat: null, detectLayout: true, detectTables: false, queryModel: 'model-4o-mini' });
  assert.deepEqual(r, { data: { invoice_number: 'A-77', total: 12.5 }, missingRequired: [] });
  const sent = llm.requests[0];
  assert.equal(sent.body.model, 'small-model');
  assert.equal(sent.auth, `Bearer ${KEY}`);
  assert.equal(sent.body.response_format.type, 'json_schema');
  assert.deepEqual(Object.keys(sent.body.response_format.json_schema.schema.properties), ['invoice_number', 'total']);
  assert.match(sent.body.messages[1].content, /Invoice No: 77/);
});

test('classifies through the endpoint and normalises the scores to sum 1', async (t) => {
  const llm = await fakeLlm(() => JSON.stringify({ label: 'invoice', scores: { invoice: 0.9, receipt: 0.3 } }));
  t.after(() => llm.server.close());
  const engine = createLlmEngine({ baseUrl: llm.url }, createBuiltinEngine(), captureLogger().logger);
  const r = await engine.classify({ pages: [page], classes: [{ label: 'invoice', description: '' }, { label: 'receipt', description: '' }] });
  assert.equal(r.label, 'invoice');
  assert.ok(Math.abs(r.scores.invoice + r.scores.receipt - 1) < 1e-9);
  assert.deepEqual(llm.requests[0].body.response_format.json_schema.schema.properties.label.enum, ['invoice', 'receipt']);
});

test('falls back to the built-in engine on invalid JSON and logs once without the key', async (t) => {
  const llm = await fakeLlm(() => 'this is not json');
  t.after(() => llm.server.close());
  const log = captureLogger();
  const engine = createLlmEngine({ baseUrl: llm.url, apiKey: KEY }, createBuiltinEngine(), log.logger);
  const input = { pages: [page], fields, dateFormat: null, detectLayout: true, detectTables: false };
  const first = await engine.extract(input);
  await engine.extract(input);
  assert.deepEqual(first.data, { invoice_number: '77', total: 12.5 });
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(log.text().split('\n').filter((l) => l.includes('"level":40')).length, 1);
  assert.ok(!log.text().includes(KEY));
});

test('falls back to the built-in engine when the endpoint is down', async () => {
  const llm = await fakeLlm(() => '{}');
  const url = llm.url;
  await new Promise((r) => llm.server.close(r));
  const engine = createLlmEngine({ baseUrl: url, timeoutMs: 2000 }, createBuiltinEngine(), captureLogger().logger);
  const r = await engine.extract({ pages: [page], fields, dateFormat: null, detectLayout: true, detectTables: false });
  assert.deepEqual(r.data, { invoice_number: '77', total: 12.5 });
});
