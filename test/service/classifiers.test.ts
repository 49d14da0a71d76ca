// Spec rows: POST/GET/PUT /v1/classifiers, GET /v1/classifiers/{id}, and the DELETE extension;
// Classifier create body rules (>= 2 classes, min_confidence 0..1, query_model values, defaults).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServiceClient } from '../../src/api/client.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { clientFor, errorBody, raw, TIMESTAMP_RE, UUID_RE } from '../helpers/service-fixtures.js';

let svc: TestService;
let client: ServiceClient;
let invoiceTpl: string;
let receiptTpl: string;

before(async () => {
  svc = await startTestService();
  client = clientFor(svc.url, svc.keys[0]);
  const schema = { fields: [{ name: 'total', type: 'number' as const }] };
  invoiceTpl = (await client.createTemplate({ template_title: 'Invoice', template_type: 'invoice', template_schema: schema })).template_id;
  receiptTpl = (await client.createTemplate({ template_title: 'Receipt', template_type: 'receipt', template_schema: schema })).template_id;
});
after(() => svc.close());

const classes = () => [
  { label: 'invoice', description: 'A supplier invoice', template_id: invoiceTpl },
  { label: 'receipt', description: 'A till receipt' },
];
const post = (body: unknown, key = svc.keys[0]) => raw(`${svc.url}/v1/classifiers`, { method: 'POST', key, json: body });

describe('POST /v1/classifiers', () => {
  test('takes a flat body and answers with settings nested under configs, defaults filled', async () => {
    const c = await client.createClassifier({ name: 'Mailroom', classes: classes() });
    assert.match(c.classifier_id, UUID_RE);
    assert.equal(c.name, 'Mailroom');
    assert.match(c.user_id, /\S/);
    assert.match(c.created_at, TIMESTAMP_RE);
    assert.match(c.updated_at, TIMESTAMP_RE);
    assert.deepEqual(c.configs.classes, classes());
    assert.equal(c.configs.classifier_type, 'document');
    assert.equal(c.configs.query_model, 'model-4o-mini');
    assert.equal(c.configs.use_ocr, true);
    assert.equal('name' in c.configs, false);
    assert.equal('classes' in c, false);
  });

  test('stores every optional setting as sent', async () => {
    const c = await client.createClassifier({
      name: 'Full',
      classes: classes(),
      default_template_id: receiptTpl,
      min_confidence: 0.6,
      classifier_type: 'document',
      query_model: 'model-4o',
      use_ocr: false,
      page_range: '1-2',
    });
    assert.equal(c.configs.default_template_id, receiptTpl);
    assert.equal(c.configs.min_confidence, 0.6);
    assert.equal(c.configs.query_model, 'model-4o');
    assert.equal(c.configs.use_ocr, false);
    assert.equal(c.configs.page_range, '1-2');
  });

  test('min_confidence 0.0 and 1.0 are accepted; outside the range gives 400', async () => {
    for (const v of [0, 1]) assert.equal((await client.createClassifier({ name: `m${v}`, classes: classes(), min_confidence: v })).configs.min_confidence, v);
    for (const v of [-0.01, 1.5]) {
      assert.match(errorBody(await post({ name: 'x', classes: classes(), min_confidence: v }), 400, 'invalid_request').message, /min_confidence: expected a number from 0.0 to 1.0/);
    }
    assert.match(errorBody(await post({ name: 'x', classes: classes(), min_confidence: 'high' }), 400, 'invalid_request').message, /min_confidence/);
  });

  test('query_model other than model-4o-mini or model-4o gives 400', async () => {
    const res = await post({ name: 'x', classes: classes(), query_model: 'model-3.5-turbo' });
    assert.match(errorBody(res, 400, 'invalid_request').message, /query_model: expected 'model-4o-mini' or 'model-4o'/);
  });

  test('needs name and at least 2 classes, each with label and description', async () => {
    assert.match(errorBody(await post({ classes: classes() }), 400, 'invalid_request').message, /name/);
    assert.match(errorBody(await post({ name: 'x', classes: [classes()[0]] }), 400, 'invalid_request').message, /classes: expected at least 2 classes/);
    assert.match(errorBody(await post({ name: 'x' }), 400, 'invalid_request').message, /classes/);
    assert.match(errorBody(await post({ name: 'x', classes: [{ label: 'a' }, { label: 'b', description: 'b' }] }), 400, 'invalid_request').message, /classes\[0\]\.description/);
    assert.match(errorBody(await post({ name: 'x', classes: [{ label: 'a', description: '' }, { label: 'a', description: '' }] }), 400, 'invalid_request').message, /unique labels/);
  });

  test('rejects settings nested under configs, unknown classifier_type and bad page_range', async () => {
    assert.match(errorBody(await post({ name: 'x', configs: { classes: classes() } }), 400, 'invalid_request').message, /configs/);
    assert.match(errorBody(await post({ name: 'x', classes: classes(), classifier_type: 'page' }), 400, 'invalid_request').message, /classifier_type/);
    assert.match(errorBody(await post({ name: 'x', classes: classes(), page_range: 'first' }), 400, 'invalid_request').message, /page_range/);
  });

  test('template_ids must name Workflows of the same account', async () => {
    const missing = await post({ name: 'x', classes: [{ label: 'a', description: 'a', template_id: '11111111-2222-4333-8444-555555555555' }, { label: 'b', description: 'b' }] });
    assert.match(errorBody(missing, 400, 'invalid_request').message, /classes\[0\]\.template_id/);
    const foreign = await post({ name: 'x', classes: classes() }, svc.keys[1]);
    assert.match(errorBody(foreign, 400, 'invalid_request').message, /classes\[0\]\.template_id/);
    const badDefault = await post({ name: 'x', classes: classes(), default_template_id: '11111111-2222-4333-8444-555555555555' });
    assert.match(errorBody(badDefault, 400, 'invalid_request').message, /default_template_id/);
  });
});

