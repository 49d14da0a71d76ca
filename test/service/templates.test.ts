// Spec rows: POST/GET/PUT/DELETE /v1/templates and GET /v1/templates/{id}; Workflow rules 1-4,
// Field definition constraints, parser_config defaults, template_title uniqueness.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServiceClient } from '../../src/api/client.js';
import type { CreateTemplateRequest } from '../../src/api/types.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { clientFor, errorBody, raw, TIMESTAMP_RE, UUID_RE } from '../helpers/service-fixtures.js';

let svc: TestService;
let client: ServiceClient;
let n = 0;

before(async () => {
  svc = await startTestService();
  client = clientFor(svc.url, svc.keys[0]);
});
after(() => svc.close());

const minimal = (over: Partial<CreateTemplateRequest> = {}): CreateTemplateRequest => ({
  template_title: `Invoices ${++n}`,
  template_type: 'invoice',
  template_schema: { fields: [{ name: 'invoice_number', type: 'text' }] },
  ...over,
});

const post = (body: unknown, key = svc.keys[0]) => raw(`${svc.url}/v1/templates`, { method: 'POST', key, json: body });

describe('POST /v1/templates', () => {
  test('creates a Workflow from the three required fields, filling every parser_config default', async () => {
    const t = await client.createTemplate(minimal({ template_title: 'Supplier Invoices (EU)' }));
    assert.match(t.template_id, UUID_RE);
    assert.equal(t.template_title, 'Supplier Invoices (EU)');
    assert.equal(t.template_type, 'invoice');
    assert.equal(t.template_category, 'other');
    assert.equal(t.webhook_url, null);
    assert.match(t.created_at, TIMESTAMP_RE);
    assert.equal(t.email_id, `supplier-invoices-eu-${t.template_id.slice(0, 8)}@docdrop.local`);
    assert.deepEqual(t.template_schema, { fields: [{ name: 'invoice_number', type: 'text' }] });
    const pc = t.parser_config;
    assert.equal(pc.parse_email_attachments, true);
    assert.equal(pc.parse_email_body, false);
    assert.equal(pc.date_format, null);
    assert.equal(pc.outbound_integration, null);
    assert.deepEqual(
      { ...pc.ocr_config, engine: undefined },
      { engine: undefined, use_ocr: false, detect_layout: true, detect_tables: false, remove_headers: false, remove_footers: false, remove_tables: false },
    );
    assert.equal(typeof pc.ocr_config.engine, 'string');
    assert.equal(pc.query_config.use_all_matches, false);
    assert.equal(pc.query_config.query_model, 'model-4o-mini');
    for (const k of ['set_max_output_tokens', 'include_example', 'minimize_tokens'] as const) assert.equal(typeof pc.query_config[k], 'boolean');
    assert.ok('selected_language' in pc.query_config);
  });

  test('keeps webhook_url and a partial parser_config on top of the defaults', async () => {
    const t = await client.createTemplate(
      minimal({ webhook_url: 'https://hooks.example.com/x', parser_config: { date_format: '%Y-%m-%d', ocr_config: { detect_tables: true } } }),
    );
    assert.equal(t.webhook_url, 'https://hooks.example.com/x');
    assert.equal(t.parser_config.date_format, '%Y-%m-%d');
    assert.equal(t.parser_config.ocr_config.detect_tables, true);
    assert.equal(t.parser_config.ocr_config.detect_layout, true);
  });

  test('accepts table fields with text/number/date sub-fields, required flags and descriptions', async () => {
    const t = await client.createTemplate(
      minimal({
        template_schema: {
          fields: [
            { name: 'total', type: 'number', required: true, description: 'Grand total in EUR' },
            { name: 'issued', type: 'date', description: 'format YYYY-MM-DD' },
            { name: 'line_items', type: 'table', subFields: [{ name: 'desc', type: 'text' }, { name: 'qty', type: 'number' }, { name: 'on', type: 'date' }] },
            { name: 'a'.repeat(50), type: 'text', description: 'd'.repeat(150) },
          ],
        },
      }),
    );
    assert.equal(t.template_schema.fields.length, 4);
    assert.equal(t.template_schema.fields[2].subFields?.length, 3);
  });

  test('rejects field definitions that break the spec, naming the field and the rule', async () => {
    const field = (f: unknown) => minimal({ template_schema: { fields: [f as never] } });
    const cases: [unknown, RegExp][] = [
      [{ name: 'a'.repeat(51), type: 'text' }, /fields\[0\]\.name: expected at most 50 characters/],
      [{ name: 'Invoice Number', type: 'text' }, /fields\[0\]\.name: expected only lower-case letters, digits and underscore/],
      [{ name: 'x', type: 'text', description: 'd'.repeat(151) }, /fields\[0\]\.description: expected at most 150 characters/],
      [{ name: 'x', type: 'currency' }, /fields\[0\]\.type: expected 'text', 'number', 'date' or 'table'/],
      [{ name: 'items', type: 'table' }, /fields\[0\]\.subFields: expected at least one sub-field/],
      [{ name: 'items', type: 'table', subFields: [] }, /fields\[0\]\.subFields: expected at least one sub-field/],
      [{ name: 'items', type: 'table', subFields: [{ name: 'inner', type: 'table' }] }, /subFields\[0\]\.type: expected 'text', 'number' or 'date'/],
      [{ name: 'x', type: 'text', required: 'yes' }, /fields\[0\]\.required/],
    ];
    for (const [f, msg] of cases) {
      const res = await post(field(f));
      assert.match(errorBody(res, 400, 'invalid_request').message, msg, JSON.stringify(f));
    }
  });

  test('rejects missing required fields and wrong types with 400 naming them', async () => {
    const noTitle = await post({ template_type: 'invoice', template_schema: { fields: [] } });
    assert.match(errorBody(noTitle, 400, 'invalid_request').message, /template_title/);
    const noSchema = await post({ template_title: 'x', template_type: 'invoice' });
    assert.match(errorBody(noSchema, 400, 'invalid_request').message, /template_schema/);
    const wrongType = await post({ template_title: 42, template_type: 'invoice', template_schema: { fields: [] } });
    assert.match(errorBody(wrongType, 400, 'invalid_request').message, /template_title: expected a string/);
    const badHook = await post(minimal({ webhook_url: 'not a url' }));
    assert.match(errorBody(badHook, 400, 'invalid_request').message, /webhook_url/);
    const badConfig = await post(minimal({ parser_config: { ocr_config: { detect_table: true } as never } }));
    assert.match(errorBody(badConfig, 400, 'invalid_request').message, /detect_table/);
    const arrayBody = await post([1, 2]);
    assert.match(errorBody(arrayBody, 400, 'invalid_request').message, /expected a JSON object/);
  });

  test('rejects a template_title already used in the account with 400 duplicate_template_title', async () => {
    await client.createTemplate(minimal({ template_title: 'Receipts' }));
    const res = await post(minimal({ template_title: 'Receipts' }));
    assert.match(errorBody(res, 400, 'duplicate_template_title').message, /Receipts/);
    // another account may use the same title
    const other = await clientFor(svc.url, svc.keys[1]).createTemplate(minimal({ template_title: 'Receipts' }));
    assert.equal(other.template_title, 'Receipts');
  });
});

