// `docdrop try FILE`: one file through a real `docdrop serve`, its fields as a table (or JSON), missing
// required fields flagged, a Classifier's label and scores, exit 1 with the reason when the job fails.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { fieldViews, renderFields } from '../../src/cli/field-table.js';
import type { Workflow } from '../../src/api/types.js';
import { docdrop } from '../helpers/cli.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { contractPdf, invoiceTemplate, numberedInvoice, tempTree, type TempTree } from './pipeline-fixtures.js';

describe('docdrop try', () => {
  let svc: TestService;
  let tree: TempTree;
  let invoice: string;
  let contract: string;
  const service = () => ['--base-url', svc.url, '--api-key', svc.keys[0]!];
  before(async () => {
    svc = await startTestService();
    tree = await tempTree('docdrop-try-');
    const client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! });
    const invoices = await client.createTemplate(invoiceTemplate('Invoices'));
    await client.createTemplate({
      template_title: 'Purchase orders',
      template_type: 'purchase_order',
      template_schema: { fields: [{ name: 'po_number', type: 'text', description: 'Purchase order number' }, { name: 'iban', type: 'text', description: 'IBAN of the bank account', required: true }] },
    });
    const contracts = await client.createTemplate({
      template_title: 'Contracts',
      template_type: 'contract',
      template_schema: { fields: [{ name: 'parties', type: 'text', description: 'parties of the agreement' }] },
    });
    await client.createClassifier({
      name: 'Mailroom',
      classes: [
        { label: 'invoice', description: 'an invoice with invoice number, total due and line items', template_id: invoices.template_id },
        { label: 'contract', description: 'an employment contract agreement between employer and employee', template_id: contracts.template_id },
      ],
    });
    invoice = join(tree.root, 'invoice.pdf');
    await writeFile(invoice, await numberedInvoice(31));
    contract = join(tree.root, 'contract.pdf');
    await writeFile(contract, await contractPdf());
  });
  after(async () => {
    await svc.close();
    await tree.cleanup();
  });

  test('prints the fields of one file as a table, in the Workflow order, with the line items as a sub-table', async () => {
    const r = await docdrop(['try', invoice, '--workflow', 'Invoices', ...service()]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^workflow\s+Invoices$/m);
    assert.match(r.stdout, /^status\s+completed$/m);
    assert.match(r.stdout, /^FIELD\s+VALUE$/m);
    assert.match(r.stdout, /^invoice_number\s+INV-00031$/m);
    assert.ok(r.stdout.indexOf('invoice_number') < r.stdout.indexOf('total_due'), 'fields follow the Workflow order');
    assert.match(r.stdout, /^line_items\s+\d+ rows?:$/m);
    assert.match(r.stdout, /^ {4}description\s+amount$/m, 'the table field as an indented sub-table');
  });

  test('--json gives the fields, the request id and the missing required fields', async () => {
    const r = await docdrop(['try', invoice, '--workflow', 'Purchase orders', '--json', ...service()]);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout) as { status: string; request_id: string; workflow: { title: string }; missing_required: string[]; fields: Record<string, unknown> };
    assert.equal(j.status, 'completed');
    assert.match(j.request_id, /^[0-9a-f-]{36}$/);
    assert.equal(j.workflow.title, 'Purchase orders');
    assert.deepEqual(j.missing_required, ['iban']);
    assert.ok('po_number' in j.fields && 'iban' in j.fields);
    const table = await docdrop(['try', invoice, '--workflow', 'Purchase orders', ...service()]);
    assert.match(table.stdout, /^iban\s+MISSING \(required\)$/m);
    assert.match(table.stdout, /^missing\s+iban \(required\)$/m);
  });

  test('a Classifier: the label, the scores of every class and the fields of the Workflow it chose', async () => {
    const r = await docdrop(['try', contract, '--classifier', 'Mailroom', ...service()]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^class\s+contract \([01]\.\d\d\)$/m);
    assert.match(r.stdout, /^scores\s+contract [01]\.\d\d, invoice [01]\.\d\d$/m);
    assert.match(r.stdout, /^workflow\s+Contracts$/m);
    assert.match(r.stdout, /^parties\s/m);
  });

  test('exits 1 with the reason when the job fails, and names an unknown Workflow with the ones that exist', async () => {
    const failing = await startTestService({ faults: { jobFailedRate: 1, seed: 1 } });
    try {
      await new ServiceClient({ baseUrl: failing.url, apiKey: failing.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
      const r = await docdrop(['try', invoice, '--workflow', 'Invoices', '--base-url', failing.url, '--api-key', failing.keys[0]!]);
      assert.equal(r.code, 1);
      assert.match(r.stdout, /^status\s+failed/m);
      assert.match(r.stderr, /docdrop try: the job failed: .+ \(request [0-9a-f-]{36}\)/);
    } finally {
      await failing.close();
    }
    const unknown = await docdrop(['try', invoice, '--workflow', 'Nope', ...service()]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /"Nope".*"Invoices"/s);
    const missing = await docdrop(['try', join(tree.root, 'missing.pdf'), '--workflow', 'Invoices', ...service()]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cannot read .*missing\.pdf: ENOENT/);
  });
});

test('the field table shows a confidence column only when the job gives confidences', () => {
  const workflow = { template_schema: { fields: [{ name: 'total', type: 'number', required: true }, { name: 'vendor', type: 'text' }] } } as unknown as Workflow;
  const plain = renderFields(fieldViews({ total: 12.5, vendor: null }, workflow));
  assert.doesNotMatch(plain, /CONFIDENCE/);
  assert.match(plain, /^vendor\s+-$/m, 'an empty optional field is a dash, not flagged');
  const scored = renderFields(fieldViews({ total: { value: 12.5, confidence: 0.875 }, vendor: 'ACME' }, workflow));
  assert.match(scored, /^FIELD\s+VALUE\s+CONFIDENCE$/m);
  assert.match(scored, /^total\s+12\.5\s+0\.88$/m);
});
