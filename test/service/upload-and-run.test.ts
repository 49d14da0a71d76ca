// docdrop extension POST /files/upload/{template_id}: POST /v1/documents (multipart) and run_parser in one
// request, with their limits, errors and credits (the hosted service's integrations call it).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { ApiError } from '../../src/api/api-error.js';
import type { ServiceClient } from '../../src/api/client.js';
import { startTestService, type TestService } from '../helpers/service.js';
import type { FormData } from 'undici';
import { invoicePdf, invoiceTemplate } from '../helpers/job-fixtures.js';
import { clientFor, errorBody, fileForm, pagesPdf, raw, tempFiles, UUID_RE, type TempFiles } from '../helpers/service-fixtures.js';

let svc: TestService;
let files: TempFiles;
let a: ServiceClient;
let b: ServiceClient;
let invoice: Buffer;
let invoicePath: string;
let templateId: string;
let otherTemplateId: string;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const idle = () => svc.service.context.jobs.idle();
const documentCount = async (client: ServiceClient) => (await client.listDocuments({ limit: 1000 })).files.length;
const upload = (template: string, body: FormData | string, opts: { query?: string; key?: string | null; headers?: Record<string, string> } = {}) =>
  raw(`${svc.url}/files/upload/${template}${opts.query ? `?${opts.query}` : ''}`, {
    method: 'POST',
    key: opts.key === null ? undefined : (opts.key ?? svc.keys[0]),
    body,
    headers: opts.headers,
  });

before(async () => {
  svc = await startTestService();
  files = await tempFiles();
  a = clientFor(svc.url, svc.keys[0]);
  b = clientFor(svc.url, svc.keys[1]);
  invoice = await invoicePdf({ number: 'UP-7', total: '99.00', date: '2026-10-05', extraPages: 2 });
  invoicePath = await files.write('upload-invoice.pdf', invoice);
  templateId = (await a.createTemplate(invoiceTemplate('Invoices'))).template_id;
  otherTemplateId = (await b.createTemplate(invoiceTemplate('Not yours'))).template_id;
});
after(async () => {
  await svc.close();
  await files.cleanup();
});

