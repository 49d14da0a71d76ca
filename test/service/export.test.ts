// Spec rows: Export (single mode -> success + file_presigned_url; range mode by template_id + date_range
// -> success, link e-mailed to the account; csv/xlsx; flat/line_items with merge_field; include_filename;
// include_request_id; single_sheet/multi_sheet), Events 3 (range export e-mails its link; logged
// when no SMTP is set), export errors (400/401/403/404 with the common error body). Files read back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/api-error.js';
import { createLogger } from '../../src/shared/logger.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { invoicePdf, invoiceTemplate, writeFixture } from '../helpers/job-fixtures.js';

let svc: TestService;
let a: ServiceClient;
let b: ServiceClient;
let templateId: string;
const requestIds: string[] = [];
let smtp: SMTPServer;
const mails: { to: string; text: string; subject: string }[] = [];
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const rejects = (p: Promise<unknown>, status: number, code: string, message?: RegExp) =>
  assert.rejects(p, (e: unknown) => e instanceof ApiError && e.status === status && e.code === code && (!message || message.test(e.detail)));

async function download(url: string, name: string): Promise<string> {
  const dest = join(svc.dataDir, name);
  await a.download(url, dest);
  return dest;
}

async function sheets(path: string) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb.worksheets.map((ws) => {
    const rows: unknown[][] = [];
    ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return { name: ws.name, rows };
  });
}

