// Spec rows: States > Extraction job (none -> pending; pending/processing -> completed, -> failed,
// -> exception; any -> removed by DELETE /files then 404), the envelope rule, response_body fields,
// parser_runs history, file_presigned_url of the selected pages, credits, Accept: application/xml.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { ServiceClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/api-error.js';
import { jobOutcome } from '../../src/api/job-status.js';
import { request } from 'undici';
import type { DocumentEngine } from '../../src/engine/types.js';
import { createDocumentEngine } from '../../src/engine/index.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { invoicePdf, invoiceTemplate, writeFixture } from '../helpers/job-fixtures.js';

let svc: TestService;
let client: ServiceClient;
let docId: string;
let templateId: string;

const idle = () => svc.service.context.jobs.idle();

before(async () => {
  svc = await startTestService();
  client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false });
  const pdf = await writeFixture(svc.dataDir, 'invoice.pdf', await invoicePdf({ number: 'INV-1001', total: '1,234.50', date: '2026-11-01', extraPages: 2 }));
  docId = (await client.uploadDocument(pdf)).document_id;
  templateId = (await client.createTemplate(invoiceTemplate('Invoices'))).template_id;
});
after(() => svc.close());

describe('run_parser jobs', () => {
  test('returns a pending job at once with a new request_id and null result_json_data', async () => {
    const a = await client.runParser(docId, { template_id: templateId });
    const b = await client.runParser(docId, { template_id: templateId });
    assert.equal(a.request_status, 'pending');
    assert.notEqual(a.request_id, b.request_id);
    assert.equal(a.response_body?.result_json_data, null);
    assert.equal(a.response_body?.file_presigned_url, null);
    assert.equal(a.response_body?.human_verification_status, 'pending');
    assert.equal(a.results, undefined);
    assert.equal(a.classification, null);
    assert.equal(a.classify_credits, 0);
    await idle();
  });

  test('completes with result_json_data, the Workflow fields, credits per page read and a selected-pages file', async () => {
    const job = await client.runParser(docId, { template_id: templateId, page_ranges: '1-2' });
    await idle();
    const done = await client.getJob(job.request_id);
    assert.equal(done.request_status, 'completed');
    const body = done.response_body!;
    assert.deepEqual({ ...body.result_json_data, line_items: undefined }, { invoice_number: 'INV-1001', invoice_date: '2026-11-01', total_due: 1234.5, line_items: undefined });
    assert.equal(body.template_id, templateId);
    assert.equal(body.template_title, 'Invoices');
    assert.equal(body.template_type, 'invoice');
    assert.equal(body.file_name, 'invoice.pdf');
    assert.equal(body.num_pages, 3);
    assert.equal(body.has_missing_required_fields, false);
    assert.equal(body.user_error_msg, null);
    assert.equal(done.credits_used, 2, 'one credit per page read (page_ranges 1-2)');
    assert.equal(done.total_credits, 2);
    assert.ok(body.file_presigned_url);
    const dest = join(svc.dataDir, 'selected.pdf');
    await client.download(body.file_presigned_url, dest);
    const selected = await PDFDocument.load(await readFile(dest));
    assert.equal(selected.getPageCount(), 2, 'the parsed file holds only the selected pages');
  });

  test('without page_ranges the parsed file is the whole document, byte for byte', async () => {
    const job = await client.runParser(docId, { template_id: templateId });
    await idle();
    const url = (await client.getJob(job.request_id)).response_body?.file_presigned_url;
    assert.ok(url);
    const dest = join(svc.dataDir, 'whole.pdf');
    await client.download(url, dest);
    const original = await readFile(join(svc.dataDir, 'invoice.pdf'));
    assert.deepEqual(await readFile(dest), original);
  });

  test('records each run in the document parser_runs with the merged options', async () => {
    const job = await client.runParser(docId, { template_id: templateId, page_ranges: '2', use_ocr: false });
    const doc = await client.getDocument(docId);
    const run = doc.parser_runs.find((r) => r.request_id === job.request_id);
    assert.ok(run, 'run recorded as soon as it is accepted');
    assert.equal(run.template_id, templateId);
    assert.equal(run.template_title, 'Invoices');
    assert.equal(run.params.page_ranges, '2');
    assert.equal(run.params.use_ocr, false);
    assert.equal(run.params.detect_layout, true, "omitted options fall back to the Workflow's parser_config");
    await idle();
  });

  test('flags has_missing_required_fields when a required field is not found', async () => {
    const t = await client.createTemplate({
      template_title: 'With a missing field',
      template_type: 'invoice',
      template_schema: { fields: [{ name: 'invoice_number', type: 'text', required: true }, { name: 'vat_registration_code', description: 'VAT registration code', type: 'text', required: true }] },
    });
    const job = await client.runParser(docId, { template_id: t.template_id });
    await idle();
    const done = await client.getJob(job.request_id);
    assert.equal(done.request_status, 'completed');
    assert.equal(done.response_body?.has_missing_required_fields, true);
  });

  test('ends failed with user_error_msg when the document cannot be processed (page_ranges past the end)', async () => {
    const job = await client.runParser(docId, { template_id: templateId, page_ranges: '7-9' });
    await idle();
    const done = await client.getJob(job.request_id);
    assert.equal(done.request_status, 'failed');
    assert.match(done.response_body?.user_error_msg ?? '', /selects no page/);
    assert.equal(done.response_body?.result_json_data, null);
    assert.equal(done.response_body?.file_presigned_url, null);
    assert.equal(done.credits_used, 0);
  });

  test('answers application/xml when the Accept header asks for it', async () => {
    const xml = await client.runParser(docId, { template_id: templateId }, { accept: 'xml' });
    assert.match(xml, /^<\?xml/);
    assert.match(xml, /<request_status>pending<\/request_status>/);
    assert.match(xml, /<result_json_data nil="true"\/>/);
    await idle();
  });
});

