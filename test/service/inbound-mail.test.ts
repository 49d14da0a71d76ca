// Spec row: Events 2 (inbound e-mail): mail to a Workflow's email_id becomes documents (source_name
// 'email') and runs; attachments parsed by default (parse_email_attachments), the body when
// parse_email_body is on; unknown recipients refused at RCPT TO; sent with nodemailer over real SMTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import nodemailer from 'nodemailer';
import { ServiceClient } from '../../src/api/client.js';
import type { Document, Workflow } from '../../src/api/types.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { invoicePdf, invoiceTemplate } from '../helpers/job-fixtures.js';

let svc: TestService;
let client: ServiceClient;
let attachments: Workflow;
let bodies: Workflow;
let invoice: Buffer;

const send = (to: string, mail: { text?: string; subject?: string; attachments?: { filename: string; content: Buffer | string }[] }) =>
  nodemailer
    .createTransport({ host: '127.0.0.1', port: svc.service.context.jobs.listeners.smtpPort!, secure: false, ignoreTLS: true })
    .sendMail({ from: 'supplier@example.test', to, subject: mail.subject ?? 'Invoice', ...mail });

async function emailDocuments(): Promise<Document[]> {
  const docs: Document[] = [];
  for await (const d of client.iterateDocuments()) if (d.source_name === 'email') docs.push(d);
  return docs;
}

before(async () => {
  svc = await startTestService({ smtpPort: 0 });
  client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false });
  attachments = await client.createTemplate(invoiceTemplate('Mailed invoices'));
  bodies = await client.createTemplate(invoiceTemplate('Mailed bodies', { parser_config: { parse_email_attachments: false, parse_email_body: true } }));
  invoice = await invoicePdf({ number: 'MAIL-42', total: '42.00', date: '2026-04-02' });
});
after(() => svc.close());

describe('inbound e-mail', () => {
  test('an accepted attachment becomes an email document and a completed run of the Workflow', async () => {
    await send(attachments.email_id, { attachments: [{ filename: 'mail-42.pdf', content: invoice }, { filename: 'notes.txt', content: 'not a document' }] });
    await svc.service.context.jobs.idle();
    const docs = await emailDocuments();
    assert.equal(docs.length, 1, 'the .txt attachment is skipped');
    const [doc] = docs;
    assert.equal(doc.file_name, 'mail-42.pdf');
    assert.equal(doc.parser_runs.length, 1);
    assert.equal(doc.parser_runs[0].template_id, attachments.template_id);
    const job = await client.getJob(doc.parser_runs[0].request_id);
    assert.equal(job.request_status, 'completed');
    assert.equal((job.response_body?.result_json_data as Record<string, unknown>).invoice_number, 'MAIL-42');
  });

  test('with parse_email_body the text body is rendered to a PDF and extracted; attachments are ignored when off', async () => {
    const before = (await emailDocuments()).length;
    await send(bodies.email_id, {
      subject: 'Invoice MAIL-7',
      text: 'Hello,\n\nInvoice Number: MAIL-7\nInvoice Date: 2026-05-06\nTotal Due: 7.25\n\nRegards',
      attachments: [{ filename: 'ignored.pdf', content: invoice }],
    });
    await svc.service.context.jobs.idle();
    const docs = await emailDocuments();
    assert.equal(docs.length, before + 1, 'only the body became a document');
    const doc = docs.find((d) => d.parser_runs.some((r) => r.template_id === bodies.template_id))!;
    assert.equal(doc.file_extension, 'pdf');
    const job = await client.getJob(doc.parser_runs[0].request_id);
    assert.equal(job.request_status, 'completed');
    const data = job.response_body?.result_json_data as Record<string, unknown>;
    assert.equal(data.invoice_number, 'MAIL-7');
    assert.equal(data.total_due, 7.25);
  });

  test('refuses unknown recipients at RCPT TO', async () => {
    await assert.rejects(send('nobody@docdrop.local', { attachments: [{ filename: 'x.pdf', content: invoice }] }), (e: Error & { responseCode?: number }) => e.responseCode === 550);
  });

  test('refuses a message that yields no document', async () => {
    await assert.rejects(send(attachments.email_id, { text: 'no attachment here' }), (e: Error & { responseCode?: number }) => e.responseCode === 550);
  });
});