describe('POST /files/upload/{template_id}', () => {
  test('answers at once a pending run_parser job with request_id and the stored document_id', async () => {
    const job = await a.uploadAndRun(templateId, invoicePath);
    assert.match(job.request_id, UUID_RE);
    assert.match(job.document_id, UUID_RE);
    assert.equal(job.request_status, 'pending');
    assert.equal(job.response_body?.result_json_data, null);
    assert.equal(job.response_body?.template_id, templateId);
    assert.equal(job.results, undefined, 'run_parser envelope, not POST /v1/extract');
    const doc = await a.getDocument(job.document_id);
    assert.equal(doc.file_name, 'upload-invoice.pdf');
    assert.equal(doc.num_pages, 3);
    assert.equal(doc.source_name, 'api');
    assert.deepEqual(doc.parser_runs.map((r) => [r.request_id, r.template_id]), [[job.request_id, templateId]]);
    await idle();
  });

  test("completes with the Workflow's fields and the same credits as upload then run_parser", async () => {
    const job = await a.uploadAndRun(templateId, invoicePath, { params: { page_ranges: '1-2' } });
    const doc = await a.uploadDocument(invoicePath);
    const twoCalls = await a.runParser(doc.document_id, { template_id: templateId, page_ranges: '1-2' });
    await idle();
    const done = await a.getJob(job.request_id);
    assert.equal(done.request_status, 'completed');
    const body = done.response_body!;
    assert.equal(body.result_json_data?.invoice_number, 'UP-7');
    assert.equal(body.result_json_data?.invoice_date, '2026-10-05');
    assert.equal(body.result_json_data?.total_due, 99);
    assert.equal(body.template_title, 'Invoices');
    assert.equal(body.template_type, 'invoice');
    assert.equal(body.file_name, 'upload-invoice.pdf');
    assert.equal(done.credits_used, 2, 'one credit per page read (page_ranges 1-2 from the query)');
    const reference = await a.getJob(twoCalls.request_id);
    assert.deepEqual(
      [done.credits_used, done.classify_credits, done.total_credits, body.result_json_data],
      [reference.credits_used, reference.classify_credits, reference.total_credits, reference.response_body?.result_json_data],
    );
    // The file's pre-signed URL is signed anew on each read (its expiry moves with the clock): compared without its signature.
    const unsigned = (j: typeof done) => ({ ...j, response_body: { ...j.response_body, file_presigned_url: j.response_body?.file_presigned_url?.split('?')[0] } });
    assert.deepEqual(unsigned(await a.getExtractJob(job.request_id)), unsigned(done), 'GET /v1/extract answers the same job');
  });

  test('401 without x-api-key or with a wrong key, storing nothing', async () => {
    const before = await documentCount(a);
    errorBody(await upload(templateId, fileForm(invoice, 'nokey.pdf'), { key: null }), 401, 'unauthorized');
    errorBody(await upload(templateId, fileForm(invoice, 'badkey.pdf'), { key: 'wrong-key' }), 401, 'unauthorized');
    assert.equal(await documentCount(a), before);
  });

  test("403 for another account's Workflow, 404 for an unknown or deleted one, 400 for an id that is not a UUID; nothing stored", async () => {
    const [beforeA, beforeB] = [await documentCount(a), await documentCount(b)];
    assert.match(errorBody(await upload(otherTemplateId, fileForm(invoice, 'x.pdf')), 403, 'forbidden').message, /Workflow/);
    assert.match(errorBody(await upload(UNKNOWN, fileForm(invoice, 'x.pdf')), 404, 'not_found').message, /Workflow/);
    const deleted = await a.createTemplate(invoiceTemplate('Deleted soon'));
    await a.deleteTemplate(deleted.template_id);
    errorBody(await upload(deleted.template_id, fileForm(invoice, 'x.pdf')), 404, 'not_found');
    assert.match(errorBody(await upload('not-a-uuid', fileForm(invoice, 'x.pdf')), 400, 'invalid_request').message, /template_id/);
    assert.deepEqual([await documentCount(a), await documentCount(b)], [beforeA, beforeB]);
    await assert.rejects(a.uploadAndRun(UNKNOWN, invoicePath), (err: unknown) => err instanceof ApiError && err.status === 404);
  });

  test('rejects a file over the 6 MB multipart limit with 400 file_too_large, as POST /v1/documents does', async () => {
    const before = await documentCount(a);
    const bigPath = await files.write('big.pdf', Buffer.concat([await pagesPdf(1), Buffer.alloc(7 * 1024 * 1024, 0x20)]));
    await assert.rejects(a.uploadAndRun(templateId, bigPath), (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.status, 400);
      assert.equal(err.code, 'file_too_large');
      assert.match(err.message, /6 MB/);
      return true;
    });
    assert.equal(await documentCount(a), before);
    // The Workflow is checked before the body is read: an oversize upload to an unknown one gets the 404.
    errorBody(await upload(UNKNOWN, fileForm(await readFile(bigPath), 'big.pdf')), 404, 'not_found');
  });

  test('rejects unsupported, empty and malformed uploads with the errors of POST /v1/documents', async () => {
    const before = await documentCount(a);
    assert.match(errorBody(await upload(templateId, fileForm(Buffer.from('plain text'), 'notes.pdf')), 400, 'unsupported_file_type').message, /PDF, JPEG, PNG or TIFF/);
    assert.match(errorBody(await upload(templateId, fileForm(Buffer.alloc(0), 'empty.pdf')), 400, 'unsupported_file_type').message, /empty file/);
    assert.match(errorBody(await upload(templateId, fileForm(invoice, 'a.pdf', 'document')), 400, 'invalid_request').message, /`file`/);
    const two = fileForm(invoice, 'one.pdf');
    two.append('file', new Blob([invoice]), 'two.pdf');
    assert.match(errorBody(await upload(templateId, two), 400, 'invalid_request').message, /exactly one file part/);
    const json = await upload(templateId, JSON.stringify({ file: 'x' }), { headers: { 'content-type': 'application/json' } });
    assert.match(errorBody(json, 400, 'invalid_request').message, /multipart\/form-data/);
    assert.equal(await documentCount(a), before);
  });

  test('checks the run options as run_parser does before storing anything', async () => {
    const before = await documentCount(a);
    assert.match(errorBody(await upload(templateId, fileForm(invoice, 'x.pdf'), { query: 'detect_tables=true' }), 400, 'use_ocr_required').message, /detect_tables/);
    assert.match(errorBody(await upload(templateId, fileForm(invoice, 'x.pdf'), { query: 'page_ranges=3-1' }), 400, 'invalid_request').message, /page_ranges/);
    assert.match(errorBody(await upload(templateId, fileForm(invoice, 'x.pdf'), { query: `classifier_id=${UNKNOWN}` }), 400, 'invalid_request').message, /POST \/v1\/extract/);
    assert.equal(await documentCount(a), before);
  });
});
