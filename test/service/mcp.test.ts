// The MCP server at /mcp, driven by the official SDK client over streamable HTTP against a real
// `docdrop serve`: the tool list, every tool, the error codes, the key check, the 7 MB base64 limit and
// file_url at one of the server's own pre-signed URLs (read internally: loopback fetches are refused).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request } from 'undici';
import { MCP_TOOL_NAMES } from '../../src/mcp/tools.js';
import { BASE64_MAX_BYTES } from '../../src/mcp/document-source.js';
import { errorFromResponse } from '../../src/mcp/tool-errors.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { clientFor } from '../helpers/service-fixtures.js';
import { invoicePdf, invoiceTemplate } from '../helpers/job-fixtures.js';

let svc: TestService;
let mcp: Client;
let other: Client;
let pdf: Buffer;

async function connect(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'docdrop-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
  return client;
}

type Out = Record<string, unknown>;
async function call(client: Client, name: string, args: Out = {}): Promise<{ isError: boolean; out: Out }> {
  const r = await client.callTool({ name, arguments: args });
  return { isError: r.isError === true, out: r.structuredContent as Out };
}
async function ok(name: string, args: Out = {}, client = mcp): Promise<Out> {
  const r = await call(client, name, args);
  assert.equal(r.isError, false, `${name}: ${JSON.stringify(r.out)}`);
  return r.out;
}
async function fails(name: string, args: Out, code: string, client = mcp): Promise<string> {
  const r = await call(client, name, args);
  assert.equal(r.isError, true, `${name} should fail with ${code}`);
  assert.equal(r.out.error_code, code, JSON.stringify(r.out));
  assert.equal(typeof r.out.message, 'string');
  return r.out.message as string;
}

async function completed(requestId: string): Promise<Out> {
  for (;;) {
    const s = await ok('check_extraction_status', { request_id: requestId });
    if (s.status !== 'pending' && s.status !== 'processing') return s;
    await new Promise((r) => setTimeout(r, 200));
  }
}

before(async () => {
  svc = await startTestService();
  mcp = await connect(svc.url, svc.keys[0]!);
  other = await connect(svc.url, svc.keys[1]!);
  pdf = await invoicePdf({ number: 'M-1', total: '12.50', date: '2026-03-01' });
});
after(async () => {
  await mcp.close();
  await other.close();
  await svc.close();
});