describe('GET /v1/templates', () => {
  test('pages 50 at most, with the last template_id as pagination_key and null at the end', async () => {
    const s = await startTestService();
    try {
      const c = clientFor(s.url, s.keys[0]);
      const empty = await c.listTemplates();
      assert.deepEqual(empty, { success: true, items: [], pagination_key: null });
      const ids: string[] = [];
      for (let i = 0; i < 53; i++) ids.push((await c.createTemplate(minimal())).template_id);
      const first = await c.listTemplates();
      assert.equal(first.success, true);
      assert.equal(first.items.length, 50);
      assert.equal(first.pagination_key, first.items[49].template_id);
      const second = await c.listTemplates({ pagination_key: first.pagination_key! });
      assert.equal(second.items.length, 3);
      assert.equal(second.pagination_key, null);
      const small = await c.listTemplates({ limit: 10 });
      assert.equal(small.items.length, 10);
      const seen: string[] = [];
      for await (const t of c.iterateTemplates()) seen.push(t.template_id);
      assert.deepEqual(seen, ids, 'creation order, each once');
      const tooMany = await raw(`${s.url}/v1/templates?limit=51`, { key: s.keys[0] });
      assert.match(errorBody(tooMany, 400, 'invalid_request').message, /limit/);
      const badKey = await raw(`${s.url}/v1/templates?pagination_key=nonsense`, { key: s.keys[0] });
      assert.match(errorBody(badKey, 400, 'invalid_request').message, /pagination_key/);
    } finally {
      await s.close();
    }
  });
});

describe('GET /v1/templates/{id}', () => {
  test('returns the Workflow; 404 unknown, 400 not a UUID, 403 another account', async () => {
    const t = await client.createTemplate(minimal());
    assert.deepEqual(await client.getTemplate(t.template_id), t);
    errorBody(await raw(`${svc.url}/v1/templates/11111111-2222-4333-8444-555555555555`, { key: svc.keys[0] }), 404, 'not_found');
    errorBody(await raw(`${svc.url}/v1/templates/not-a-uuid`, { key: svc.keys[0] }), 400, 'invalid_request');
    errorBody(await raw(`${svc.url}/v1/templates/${t.template_id}`, { key: svc.keys[1] }), 403, 'forbidden');
  });
});

