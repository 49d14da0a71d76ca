// `docdrop mcp` over stdio, driven by the SDK's StdioClientTransport: the same tool set forwarded through
// ServiceClient to a real `docdrop serve` (--base-url), a refused key (UNAUTHORIZED), the server's own
// pre-signed URL as file_url, and a daemon config's embedded service started by the command (offline).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCP_TOOL_NAMES } from '../../src/mcp/tools.js';
import { REPO } from '../helpers/cli.js';
import { invoicePdf, invoiceTemplate } from '../helpers/job-fixtures.js';
import { clientFor } from '../helpers/service-fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { tempTree, writeConfig } from '../daemon/pipeline-fixtures.js';

type Out = Record<string, unknown>;
let svc: TestService;
let pdf: Buffer;

async function spawnMcp(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'docdrop-test', version: '1' });
  const inherited = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'src/cli/main.ts', 'mcp', ...args], cwd: REPO, env: { ...inherited, ...env }, stderr: 'inherit' }),
  );
  return client;
}

async function call(client: Client, name: string, args: Out = {}) {
  const r = await client.callTool({ name, arguments: args });
  return { isError: r.isError === true, out: r.structuredContent as Out };
}

async function completed(client: Client, requestId: string): Promise<Out> {
  for (;;) {
    const { out } = await call(client, 'check_extraction_status', { request_id: requestId });
    if (out.status !== 'pending' && out.status !== 'processing') return out;
    await new Promise((r) => setTimeout(r, 200));
  }
}

before(async () => {
  svc = await startTestService();
  pdf = await invoicePdf({ number: 'S-1', total: '3.00', date: '2026-02-01' });
});
after(async () => svc.close());

test('docdrop mcp --base-url: the tool set over stdio; extract by base64 and by the server\'s pre-signed URL', async () => {
  const client = await spawnMcp(['--base-url', svc.url], { DOCDROP_API_KEY: svc.keys[0]! });
  try {
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name).sort(), [...MCP_TOOL_NAMES].sort());
    const created = await call(client, 'create_template', { ...invoiceTemplate('Stdio Invoices') });
    assert.equal(created.isError, false, JSON.stringify(created.out));
    const templateId = (created.out.workflow as Out).template_id;
    const started = await call(client, 'extract_document', { file_base64: pdf.toString('base64'), file_name: 's.pdf', template_id: templateId });
    assert.equal(started.isError, false, JSON.stringify(started.out));
    const done = await completed(client, started.out.request_id as string);
    assert.equal(done.status, 'completed');
    assert.ok((done.results as Out).data);

    const doc = await clientFor(svc.url, svc.keys[0]!).getDocument(started.out.document_id as string);
    const byUrl = await call(client, 'extract_document', { file_url: doc.storage_key, template_id: templateId });
    assert.equal(byUrl.isError, false, JSON.stringify(byUrl.out));
    assert.equal((await completed(client, byUrl.out.request_id as string)).status, 'completed');

    const missing = await call(client, 'get_schema', { template_id: '00000000-0000-4000-8000-000000000000' });
    assert.deepEqual([missing.isError, missing.out.error_code], [true, 'NOT_FOUND']);
  } finally {
    await client.close();
  }
});

test('docdrop mcp with a key the server refuses answers tools with UNAUTHORIZED', async () => {
  const client = await spawnMcp(['--base-url', svc.url, '--api-key', 'not-a-key']);
  try {
    const r = await call(client, 'list_templates');
    assert.deepEqual([r.isError, r.out.error_code], [true, 'UNAUTHORIZED']);
  } finally {
    await client.close();
  }
});

test("docdrop mcp --config: a config's embedded service, started by the command, with the config's Workflows", async () => {
  const tree = await tempTree('docdrop-mcp-');
  try {
    await mkdir(join(tree.root, 'var', 'inbox'), { recursive: true });
    const { path } = await writeConfig(
      tree.root,
      [
        'log_level: silent',
        'service: { base_url: embedded }',
        'state: { path: ./var/state.db }',
        'workflows:',
        '  - { title: Invoices, type: invoice, fields: [{ name: invoice_number, type: text, description: "Invoice number" }] }',
        'rules:',
        '  - { name: invoices, watch: ./var/inbox, workflow: Invoices }',
        '',
      ].join('\n'),
    );
    const client = await spawnMcp(['--config', path]);
    try {
      const listed = await call(client, 'list_templates', { search: 'invoices' });
      assert.deepEqual((listed.out.items as Out[]).map((t) => t.template_title), ['Invoices']);
      const balance = await call(client, 'get_credit_balance');
      assert.deepEqual(balance.out, { unlimited: true, credits_remaining: null });
    } finally {
      await client.close();
    }
  } finally {
    await tree.cleanup();
  }
});
