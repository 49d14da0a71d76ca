// Workflows and Classifiers as code against a real `docdrop serve`: the plan (create / update with the keys
// that differ / unchanged / untracked or pruned), an idempotent apply (counted requests), drift after a
// change through the API, refusal before any request, the export -> apply round trip, and the daemon's
// start applying its config's definitions before rules are resolved.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client.js';
import type { RequestInfo } from '../../src/api/http.js';
import { parseConfig } from '../../src/daemon/config/config.js';
import type { ClassifierDefinition, WorkflowDefinition } from '../../src/daemon/config/definitions-schema.js';
import { syncDefinitions } from '../../src/daemon/definitions/apply.js';
import { formatPlan } from '../../src/daemon/definitions/format-plan.js';
import { classifierKind, workflowKind } from '../../src/daemon/definitions/kinds.js';
import { DefinitionError } from '../../src/daemon/definitions/plan.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/shared/logger.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { tempTree } from './pipeline-fixtures.js';

const orders: WorkflowDefinition = {
  title: 'Purchase orders',
  type: 'purchase_order',
  fields: [
    { name: 'po_number', type: 'text', description: 'Purchase order number', required: true },
    { name: 'order_date', type: 'date' },
    { name: 'lines', type: 'table', subFields: [{ name: 'sku', type: 'text' }, { name: 'qty', type: 'number' }] },
  ],
  parser_config: { date_format: '%d.%m.%Y', ocr_config: { use_ocr: true } },
  webhook_url: null,
};
const invoices: WorkflowDefinition = { title: 'Invoices', type: 'invoice', fields: [{ name: 'total', type: 'number' }] };
const sorter: ClassifierDefinition = {
  name: 'Inbox sorter',
  classes: [
    { label: 'invoice', description: 'A bill asking for payment', workflow: 'Invoices' },
    { label: 'purchase_order', description: 'An order placed with a supplier', workflow: 'Purchase orders' },
  ],
  default_workflow: 'Invoices',
  min_confidence: 0.6,
};

