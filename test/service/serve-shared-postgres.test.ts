// Two `docdrop serve` processes (as a user runs them) on one PostgreSQL database and one shared --files
// folder, each with its own data dir: whatever is sent to one is answered by the other. Pre-signed URLs
// issued by one are accepted by the other (the presign secret lives in the database).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import type { ExtractionJob } from '../../src/api/types.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { invoicePdf, invoiceTemplate } from '../helpers/job-fixtures.js';
import { fileForm, raw } from '../helpers/service-fixtures.js';

const KEY = 'shared-pg-key-a';

interface Serve {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

async function serve(args: string[]): Promise<Serve> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--api-key', KEY, ...args], {
    env: { ...process.env, DOCDROP_API_KEYS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (b: Buffer) => {
      log += b.toString();
      const m = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`serve exited ${code} before listening: ${log}`)));
  });
  return { url, child, exited };
}

/** The same URL on another process (behind one address, the balancer picks any). */
const via = (url: string, base: string) => {
  const u = new URL(url);
  return `${base}${u.pathname}${u.search}`;
};

async function finished(c: ServiceClient, requestId: string): Promise<ExtractionJob> {
  for (;;) {
    const job = await c.getJob(requestId);
    if (job.request_status !== 'pending' && job.request_status !== 'processing') return job;
    await new Promise((r) => setTimeout(r, 100));
  }
}

let db: TestDatabase;
let work: string;
let files: string;
let a: Serve;
let b: Serve;
let ca: ServiceClient;
let cb: ServiceClient;

before(async () => {
  db = await createTestDatabase('svcstore');
  work = await mkdtemp(join(tmpdir(), 'docdrop-shared-pg-'));
  files = join(work, 'shared-files');
  // Started together: the schema is applied once under the advisory lock, the presign secret written once.
  [a, b] = await Promise.all(['a', 'b'].map((n) => serve(['--data-dir', join(work, n), '--database', db.url, '--files', files])));
  ca = new ServiceClient({ baseUrl: a.url, apiKey: KEY, retry: false });
  cb = new ServiceClient({ baseUrl: b.url, apiKey: KEY, retry: false });
}, { timeout: 180_000 });

after(async () => {
  for (const s of [a, b]) s?.child.kill('SIGTERM');
  assert.deepEqual(await Promise.all([a, b].map((s) => s?.exited)), [0, 0], 'both stop cleanly');
  await db.drop();
  await rm(work, { recursive: true, force: true });
});

test('a Workflow created on one process is listed and read on the other', async () => {
  const t = await ca.createTemplate(invoiceTemplate('Shared'));
  const listed = await cb.listTemplates();
  assert.deepEqual(listed.items.map((w) => w.template_id), [t.template_id]);
  assert.equal((await cb.getTemplate(t.template_id)).template_title, 'Shared');
});

test('a document uploaded (multipart) through A is found through B, run on B, and its job read through A and B', async () => {
  const template = (await cb.listTemplates()).items[0]!;
  const pdf = await invoicePdf({ number: 'MP-1', total: '12.00', date: '2026-03-01' });
  const up = await raw(`${a.url}/v1/documents`, { method: 'POST', key: KEY, body: fileForm(pdf, 'multipart.pdf') });
  assert.equal(up.status, 200, up.text);
  const documentId = up.json.document_id as string;
  const seen = await cb.getDocument(documentId);
  assert.equal(seen.file_name, 'multipart.pdf');
  // The stored bytes through B's storage_key, then the same URL on A: one presign secret for both.
  for (const base of [b.url, a.url]) {
    const got = await raw(via(seen.storage_key!, base));
    assert.equal(got.status, 200, `${base}: ${got.text.slice(0, 200)}`);
  }
  const job = (await cb.runParser(documentId, { template_id: template.template_id })) as ExtractionJob;
  const done = await finished(cb, job.request_id);
  assert.equal(done.request_status, 'completed', JSON.stringify(done));
  assert.equal((done.response_body?.result_json_data as Record<string, unknown>).invoice_number, 'MP-1');
  const onA = await ca.getJob(job.request_id);
  assert.deepEqual([onA.request_status, onA.response_body?.result_json_data], [done.request_status, done.response_body?.result_json_data]);
  assert.deepEqual((await ca.getDocument(documentId)).parser_runs.map((r) => r.request_id), [job.request_id]);
});

test('a pre-signed upload reserved on A, PUT through B and confirmed on A is run on A and its job read through B', async () => {
  const template = (await ca.listTemplates()).items[0]!;
  const reserved = await ca.getUploadUrl('large.pdf');
  const put = await raw(via(reserved.upload_url, b.url), { method: 'PUT', body: await invoicePdf({ number: 'PS-2', total: '7.50', date: '2026-03-02' }) });
  assert.equal(put.status, 200, put.text);
  const confirmed = await raw(`${a.url}/v1/documents`, { method: 'POST', key: KEY, json: { document_id: reserved.document_id, file_name: 'large.pdf' } });
  assert.equal(confirmed.status, 200, confirmed.text);
  assert.equal(confirmed.json.num_pages, 1);
  const { request_id } = await ca.extract({ document_id: reserved.document_id }, { template_id: template.template_id });
  const done = await finished(cb, request_id);
  assert.equal(done.request_status, 'completed', JSON.stringify(done));
  const onB = await cb.getExtractJob(request_id);
  assert.equal((onB.results?.data as Record<string, unknown>).invoice_number, 'PS-2');
  assert.deepEqual((await cb.listDocuments()).files.map((d) => d.file_name).sort(), ['large.pdf', 'multipart.pdf']);
});

test('both processes write their files into the one shared folder, nothing into their own data dirs', async () => {
  assert.equal((await readdir(join(files, 'documents'))).length, 2);
  for (const n of ['a', 'b']) assert.deepEqual((await readdir(join(work, n))).sort(), [], `data dir ${n} holds no service.db, presign.key or files`);
});
