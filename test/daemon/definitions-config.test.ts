// The config's workflows: and classifiers: sections are checked at load with the spec's rules (the same
// ones docdrop serve applies), every problem named by its key path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, parseConfig } from '../../src/daemon/config/config.js';
import { loadDefinitionsFile } from '../../src/daemon/config/definitions-file.js';

const RULES = 'rules:\n  - { name: a, watch: ./in, workflow: Purchase orders }\n';

function problems(yaml: string): string[] {
  try {
    parseConfig(RULES + yaml, { baseDir: '/srv/docdrop', env: {} });
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.problems;
  }
  assert.fail('expected the config to be rejected');
}

test('takes the sections in the shape of the issue, keys as written', () => {
  const c = parseConfig(
    RULES +
      `workflows:
  - title: Purchase orders
    type: purchase_order
    fields:
      - { name: po_number, type: text, description: "Purchase order number", required: true }
      - { name: order_date, type: date }
      - { name: lines, type: table, subFields: [ { name: sku, type: text }, { name: qty, type: number } ] }
    parser_config: { date_format: "%d.%m.%Y", ocr_config: { use_ocr: true } }
    webhook_url: null
classifiers:
  - name: Inbox sorter
    classes:
      - { label: invoice, description: "A bill asking for payment", workflow: Invoices }
      - { label: purchase_order, description: "An order placed with a supplier", workflow: Purchase orders }
    default_workflow: Invoices
    min_confidence: 0.6
    query_model: model-4o
    use_ocr: false
    page_range: "1-2"
    classifier_type: document
`,
    { baseDir: '/srv/docdrop', env: {} },
  );
  assert.equal(c.workflows[0]!.fields[2]!.subFields!.length, 2);
  assert.deepEqual(c.workflows[0]!.parser_config, { date_format: '%d.%m.%Y', ocr_config: { use_ocr: true } });
  assert.equal(c.classifiers[0]!.classes[1]!.workflow, 'Purchase orders');
  assert.equal(c.classifiers[0]!.min_confidence, 0.6);
});

test('none by default', () => {
  const c = parseConfig(RULES, { baseDir: '/srv/docdrop', env: {} });
  assert.deepEqual([c.workflows, c.classifiers], [[], []]);
});

test('names each broken field rule by its key path', () => {
  const p = problems(`workflows:
  - title: Orders
    type: order
    fields:
      - { name: PO-number, type: text }
      - { name: "${'n'.repeat(51)}", type: text }
      - { name: note, type: text, description: "${'d'.repeat(151)}" }
      - { name: lines, type: table }
      - { name: nested, type: table, subFields: [ { name: inner, type: table } ] }
      - { name: odd, type: txt, requird: true }
    parser_config: { date_fmt: x, ocr_config: { use_ocr: "yes" } }
    webhook_url: ftp://example.com/hook
  - title: Twice
    type: order
    fields: [ { name: note, type: text }, { name: lines, type: table, subFields: [ { name: a, type: text }, { name: a, type: text } ] }, { name: note, type: number } ]
`);
  const expected = [
    /^workflows\[0\]\.fields\[0\]\.name: expected only lower-case letters, digits and underscore, got "PO-number"$/,
    /^workflows\[0\]\.fields\[1\]\.name: expected at most 50 characters/,
    /^workflows\[0\]\.fields\[2\]\.description: expected at most 150 characters/,
    /^workflows\[0\]\.fields\[3\]\.subFields: expected at least one sub-field for a table field$/,
    /^workflows\[0\]\.fields\[4\]\.subFields\[0\]\.type: expected one of text, number, date, got "table"$/,
    /^workflows\[0\]\.fields\[5\]\.type: expected one of text, number, date, table, got "txt"$/,
    /^workflows\[0\]\.fields\[5\]: unknown key "requird"/,
    /^workflows\[1\]\.fields\[1\]\.subFields: expected unique sub-field names, received "a" twice$/,
    /^workflows\[1\]\.fields\[2\]\.name: expected unique field names, received "note" twice$/,
    /^workflows\[0\]\.parser_config: unknown key "date_fmt"/,
    /^workflows\[0\]\.parser_config\.ocr_config\.use_ocr: expected boolean, got "yes"$/,
    /^workflows\[0\]\.webhook_url: expected an http\(s\) URL, got "ftp:\/\/example\.com\/hook"$/,
  ];
  for (const re of expected) assert.ok(p.some((x) => re.test(x)), `${re} in:\n${p.join('\n')}`);
  assert.equal(p.length, expected.length, p.join('\n'));
});