describe('definitions sync against docdrop serve', () => {
  let svc: TestService;
  let key = 0;
  let client: ServiceClient;
  let writes: RequestInfo[];
  before(async () => {
    svc = await startTestService({ apiKeys: Array.from({ length: 12 }, (_, i) => `defs-key-${i}`) });
  });
  after(() => svc.close());
  // Each test gets an empty account of its own.
  beforeEach(() => {
    writes = [];
    client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[key++]!, onRequest: (i) => void (i.method !== 'GET' && writes.push(i)) });
  });

  test('creates what is missing, then a second apply sends no write at all', async () => {
    const first = await syncDefinitions(client, { workflows: [orders, invoices], classifiers: [sorter] });
    assert.deepEqual(first.applied.map((a) => `${a.action} ${a.kind} ${a.name}`), [
      'create workflow Purchase orders',
      'create workflow Invoices',
      'create classifier Inbox sorter',
    ]);
    assert.equal(writes.length, 3);
    const [c] = await classifierKind.list(client);
    const ids = new Map((await workflowKind.list(client)).map((w) => [w.template_title, w.template_id]));
    assert.deepEqual(c!.configs.classes.map((k) => k.template_id), [ids.get('Invoices'), ids.get('Purchase orders')], 'titles resolved to the new ids');
    assert.equal(c!.configs.default_template_id, ids.get('Invoices'));

    writes = [];
    const second = await syncDefinitions(client, { workflows: [orders, invoices], classifiers: [sorter] });
    assert.deepEqual(second.applied, []);
    assert.equal(writes.length, 0, 'the second apply only reads');
    assert.ok([...second.plan.workflows, ...second.plan.classifiers].every((i) => i.action === 'unchanged'), formatPlan(second.plan));
  });

  test('updates only the keys that differ and reports them as old -> new', async () => {
    await syncDefinitions(client, { workflows: [orders, invoices], classifiers: [sorter] });
    writes = [];
    const changed: WorkflowDefinition = { ...orders, parser_config: { date_format: '%Y-%m-%d', ocr_config: { use_ocr: true } } };
    const resorted: ClassifierDefinition = { ...sorter, classes: [sorter.classes[0]!, { ...sorter.classes[1]!, workflow: 'Invoices' }] };
    const dry = await syncDefinitions(client, { workflows: [changed, invoices], classifiers: [resorted] }, { dryRun: true });
    assert.equal(writes.length, 0, 'a dry run sends nothing');
    const text = formatPlan(dry.plan);
    assert.match(text, /~ Workflow "Purchase orders"[^\n]*\n\s+parser_config\.date_format: "%d\.%m\.%Y" -> "%Y-%m-%d"\n/);
    assert.match(text, /= Workflow "Invoices" \(unchanged\)/);
    assert.match(text, /~ Classifier "Inbox sorter"[^\n]*\n\s+classes\.purchase_order\.workflow: "Purchase orders" -> "Invoices"\n/);

    const { applied } = await syncDefinitions(client, { workflows: [changed, invoices], classifiers: [resorted] });
    assert.deepEqual(applied.map((a) => [a.name, a.keys]), [
      ['Purchase orders', ['parser_config']],
      ['Inbox sorter', ['classes']],
    ]);
    const puts = writes.filter((w) => w.method === 'PUT');
    assert.equal(puts.length, 2);
    const w = (await workflowKind.list(client)).find((x) => x.template_title === 'Purchase orders')!;
    assert.equal(w.parser_config.date_format, '%Y-%m-%d');
    assert.equal(w.parser_config.ocr_config.use_ocr, true);
  });

  test('reports drift after a Workflow was changed through the API, and apply puts it back', async () => {
    await syncDefinitions(client, { workflows: [orders] });
    const w = (await workflowKind.list(client))[0]!;
    await client.updateTemplate(w.template_id, {
      template_type: 'order',
      template_schema: { fields: [...w.template_schema.fields.slice(0, 2), { name: 'note', type: 'text' }] },
    });
    const { plan } = await syncDefinitions(client, { workflows: [orders] }, { dryRun: true });
    const text = formatPlan(plan);
    assert.match(text, /type: "order" -> "purchase_order"/);
    assert.match(text, /fields\.lines: \+ /);
    assert.match(text, /fields\.note: - /);
    await syncDefinitions(client, { workflows: [orders] });
    const again = await syncDefinitions(client, { workflows: [orders] }, { dryRun: true });
    assert.equal(again.plan.workflows[0]!.action, 'unchanged');
  });

  test('keeps what is only in the account unless pruning, and prunes only what is not defined', async () => {
    await syncDefinitions(client, { workflows: [orders, invoices] });
    const kept = await syncDefinitions(client, { workflows: [invoices] });
    assert.deepEqual(kept.applied, []);
    assert.match(formatPlan(kept.plan), /Workflow "Purchase orders" \([0-9a-f-]+\) is in the account but not defined here: kept/);
    assert.equal((await workflowKind.list(client)).length, 2);

    const pruned = await syncDefinitions(client, { workflows: [invoices] }, { prune: true });
    assert.deepEqual(pruned.applied.map((a) => `${a.action} ${a.name}`), ['delete Purchase orders']);
    assert.deepEqual((await workflowKind.list(client)).map((w) => w.template_title), ['Invoices']);
  });

  test('refuses a class naming an unknown Workflow before any request that writes', async () => {
    const broken: ClassifierDefinition = { ...sorter, classes: [sorter.classes[0]!, { label: 'x', description: 'y', workflow: 'Nowhere' }] };
    await assert.rejects(syncDefinitions(client, { workflows: [orders, invoices], classifiers: [broken] }), (err: unknown) => {
      assert.ok(err instanceof DefinitionError);
      assert.match(err.message, /classifiers\[0\]\.classes\[1\]\.workflow: "Nowhere" matches no Workflow/);
      return true;
    });
    assert.equal(writes.length, 0);
    assert.equal((await workflowKind.list(client)).length, 0, 'not even the valid Workflows were created');
  });

  test('a class may name a Workflow that already exists, by title or template_id', async () => {
    const existing = await client.createTemplate({ template_title: 'Receipts', template_type: 'receipt', template_schema: { fields: [{ name: 'total', type: 'number' }] } });
    const c: ClassifierDefinition = {
      name: 'Two',
      classes: [
        { label: 'receipt', description: 'a receipt', workflow: 'Receipts' },
        { label: 'other', description: 'anything else', workflow: existing.template_id },
      ],
    };
    await syncDefinitions(client, { classifiers: [c] });
    const [made] = await classifierKind.list(client);
    assert.deepEqual(made!.configs.classes.map((k) => k.template_id), [existing.template_id, existing.template_id]);
    writes = [];
    assert.deepEqual((await syncDefinitions(client, { classifiers: [c] })).applied, [], 'an id and its title are the same Workflow');
    assert.equal(writes.length, 0);
  });

  test('export -> apply is a round trip that changes nothing', async () => {
    await syncDefinitions(client, { workflows: [orders, invoices], classifiers: [sorter] });
    const workflows = (await workflowKind.definitions(client, await workflowKind.list(client))) as WorkflowDefinition[];
    const classifiers = (await classifierKind.definitions(client, await classifierKind.list(client))) as ClassifierDefinition[];
    assert.deepEqual(classifiers[0]!.classes.map((k) => k.workflow), ['Invoices', 'Purchase orders'], 'ids turned back into titles');
    writes = [];
    const { plan, applied } = await syncDefinitions(client, { workflows, classifiers }, { prune: true });
    assert.deepEqual(applied, [], formatPlan(plan));
    assert.equal(writes.length, 0);
  });

  test('the daemon applies its config definitions at start, so a rule may name one', async () => {
    const tree = await tempTree('docdrop-defs-');
    const apiKey = svc.keys[key++]!;
    try {
      const config = parseConfig(
        [
          `service: { base_url: "${svc.url}", api_key: ${apiKey} }`,
          `state: { path: ${tree.root}/state.db }`,
          'rules:',
          `  - { name: orders, watch: ${tree.root}/in, workflow: Purchase orders, output: { dir: ${tree.root}/out } }`,
          `  - { name: sorted, watch: ${tree.root}/in2, classifier: Inbox sorter, output: { dir: ${tree.root}/out2 } }`,
          'workflows:',
          '  - { title: Purchase orders, type: purchase_order, fields: [ { name: po_number, type: text } ] }',
          '  - { title: Invoices, type: invoice, fields: [ { name: total, type: number } ] }',
          'classifiers:',
          '  - name: Inbox sorter',
          '    classes: [ { label: invoice, description: a bill, workflow: Invoices }, { label: po, description: an order, workflow: Purchase orders } ]',
        ].join('\n'),
        { baseDir: tree.root, env: {} },
      );
      const daemon = await startDaemon(config, { logger: silentLogger });
      await daemon.stop();
      const check = new ServiceClient({ baseUrl: svc.url, apiKey });
      assert.deepEqual((await workflowKind.list(check)).map((w) => w.template_title).sort(), ['Invoices', 'Purchase orders']);
      assert.deepEqual((await classifierKind.list(check)).map((c) => c.name), ['Inbox sorter']);
    } finally {
      await tree.cleanup();
    }
  });
});