before(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      simpleParser(stream).then((m) => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text: m.text ?? '', subject: m.subject ?? '' });
        cb();
      }, cb);
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  svc = await startTestService({ mailSmtp: { host: '127.0.0.1', port: smtpPort, from: 'exports@docdrop.test' }, accountEmail: 'owner@example.test' });
  a = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false });
  b = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[1], retry: false });
  templateId = (await a.createTemplate(invoiceTemplate('Export invoices'))).template_id;
  const fixtures = [
    { number: 'EX-1', total: '30.00', date: '2026-11-01', items: [{ description: 'Bolts', amount: '10.00' }, { description: 'Nuts', amount: '20.00' }] },
    { number: 'EX-2', total: '5.50', date: '2026-11-02', items: [{ description: 'Washers', amount: '5.50' }] },
  ];
  for (const [i, f] of fixtures.entries()) {
    const pdf = await writeFixture(svc.dataDir, `export-${i + 1}.pdf`, await invoicePdf(f));
    const doc = (await a.uploadDocument(pdf)).document_id;
    requestIds.push((await a.runParser(doc, { template_id: templateId })).request_id);
  }
  await svc.service.context.jobs.idle();
});
after(async () => {
  await svc.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

describe('single mode (request_id)', () => {
  test('CSV, flat, with file name and request id columns', async () => {
    const r = await a.exportSingle({ request_id: requestIds[0], file_format: 'csv', data_layout: 'flat', include_filename: true, include_request_id: true });
    assert.equal(r.success, true);
    const csv = (await readFile(await download(r.file_presigned_url, 'single.csv'), 'utf8')).trim().split('\r\n');
    assert.equal(csv[0], 'file_name,request_id,invoice_number,invoice_date,total_due,line_items');
    assert.equal(csv.length, 2);
    assert.ok(csv[1].startsWith(`export-1.pdf,${requestIds[0]},EX-1,2026-11-01,30,`), csv[1]);
  });

  test('XLSX, line_items on the table field: one row per line item', async () => {
    const r = await a.exportSingle({ request_id: requestIds[0], file_format: 'xlsx', data_layout: 'line_items', merge_field: 'line_items' });
    const [sheet] = await sheets(await download(r.file_presigned_url, 'single.xlsx'));
    assert.deepEqual(sheet.rows[0], ['invoice_number', 'invoice_date', 'total_due', 'line_items.description', 'line_items.amount']);
    assert.equal(sheet.rows.length, 3);
    assert.deepEqual([sheet.rows[1][0], sheet.rows[1][3], sheet.rows[1][4]], ['EX-1', 'Bolts', 10]);
    assert.deepEqual([sheet.rows[2][3], sheet.rows[2][4]], ['Nuts', 20]);
  });

  test('without include flags there are no file_name/request_id columns', async () => {
    const r = await a.exportSingle({ request_id: requestIds[1], file_format: 'csv', data_layout: 'flat', include_filename: false, include_request_id: false });
    const header = (await readFile(await download(r.file_presigned_url, 'plain.csv'), 'utf8')).split('\r\n')[0];
    assert.equal(header, 'invoice_number,invoice_date,total_due,line_items');
  });
});

describe('range mode (template_id + date_range)', () => {
  test("XLSX multi_sheet: link e-mailed to the account's address, one sheet per result", async () => {
    const before = mails.length;
    const r = await a.exportRange({ template_id: templateId, date_range: 'today', file_format: 'xlsx', data_layout: 'flat', excel_format: 'multi_sheet', include_request_id: true });
    assert.deepEqual(r, { success: true });
    assert.equal(mails.length, before + 1);
    const mail = mails.at(-1)!;
    assert.equal(mail.to, 'owner@example.test');
    const link = /(http:\/\/\S+\/presigned\/files\/\S+)/.exec(mail.text)?.[1];
    assert.ok(link, mail.text);
    const book = await sheets(await download(link, 'range.xlsx'));
    assert.deepEqual(book.map((s) => s.name), ['export-1.pdf', 'export-2.pdf']);
    assert.equal(book[1].rows[1][0], requestIds[1]);
  });

  test('CSV single sheet over 7 days holds every completed result of the Workflow', async () => {
    await a.exportRange({ template_id: templateId, date_range: '7_days', file_format: 'csv', data_layout: 'line_items', merge_field: 'line_items', include_filename: true });
    const link = /(http:\/\/\S+)/.exec(mails.at(-1)!.text)![1];
    const lines = (await readFile(await download(link, 'range.csv'), 'utf8')).trim().split('\r\n');
    assert.equal(lines.length, 1 + 3, 'header + 2 + 1 line items');
    assert.deepEqual(lines.slice(1).map((l) => l.split(',')[0]), ['export-1.pdf', 'export-1.pdf', 'export-2.pdf']);
  });

  test('without SMTP settings the link is written to the log instead', async () => {
    const log = new PassThrough();
    let text = '';
    log.on('data', (c: Buffer) => (text += c.toString()));
    const s = await startTestService({ logger: createLogger({ destination: log, level: 'info' }) });
    try {
      const c = new ServiceClient({ baseUrl: s.url, apiKey: s.keys[0], retry: false });
      const t = await c.createTemplate(invoiceTemplate('Logged'));
      assert.deepEqual(await c.exportRange({ template_id: t.template_id, date_range: '30_days', file_format: 'csv', data_layout: 'flat' }), { success: true });
      await new Promise((r) => setTimeout(r, 50));
      assert.match(text, /export link NOT e-mailed/);
      assert.match(text, /presigned\/files\/exports\//);
    } finally {
      await s.close();
    }
  });
});

describe('export errors', () => {
  test('400 when file_format or data_layout is missing or invalid', async () => {
    await rejects(a.exportSingle({ request_id: requestIds[0], data_layout: 'flat' } as never), 400, 'invalid_request', /file_format/);
    await rejects(a.exportSingle({ request_id: requestIds[0], file_format: 'pdf' as never, data_layout: 'flat' }), 400, 'invalid_request', /file_format/);
    await rejects(a.exportSingle({ request_id: requestIds[0], file_format: 'csv', data_layout: 'wide' as never }), 400, 'invalid_request', /data_layout/);
  });
  test('400 for line_items without merge_field, or with a merge_field that is not a table field of the Workflow', async () => {
    await rejects(a.exportSingle({ request_id: requestIds[0], file_format: 'csv', data_layout: 'line_items' }), 400, 'invalid_request', /merge_field/);
    await rejects(a.exportSingle({ request_id: requestIds[0], file_format: 'csv', data_layout: 'line_items', merge_field: 'invoice_number' }), 400, 'invalid_request', /not a table field/);
    await rejects(a.exportRange({ template_id: templateId, date_range: 'today', file_format: 'csv', data_layout: 'line_items', merge_field: 'nope' }), 400, 'invalid_request', /not a field/);
  });
  test('400 without a mode, with both modes, or with a bad date_range', async () => {
    await rejects(a.exportSingle({ file_format: 'csv', data_layout: 'flat' } as never), 400, 'invalid_request', /request_id/);
    await rejects(a.exportRange({ template_id: templateId, request_id: requestIds[0], date_range: 'today', file_format: 'csv', data_layout: 'flat' } as never), 400, 'invalid_request');
    await rejects(a.exportRange({ template_id: templateId, date_range: 'yesterday' as never, file_format: 'csv', data_layout: 'flat' }), 400, 'invalid_request', /date_range/);
  });
  test('400 for a job that has not completed', async () => {
    const failed = (await a.runParser(await docOf(requestIds[0]), { template_id: templateId, page_ranges: '9' })).request_id;
    await svc.service.context.jobs.idle();
    await rejects(a.exportSingle({ request_id: failed, file_format: 'csv', data_layout: 'flat' }), 400, 'invalid_request', /failed/);
  });
  test('401 without a key, 403 for another account, 404 for unknown ids', async () => {
    const anon = new ServiceClient({ baseUrl: svc.url, apiKey: 'not-a-key', retry: false });
    await rejects(anon.exportSingle({ request_id: requestIds[0], file_format: 'csv', data_layout: 'flat' }), 401, 'unauthorized');
    await rejects(b.exportSingle({ request_id: requestIds[0], file_format: 'csv', data_layout: 'flat' }), 403, 'forbidden');
    await rejects(b.exportRange({ template_id: templateId, date_range: 'today', file_format: 'csv', data_layout: 'flat' }), 403, 'forbidden');
    await rejects(a.exportSingle({ request_id: UNKNOWN, file_format: 'csv', data_layout: 'flat' }), 404, 'not_found');
    await rejects(a.exportRange({ template_id: UNKNOWN, date_range: 'today', file_format: 'csv', data_layout: 'flat' }), 404, 'not_found');
  });
});

/** The document of a job, through the public API (parser_runs of the account's documents). */
async function docOf(requestId: string): Promise<string> {
  for await (const d of a.iterateDocuments()) if (d.parser_runs.some((r) => r.request_id === requestId)) return d.document_id;
  throw new Error(`no document ran ${requestId}`);
}
