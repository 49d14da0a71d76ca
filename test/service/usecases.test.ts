// The application layer (src/service/usecases) is one path for every way in: a file mailed to a
// Workflow and the same file uploaded and run through the API end the same, and a caller holding only
// a usecase's narrow deps (as a tool-protocol server would) submits a run the API then reports.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import nodemailer from 'nodemailer';
import { ServiceClient } from '../../src/api/client.js';
import type { Document, Workflow } from '../../src/api/types.js';
import { storeDocument } from '../../src/service/usecases/documents.js';
import { requireTemplate } from '../../src/service/usecases/owned-rows.js';
import { submitRun } from '../../src/service/usecases/submit-run.js';
import { accountIdForKey } from '../../src/service/accounts.js';
import { invoicePdf, invoiceTemplate, writeFixture } from '../helpers/job-fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
let client: ServiceClient;
let workflow: Workflow;
let invoice: Buffer;

before(async () => {
  svc = await startTestService({ smtpPort: 0 });
  client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false });
  workflow = await client.createTemplate(invoiceTemplate('One path', { parser_config: { date_format: 'DD/MM/YYYY' } }));
  invoice = await invoicePdf({ number: 'UC-1', total: '12.50', date: '2026-03-04' });
});
after(() => svc.close());

/** What must not depend on the way in: the stored document, its parser_run and the job's outcome. */
async function outcome(doc: Document) {
  const [run] = doc.parser_runs;
  const job = await client.getJob(run.request_id);
  return {
    document: { file_name: doc.file_name, file_extension: doc.file_extension, num_pages: doc.num_pages, runs: doc.parser_runs.length },
    run: { template_id: run.template_id, template_title: run.template_title, params: run.params },
    job: { status: job.request_status, data: job.response_body?.result_json_data, credits: job.credits_used },
  };
}

test('a mailed attachment and the same file uploaded and run with run_parser end as the same document, parser_run and job', async () => {
  const ctx = svc.service.context;
  await nodemailer
    .createTransport({ host: '127.0.0.1', port: ctx.jobs.listeners.smtpPort!, secure: false, ignoreTLS: true })
    .sendMail({ from: 'supplier@example.test', to: workflow.email_id, subject: 'Invoice', attachments: [{ filename: 'uc-1.pdf', content: invoice }] });
  const uploaded = await client.uploadDocument(await writeFixture(svc.dataDir, 'uc-1.pdf', invoice));
  await client.runParser(uploaded.document_id, { template_id: workflow.template_id });
  await ctx.jobs.idle();

  const docs: Document[] = [];
  for await (const d of client.iterateDocuments()) docs.push(d);
  const mailed = docs.find((d) => d.source_name === 'email')!;
  const viaApi = docs.find((d) => d.document_id === uploaded.document_id)!;
  assert.equal(viaApi.source_name, 'api');
  const [a, b] = [await outcome(mailed), await outcome(viaApi)];
  assert.equal(a.job.status, 'completed');
  assert.equal((a.job.data as Record<string, unknown>).invoice_number, 'UC-1');
  assert.deepEqual(a, b);
});

test('storeDocument and submitRun, given only their deps, record a run that GET /files reports like any other', async () => {
  const ctx = svc.service.context;
  const account = { id: accountIdForKey(svc.keys[0]) };
  const { documents, templates } = ctx.repos;
  const doc = await storeDocument({ documents, files: ctx.files }, { accountId: account.id, sourceName: 'api', fileName: 'tool.pdf', source: Readable.from([invoice]) });
  const template = await requireTemplate({ templates }, account, workflow.template_id);
  const job = await submitRun(
    { jobStore: ctx.jobs.store, jobQueue: ctx.jobs },
    { account, documentId: doc.document_id, via: 'run_parser', target: { template, classifierId: null }, params: {} },
  );
  await ctx.jobs.idle();
  const seen = await client.getJob(job.request_id);
  assert.equal(seen.request_status, 'completed');
  assert.equal((seen.response_body?.result_json_data as Record<string, unknown>).invoice_number, 'UC-1');
  const stored = await client.getDocument(doc.document_id);
  assert.deepEqual(
    stored.parser_runs.map((r) => r.request_id),
    [job.request_id],
  );
});
