// `docdrop workflows|classifiers ...` as a person runs them: real processes against a real docdrop serve
// (by --base-url, and the embedded one by --config), real files.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { docdrop } from '../helpers/cli.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { tempTree, type TempTree } from './pipeline-fixtures.js';

const DEFINITIONS = `workflows:
  - title: Purchase orders
    type: purchase_order
    fields:
      - { name: po_number, type: text, description: "Purchase order number", required: true }
      - { name: lines, type: table, subFields: [ { name: sku, type: text }, { name: qty, type: number } ] }
    parser_config: { date_format: "%d.%m.%Y" }
  - { title: Invoices, type: invoice, fields: [ { name: total, type: number } ] }
classifiers:
  - name: Inbox sorter
    classes:
      - { label: invoice, description: "A bill asking for payment", workflow: Invoices }
      - { label: purchase_order, description: "An order placed with a supplier", workflow: Purchase orders }
    min_confidence: 0.6
`;

describe('docdrop workflows and classifiers', () => {
  let svc: TestService;
  let tree: TempTree;
  before(async () => {
    svc = await startTestService();
    tree = await tempTree('docdrop-defs-cli-');
  });
  after(async () => {
    await svc.close();
    await tree.cleanup();
  });
  const remote = (key = 0) => ['--base-url', svc.url, '--api-key', svc.keys[key]!];

  test('apply --dry-run shows the plan, apply sends it, list/show/export read it back, export -> apply changes nothing', async () => {
    const file = join(tree.root, 'defs.yaml');
    await writeFile(file, DEFINITIONS);
    const dry = await docdrop(['workflows', 'apply', '--dry-run', '--file', file, ...remote()]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(dry.stdout, '+ Workflow "Purchase orders"\n+ Workflow "Invoices"\ndry run: nothing was sent\n');
    assert.equal((await docdrop(['workflows', 'list', ...remote()])).stdout, '(none)\n', 'the dry run sent nothing');

    const applied = await docdrop(['workflows', 'apply', '--file', file, ...remote()]);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /2 created, 0 updated, 0 deleted\n$/);
    const classifiers = await docdrop(['classifiers', 'apply', '--file', file, ...remote()]);
    assert.equal(classifiers.code, 0, classifiers.stderr);
    assert.match(classifiers.stdout, /\+ Classifier "Inbox sorter"\n1 created/);

    const list = await docdrop(['workflows', 'list', ...remote()]);
    assert.match(list.stdout, /^TITLE\s+TYPE\s+TEMPLATE_ID\s+FIELDS\n/);
    assert.match(list.stdout, /Purchase orders\s+purchase_order\s+[0-9a-f-]{36}\s+2\n/);
    const json = JSON.parse((await docdrop(['classifiers', 'list', '--json', ...remote()])).stdout) as { name: string; classes: string }[];
    assert.deepEqual(json.map((c) => [c.name, c.classes]), [['Inbox sorter', 'invoice, purchase_order']]);

    const show = await docdrop(['classifiers', 'show', 'Inbox sorter', ...remote()]);
    assert.match(show.stdout, /^# Classifier [0-9a-f-]{36}\nclassifiers:\n/);
    assert.match(show.stdout, /label: purchase_order, description: An order placed with a supplier, workflow: Purchase orders/);

    const out = join(tree.root, 'export.yaml');
    for (const kind of ['workflows', 'classifiers']) {
      const exp = await docdrop([kind, 'export', '--out', out, ...remote()]);
      assert.equal(exp.code, 0, exp.stderr);
      const again = await docdrop([kind, 'apply', '--prune', '--file', out, ...remote()]);
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /nothing to do: the account matches\n$/, `${kind}: ${again.stdout}\n${await readFile(out, 'utf8')}`);
    }
  });

  test('drift shows as ~ with key: old -> new; --prune deletes only what is not defined; delete removes one', async () => {
    const file = join(tree.root, 'drift.yaml');
    await writeFile(file, DEFINITIONS);
    await docdrop(['workflows', 'apply', '--file', file, ...remote(1)]);
    await writeFile(file, DEFINITIONS.replace('"%d.%m.%Y"', '"%Y-%m-%d"').replace(/  - \{ title: Invoices.*\n/, ''));
    const dry = await docdrop(['workflows', 'apply', '--dry-run', '--file', file, ...remote(1)]);
    assert.match(dry.stdout, /~ Workflow "Purchase orders" \([0-9a-f-]+\)\n {4}parser_config\.date_format: "%d\.%m\.%Y" -> "%Y-%m-%d"\n/);
    assert.match(dry.stdout, /Workflow "Invoices" \([0-9a-f-]+\) is in the account but not defined here: kept \(--prune deletes it\)/);
    const pruned = await docdrop(['workflows', 'apply', '--prune', '--file', file, ...remote(1)]);
    assert.match(pruned.stdout, /- Workflow "Invoices"/);
    assert.match(pruned.stdout, /0 created, 1 updated, 1 deleted\n$/);

    const del = await docdrop(['workflows', 'delete', 'Purchase orders', ...remote(1)]);
    assert.equal(del.code, 0, del.stderr);
    assert.match(del.stdout, /^deleted Workflow "Purchase orders" \([0-9a-f-]{36}\)\n$/);
    const missing = await docdrop(['workflows', 'delete', 'Purchase orders', ...remote(1)]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /docdrop workflows delete: no Workflow is named "Purchase orders" \(or has that id\); existing: none/);
  });

  test('a broken definitions file is refused by key path before anything is sent', async () => {
    const file = join(tree.root, 'broken.yaml');
    await writeFile(file, DEFINITIONS.replace('name: po_number', 'name: PO-Number'));
    const r = await docdrop(['workflows', 'apply', '--file', file, ...remote(1)]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /workflows\[0\]\.fields\[0\]\.name: expected only lower-case letters, digits and underscore, got "PO-Number"/);
    const unknown = join(tree.root, 'unknown-ref.yaml');
    await writeFile(unknown, DEFINITIONS.replace('workflow: Invoices', 'workflow: Nowhere'));
    const ref = await docdrop(['classifiers', 'apply', '--file', unknown, ...remote(1)]);
    assert.equal(ref.code, 1);
    assert.match(ref.stderr, /nothing was sent[\s\S]*classifiers\[0\]\.classes\[0\]\.workflow: "Nowhere" matches no Workflow/);
    assert.equal((await docdrop(['classifiers', 'list', ...remote(1)])).stdout, '(none)\n');
    const empty = join(tree.root, 'empty.yaml');
    await writeFile(empty, 'workflows: []\n');
    const prune = await docdrop(['workflows', 'apply', '--prune', '--file', empty, ...remote(1)]);
    assert.equal(prune.code, 1);
    assert.match(prune.stderr, /--prune with no workflows defined .* would delete every Workflow of the account; refusing/);
  });

  test('with --config the embedded service is used and the config sections are what apply applies', async () => {
    const root = join(tree.root, 'embedded');
    const config = join(tree.root, 'embedded.yaml');
    await writeFile(
      config,
      [`base_dir: ${root}`, 'rules:', '  - { name: po, watch: ./var/inbox/po, workflow: Purchase orders }', DEFINITIONS].join('\n'),
    );
    const first = await docdrop(['workflows', 'apply', '--config', config]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /2 created/);
    const second = await docdrop(['workflows', 'apply', '--config', config]);
    assert.match(second.stdout, /= Workflow "Purchase orders" \(unchanged\)\n= Workflow "Invoices" \(unchanged\)\nnothing to do/);
    const list = await docdrop(['workflows', 'list', '--json', '--config', config]);
    assert.deepEqual((JSON.parse(list.stdout) as { title: string }[]).map((w) => w.title).sort(), ['Invoices', 'Purchase orders']);
  });
});