describe('MCP at /mcp', () => {
  test('lists the hosted tool names, each with input and output schemas and a description', async () => {
    const { tools } = await mcp.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...MCP_TOOL_NAMES].sort());
    for (const t of tools) {
      assert.ok(t.description && t.description.length > 20, t.name);
      assert.equal(t.inputSchema.type, 'object');
      assert.equal(t.outputSchema?.type, 'object', t.name);
    }
  });

  test('a missing or wrong x-api-key is HTTP 401 before the MCP layer', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const extra of [{}, { 'x-api-key': 'not-a-key' }]) {
      const res = await request(`${svc.url}/mcp`, { method: 'POST', headers: { ...headers, ...extra }, body });
      assert.equal(res.statusCode, 401);
      assert.equal(((await res.body.json()) as Out).error, 'unauthorized');
    }
    await assert.rejects(connect(svc.url, 'not-a-key'));
  });

  test('formats and credit balance', async () => {
    const f = await ok('list_supported_formats');
    assert.deepEqual((f.formats as Out[]).map((x) => x.extension), ['pdf', 'jpeg', 'png', 'tiff']);
    assert.equal(f.max_base64_bytes, BASE64_MAX_BYTES);
    assert.deepEqual(await ok('get_credit_balance'), { unlimited: true, credits_remaining: null });
  });

  test('templates: create, list with search and paging, get_schema, update; NOT_FOUND, FORBIDDEN, INVALID_INPUT', async () => {
    const created = (await ok('create_template', { ...invoiceTemplate('MCP Invoices') })).workflow as Out;
    await ok('create_template', { ...invoiceTemplate('MCP Receipts'), template_type: 'receipt' });
    const found = await ok('list_templates', { search: 'receipts' });
    assert.deepEqual((found.items as Out[]).map((t) => t.template_title), ['MCP Receipts']);
    const first = await ok('list_templates', { limit: 1 });
    assert.equal((first.items as Out[]).length, 1);
    const second = await ok('list_templates', { limit: 1, pagination_key: first.pagination_key });
    assert.notEqual((second.items as Out[])[0]!.template_id, (first.items as Out[])[0]!.template_id);

    const schema = await ok('get_schema', { template_id: created.template_id });
    assert.equal(schema.template_title, 'MCP Invoices');
    assert.ok(Array.isArray((schema.template_schema as Out).fields));
    const updated = (await ok('update_template', { template_id: created.template_id, template_type: 'bill' })).workflow as Out;
    assert.equal(updated.template_type, 'bill');

    await fails('get_schema', { template_id: '00000000-0000-4000-8000-000000000000' }, 'NOT_FOUND');
    await fails('get_schema', { template_id: created.template_id }, 'FORBIDDEN', other);
    const dup = await fails('create_template', { ...invoiceTemplate('MCP Invoices') }, 'INVALID_INPUT');
    assert.match(dup, /template_title/);
  });

  test('extract by base64, poll to results.data; classify it inline and with a saved Classifier', async () => {
    const templateId = ((await ok('create_template', { ...invoiceTemplate('MCP Extract') })).workflow as Out).template_id;
    const started = await ok('extract_document', { file_base64: pdf.toString('base64'), file_name: 'm1.pdf', template_id: templateId });
    const done = await completed(started.request_id as string);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    assert.ok((done.results as Out).data && typeof (done.results as Out).data === 'object');

    const documentId = started.document_id as string;
    const labels = [
      { label: 'invoice', description: 'a bill asking for payment' },
      { label: 'contract', description: 'an agreement between parties' },
    ];
    const inline = await ok('classify_document', { document_id: documentId, classification_schema: labels });
    assert.equal(inline.request_status, 'completed');
    assert.ok(labels.some((l) => l.label === inline.classification));

    const classifier = (await ok('create_classifier', { name: 'MCP kinds', classes: labels.map((l) => ({ ...l, template_id: templateId })) })).classifier as Out;
    const listed = await ok('list_classifiers');
    assert.ok((listed.items as Out[]).some((c) => c.classifier_id === classifier.classifier_id));
    const saved = await ok('classify_document', { document_id: documentId, classifier_id: classifier.classifier_id });
    assert.equal(saved.request_status, 'completed');

    // classify+extract through the Classifier
    const routed = await ok('extract_document', { document_id: documentId, classifier_id: classifier.classifier_id });
    assert.equal((await completed(routed.request_id as string)).status, 'completed');
  });

  test('classify on a document no extraction has read is DOCUMENT_NOT_READY', async () => {
    const labels = [
      { label: 'a', description: 'x' },
      { label: 'b', description: 'y' },
    ];
    await fails('classify_document', { file_base64: pdf.toString('base64'), classification_schema: labels }, 'DOCUMENT_NOT_READY');
  });

  test('document sources: exactly one; base64 up to 7 MB decoded; bad base64', async () => {
    const templateId = ((await ok('create_template', { ...invoiceTemplate('MCP Limits') })).workflow as Out).template_id;
    const both = await fails('extract_document', { file_base64: 'AAAA', document_id: 'x', template_id: templateId }, 'INVALID_INPUT');
    assert.match(both, /exactly one of file_url, file_base64 or document_id/);
    await fails('extract_document', { file_base64: 'AAAA', template_id: templateId, classifier_id: templateId }, 'INVALID_INPUT');
    await fails('extract_document', { file_base64: 'not base64!', template_id: templateId }, 'INVALID_INPUT');

    // A PDF padded (after %%EOF) to exactly 7 MB is accepted; one byte more is refused before upload.
    const exact = Buffer.concat([pdf, Buffer.alloc(BASE64_MAX_BYTES - pdf.length, 0x20)]);
    const accepted = await ok('extract_document', { file_base64: exact.toString('base64'), template_id: templateId });
    assert.match(accepted.request_id as string, /^[0-9a-f-]{36}$/);
    const tooBig = await fails('extract_document', { file_base64: Buffer.concat([exact, Buffer.from(' ')]).toString('base64'), template_id: templateId }, 'INVALID_INPUT');
    assert.match(tooBig, /at most 7340032 bytes/);
  });

  test("file_url at this server's own pre-signed URL is read internally; a tampered one is FORBIDDEN", async () => {
    const rest = clientFor(svc.url, svc.keys[0]!);
    const templateId = ((await ok('create_template', { ...invoiceTemplate('MCP Presigned') })).workflow as Out).template_id;
    const up = await ok('extract_document', { file_base64: pdf.toString('base64'), file_name: 'p.pdf', template_id: templateId });
    const doc = await rest.getDocument(up.document_id as string);
    assert.ok(doc.storage_key?.startsWith(`${svc.url}/presigned/`));
    const started = await ok('extract_document', { file_url: doc.storage_key, template_id: templateId });
    assert.notEqual(started.document_id, up.document_id);
    assert.equal((await completed(started.request_id as string)).status, 'completed');
    await fails('extract_document', { file_url: doc.storage_key!.replace(/signature=[0-9a-f]/, 'signature=g'), template_id: templateId }, 'FORBIDDEN');
    // Any other loopback URL is still refused by the fetch policy (and reported as INVALID_INPUT).
    await fails('extract_document', { file_url: `${svc.url}/v1/documents`, template_id: templateId }, 'INVALID_INPUT');
  });

  test('NOT_FOUND for an unknown request_id; server failures map to INTERNAL_ERROR', async () => {
    await fails('check_extraction_status', { request_id: '00000000-0000-4000-8000-000000000000' }, 'NOT_FOUND');
    const e = errorFromResponse({ status: 500, body: { error: 'internal_error', message: 'boom' }, bytes: Buffer.alloc(0) });
    assert.equal(e.errorCode, 'INTERNAL_ERROR');
  });
});