describe('POST /v1/extract jobs', () => {
  test('carry results.num_pages and results.data, whichever endpoint polls them', async () => {
    const { request_id } = await client.extract({ document_id: docId }, { template_id: templateId });
    const pending = await client.getExtractJob(request_id);
    assert.ok(pending.request_status === 'pending' || pending.request_status === 'processing');
    assert.equal(pending.results?.data, null);
    await idle();
    const viaExtract = await client.getExtractJob(request_id);
    const viaFiles = await client.getJob(request_id);
    assert.deepEqual(viaExtract, viaFiles);
    assert.equal(viaFiles.request_status, 'completed');
    assert.equal(viaFiles.response_body, undefined);
    assert.equal(viaFiles.results?.num_pages, 3);
    assert.equal((viaFiles.results?.data as Record<string, unknown>).invoice_number, 'INV-1001');
    assert.equal(viaFiles.credits_used, 3);
  });

  test('carry the failure message in results.user_error_msg when the job fails', async () => {
    const res = await request(`${svc.url}/v1/extract`, {
      method: 'POST',
      headers: { 'x-api-key': svc.keys[0], 'content-type': 'application/json' },
      body: JSON.stringify({ document_id: docId, template_id: templateId, page_ranges: '7-9' }),
    });
    assert.equal(res.statusCode, 200);
    const { request_id } = (await res.body.json()) as { request_id: string };
    await idle();
    const done = await client.getExtractJob(request_id);
    assert.equal(done.request_status, 'failed');
    assert.equal(done.results?.data, null);
    assert.match(done.results?.user_error_msg ?? '', /selects no page/);
    assert.match(jobOutcome(done).errorMessage ?? '', /selects no page/);
  });
});

describe('DELETE /files', () => {
  test('removes the job; a later GET /files and GET /v1/extract give 404', async () => {
    const job = await client.runParser(docId, { template_id: templateId });
    await idle();
    const res = await client.deleteJob(job.request_id);
    assert.equal(res.success, true);
    assert.equal(typeof res.message, 'string');
    for (const get of [() => client.getJob(job.request_id), () => client.getExtractJob(job.request_id), () => client.deleteJob(job.request_id)]) {
      await assert.rejects(get(), (e: unknown) => e instanceof ApiError && e.status === 404 && e.code === 'not_found');
    }
  });
});

describe('exception', () => {
  test('an AI/engine error that is not a DocumentError ends the job in exception with user_error_msg', async () => {
    // Stands in for a hosted LLM failing (the one party we cannot run here); reading stays real.
    const real = createDocumentEngine();
    const engine: DocumentEngine = {
      extract: async () => {
        throw new Error('LLM endpoint answered HTTP 503');
      },
      classify: (r) => real.classify(r),
      close: () => real.close(),
    };
    const s = await startTestService({ engine });
    try {
      const c = new ServiceClient({ baseUrl: s.url, apiKey: s.keys[0], retry: false });
      const pdf = await writeFixture(s.dataDir, 'i.pdf', await invoicePdf({ number: 'X-1', total: '5.00', date: '2026-01-02' }));
      const d = await c.uploadDocument(pdf);
      const t = await c.createTemplate(invoiceTemplate('T'));
      const job = await c.runParser(d.document_id, { template_id: t.template_id });
      await s.service.context.jobs.idle();
      const done = await c.getJob(job.request_id);
      assert.equal(done.request_status, 'exception');
      assert.match(done.response_body?.user_error_msg ?? '', /LLM endpoint answered HTTP 503/);
      assert.equal(done.credits_used, 0);
    } finally {
      await s.close();
    }
  });
});
