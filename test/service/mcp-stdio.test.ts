// `docdrop mcp` over stdio, driven by the SDK's StdioClientTransport: the same tool set forwarded through
// ServiceClient to a real `docdrop serve` (--base-url), a refused key (UNAUTHORIZED), the server's own
// pre-signed URL as file_url, and a daemon config's embedded service started by the command (offline).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LEDGER_TOOL_NAMES } from '../../src/cli/mcp-ledger-tools.js';
import { openLedger } from '../../src/daemon/ledger/open-ledger.js';
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

test("docdrop mcp --config: a config's embedded service started by the command, its Workflows, and the ledger tools", async () => {
  const tree = await tempTree('docdrop-mcp-');
  try {
    await mkdir(join(tree.root, 'var', 'inbox'), { recursive: true });
    const { path, config } = await writeConfig(
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
    // A failed input, its file in failed_dir, and a queued one, as the daemon would have left them.
    const failedFile = join(tree.root, 'var', 'failed.pdf');
    await writeFile(failedFile, pdf);
    const ledger = await openLedger(config.state);
    const inbox = join(tree.root, 'var', 'inbox');
    const failed = (await ledger.addInput({ rule: 'invoices', path: join(inbox, 'a.pdf'), size: pdf.length, mtimeMs: 1, sha256: 'a' })).record;
    await ledger.transition(failed.id, 'queued', 'failed', { finalPath: failedFile, lastError: 'service_rejected: the file is not a PDF' });
    const queued = (await ledger.addInput({ rule: 'invoices', path: join(inbox, 'b.pdf'), size: 1, mtimeMs: 1, sha256: 'b' })).record;
    await ledger.close();

    const client = await spawnMcp(['--config', path]);
    try {
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name).sort(), [...MCP_TOOL_NAMES, ...LEDGER_TOOL_NAMES].sort());
      const recent = await call(client, 'list_inputs', { rule: 'invoices', since_hours: 24 });
      assert.deepEqual((recent.out.items as Out[]).map((i) => [i.id, i.state]), [[queued.id, 'queued'], [failed.id, 'failed']]);
      const shown = await call(client, 'get_input', { id: failed.id });
      assert.equal((shown.out.input as Out).last_error, 'service_rejected: the file is not a PDF');
      assert.equal(shown.out.result, null);
      const retried = await call(client, 'retry_input', { id: failed.id });
      assert.equal(retried.out.ok, true, JSON.stringify(retried.out));
      await access(join(inbox, 'a.pdf'));
      assert.equal((await call(client, 'retry_input', { id: queued.id })).out.error_code, 'INVALID_INPUT');
      assert.equal((await call(client, 'get_input', { id: 9999 })).out.error_code, 'NOT_FOUND');

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