describe('PUT /v1/templates/{id}', () => {
  test('changes only the keys sent; nested parser_config keys merge', async () => {
    const t = await client.createTemplate(minimal({ webhook_url: 'https://h.example.com/a', parser_config: { date_format: '%d.%m.%Y' } }));
    const u = await client.updateTemplate(t.template_id, { parser_config: { ocr_config: { detect_tables: true } } });
    assert.equal(u.parser_config.ocr_config.detect_tables, true);
    assert.deepEqual({ ...u.parser_config.ocr_config, detect_tables: false }, t.parser_config.ocr_config);
    assert.deepEqual(u.parser_config.query_config, t.parser_config.query_config);
    assert.equal(u.parser_config.date_format, '%d.%m.%Y');
    assert.equal(u.webhook_url, 'https://h.example.com/a');
    assert.deepEqual(u.template_schema, t.template_schema);
    assert.equal(u.template_title, t.template_title);
    assert.equal(u.email_id, t.email_id);
    assert.equal(u.created_at, t.created_at);

    const v = await client.updateTemplate(t.template_id, {
      template_type: 'receipt',
      template_schema: { fields: [{ name: 'total', type: 'number' }] },
      webhook_url: null,
      parser_config: { query_config: { page_ranges: '1-2' }, parse_email_body: true },
    });
    assert.equal(v.template_type, 'receipt');
    assert.deepEqual(v.template_schema.fields.map((f) => f.name), ['total']);
    assert.equal(v.webhook_url, null);
    assert.equal(v.parser_config.query_config.page_ranges, '1-2');
    assert.equal(v.parser_config.query_config.query_model, 'model-4o-mini');
    assert.equal(v.parser_config.parse_email_body, true);
    assert.equal(v.parser_config.ocr_config.detect_tables, true, 'earlier update kept');
    assert.deepEqual(await client.getTemplate(t.template_id), v);
  });

  test('rejects template_title, invalid fields and bad JSON with 400', async () => {
    const t = await client.createTemplate(minimal());
    const put = (body: unknown) => raw(`${svc.url}/v1/templates/${t.template_id}`, { method: 'PUT', key: svc.keys[0], json: body });
    assert.match(errorBody(await put({ template_title: 'New name' }), 400, 'invalid_request').message, /template_title/);
    assert.match(errorBody(await put({ template_schema: { fields: [{ name: 'Bad Name', type: 'text' }] } }), 400, 'invalid_request').message, /name/);
    assert.match(errorBody(await put({ parser_config: { query_config: { page_ranges: '3-1' } } }), 400, 'invalid_request').message, /page_ranges/);
    const badJson = await raw(`${svc.url}/v1/templates/${t.template_id}`, { method: 'PUT', key: svc.keys[0], body: '{"template_type":', headers: { 'content-type': 'application/json' } });
    errorBody(badJson, 400, 'invalid_json');
    errorBody(await raw(`${svc.url}/v1/templates/11111111-2222-4333-8444-555555555555`, { method: 'PUT', key: svc.keys[0], json: {} }), 404, 'not_found');
    errorBody(await raw(`${svc.url}/v1/templates/${t.template_id}`, { method: 'PUT', key: svc.keys[1], json: {} }), 403, 'forbidden');
  });
});

describe('DELETE /v1/templates/{id}', () => {
  test('answers success, then GET, PUT and DELETE give 404 and the title is free again', async () => {
    const t = await client.createTemplate(minimal({ template_title: 'Short-lived' }));
    errorBody(await raw(`${svc.url}/v1/templates/${t.template_id}`, { method: 'DELETE', key: svc.keys[1] }), 403, 'forbidden');
    assert.deepEqual(await client.deleteTemplate(t.template_id), { success: true });
    errorBody(await raw(`${svc.url}/v1/templates/${t.template_id}`, { key: svc.keys[0] }), 404, 'not_found');
    errorBody(await raw(`${svc.url}/v1/templates/${t.template_id}`, { method: 'PUT', key: svc.keys[0], json: {} }), 404, 'not_found');
    errorBody(await raw(`${svc.url}/v1/templates/${t.template_id}`, { method: 'DELETE', key: svc.keys[0] }), 404, 'not_found');
    errorBody(await raw(`${svc.url}/v1/templates/bad-id`, { method: 'DELETE', key: svc.keys[0] }), 400, 'invalid_request');
    const again = await client.createTemplate(minimal({ template_title: 'Short-lived' }));
    assert.notEqual(again.template_id, t.template_id);
    const listed = [];
    for await (const w of client.iterateTemplates()) listed.push(w.template_id);
    assert.ok(!listed.includes(t.template_id));
  });
});