describe('GET /v1/classifiers', () => {
  test('items [] and pagination_key null when there are none; pages by the last classifier_id', async () => {
    const s = await startTestService();
    try {
      const c = clientFor(s.url, s.keys[0]);
      assert.deepEqual(await c.listClassifiers(), { success: true, items: [], pagination_key: null });
      const ids: string[] = [];
      const cls = [{ label: 'a', description: 'A' }, { label: 'b', description: 'B' }];
      for (let i = 0; i < 52; i++) ids.push((await c.createClassifier({ name: `c${i}`, classes: cls })).classifier_id);
      const first = await c.listClassifiers();
      assert.equal(first.items.length, 50);
      assert.equal(first.pagination_key, ids[49]);
      const second = await c.listClassifiers({ pagination_key: first.pagination_key! });
      assert.deepEqual(second.items.map((x) => x.classifier_id), ids.slice(50));
      assert.equal(second.pagination_key, null);
      assert.deepEqual((await clientFor(s.url, s.keys[1]).listClassifiers()).items, [], 'other accounts see none');
      errorBody(await raw(`${s.url}/v1/classifiers?pagination_key=xyz`, { key: s.keys[0] }), 400, 'invalid_request');
    } finally {
      await s.close();
    }
  });
});

describe('GET /v1/classifiers/{id}', () => {
  test('returns the Classifier; 404 unknown, 400 not a UUID, 403 another account', async () => {
    const c = await client.createClassifier({ name: 'g', classes: classes() });
    assert.deepEqual(await client.getClassifier(c.classifier_id), c);
    errorBody(await raw(`${svc.url}/v1/classifiers/11111111-2222-4333-8444-555555555555`, { key: svc.keys[0] }), 404, 'not_found');
    errorBody(await raw(`${svc.url}/v1/classifiers/123`, { key: svc.keys[0] }), 400, 'invalid_request');
    errorBody(await raw(`${svc.url}/v1/classifiers/${c.classifier_id}`, { key: svc.keys[1] }), 403, 'forbidden');
  });
});

describe('PUT /v1/classifiers/{id}', () => {
  test('keeps omitted keys, replaces classes whole, refreshes updated_at', async () => {
    const c = await client.createClassifier({ name: 'Before', classes: classes(), min_confidence: 0.4, query_model: 'model-4o' });
    const newClasses = [
      { label: 'contract', description: 'A signed contract' },
      { label: 'letter', description: 'A letter', template_id: receiptTpl },
      { label: 'other', description: 'Anything else' },
    ];
    const u = await client.updateClassifier(c.classifier_id, { classes: newClasses });
    assert.deepEqual(u.configs.classes, newClasses);
    assert.equal(u.name, 'Before');
    assert.equal(u.configs.min_confidence, 0.4);
    assert.equal(u.configs.query_model, 'model-4o');
    assert.equal(u.created_at, c.created_at);
    assert.ok(u.updated_at > c.updated_at, `${u.updated_at} > ${c.updated_at}`);
    const v = await client.updateClassifier(c.classifier_id, { name: 'After', min_confidence: null, use_ocr: false });
    assert.equal(v.name, 'After');
    assert.equal(v.configs.min_confidence, null);
    assert.equal(v.configs.use_ocr, false);
    assert.deepEqual(v.configs.classes, newClasses);
    assert.ok(v.updated_at > u.updated_at);
    assert.deepEqual(await client.getClassifier(c.classifier_id), v);
  });

  test('applies the create rules to what is sent; 404 unknown, 403 another account', async () => {
    const c = await client.createClassifier({ name: 'p', classes: classes() });
    const put = (body: unknown, key = svc.keys[0], id = c.classifier_id) => raw(`${svc.url}/v1/classifiers/${id}`, { method: 'PUT', key, json: body });
    assert.match(errorBody(await put({ min_confidence: 2 }), 400, 'invalid_request').message, /min_confidence/);
    assert.match(errorBody(await put({ query_model: 'gpt' }), 400, 'invalid_request').message, /query_model/);
    assert.match(errorBody(await put({ classes: [{ label: 'only', description: 'one' }] }), 400, 'invalid_request').message, /at least 2/);
    assert.match(errorBody(await put({ default_template_id: '11111111-2222-4333-8444-555555555555' }), 400, 'invalid_request').message, /default_template_id/);
    errorBody(await put({}, svc.keys[0], '11111111-2222-4333-8444-555555555555'), 404, 'not_found');
    errorBody(await put({ name: 'stolen' }, svc.keys[1]), 403, 'forbidden');
    assert.equal((await client.getClassifier(c.classifier_id)).name, 'p', 'failed updates change nothing');
  });
});

describe('DELETE /v1/classifiers/{id} (extension)', () => {
  test('answers success; later GET gives 404; another account gets 403', async () => {
    const c = await client.createClassifier({ name: 'gone', classes: classes() });
    errorBody(await raw(`${svc.url}/v1/classifiers/${c.classifier_id}`, { method: 'DELETE', key: svc.keys[1] }), 403, 'forbidden');
    const res = await raw(`${svc.url}/v1/classifiers/${c.classifier_id}`, { method: 'DELETE', key: svc.keys[0] });
    assert.deepEqual(res.json, { success: true });
    errorBody(await raw(`${svc.url}/v1/classifiers/${c.classifier_id}`, { key: svc.keys[0] }), 404, 'not_found');
    errorBody(await raw(`${svc.url}/v1/classifiers/${c.classifier_id}`, { method: 'DELETE', key: svc.keys[0] }), 404, 'not_found');
  });
});