test('names each broken classifier rule by its key path', () => {
  const p = problems(`classifiers:
  - name: One class
    classes: [ { label: invoice, description: a bill } ]
    min_confidence: 1.5
    query_model: gpt-5
  - name: Twins
    classes: [ { label: a, description: x }, { label: a, description: y, workflw: Invoices } ]
    page_range: "3-1"
`);
  const expected = [
    /^classifiers\[0\]\.classes: expected at least 2 classes/,
    /^classifiers\[0\]\.min_confidence: expected a number from 0\.0 to 1\.0 inclusive, got number 1\.5$/,
    /^classifiers\[0\]\.query_model: expected one of model-4o-mini, model-4o, got "gpt-5"$/,
    /^classifiers\[1\]\.classes\[1\]: unknown key "workflw"/,
    /^classifiers\[1\]\.classes\[1\]\.label: expected unique labels, received "a" twice$/,
    /^classifiers\[1\]\.page_range: expected page ranges like '1-3,5,7-9'/,
  ];
  for (const re of expected) assert.ok(p.some((x) => re.test(x)), `${re} in:\n${p.join('\n')}`);
  assert.equal(p.length, expected.length, p.join('\n'));
});

test('titles and names are the keys: each must be unique', () => {
  const p = problems(`workflows:
  - { title: Orders, type: order, fields: [ { name: a, type: text } ] }
  - { title: Orders, type: order, fields: [ { name: b, type: text } ] }
classifiers:
  - { name: S, classes: [ { label: a, description: x }, { label: b, description: y } ] }
  - { name: S, classes: [ { label: a, description: x }, { label: b, description: y } ] }
`);
  assert.deepEqual(p, [
    'workflows[1].title: "Orders" is already the title of workflows[0]; titles must be unique',
    'classifiers[1].name: "S" is already the name of classifiers[0]; names must be unique',
  ]);
});

test('a definitions file holds the sections alone, checked the same way; an absent section stays absent', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-defs-file-'));
  try {
    const good = join(dir, 'good.yaml');
    await writeFile(good, 'classifiers:\n  - { name: S, classes: [ { label: a, description: x }, { label: b, description: y } ] }\n');
    const defs = await loadDefinitionsFile(good);
    assert.equal(defs.workflows, undefined);
    assert.equal(defs.classifiers!.length, 1);
    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, 'rules: []\nworkflows:\n  - { title: X, type: x, fields: [ { name: Bad, type: text } ] }\n');
    await assert.rejects(loadDefinitionsFile(bad), (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.deepEqual(err.problems, [
        'workflows[0].fields[0].name: expected only lower-case letters, digits and underscore, got "Bad"',
        'unknown key "rules" (check the spelling)',
      ]);
      return true;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the example config defines the Invoices Workflow its rule names, with no special code path', async () => {
  const c = await loadConfig('config/docdrop.example.yaml', {});
  const invoices = c.workflows.find((w) => w.title === c.rules[0]!.workflow);
  assert.ok(invoices, 'the rule names a Workflow the config defines');
  assert.deepEqual(invoices.fields.map((f) => f.name), ['invoice_number', 'date', 'vendor', 'total', 'line_items']);
  assert.deepEqual(invoices.fields[4]!.subFields!.map((f) => f.name), ['description', 'quantity', 'unit_price', 'amount']);
});
