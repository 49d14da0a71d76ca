// State survives restarts: SQLite and files under the data dir; pre-signed URLs stay valid because
// the signing secret is kept there too. Deleted Workflows leave earlier parser_runs readable.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { specTimestamp } from '../../src/shared/time.js';
import { startTestService } from '../helpers/service.js';
import { clientFor, pagesPdf, tempFiles, type TempFiles } from '../helpers/service-fixtures.js';

let dataDir: string;
let files: TempFiles;
before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docdrop-persist-'));
  files = await tempFiles();
});
after(async () => {
  await rm(dataDir, { recursive: true, force: true });
  await files.cleanup();
});

test('documents, Workflows, Classifiers and storage_key URLs survive a restart', async () => {
  const pdf = await pagesPdf(2);
  const first = await startTestService({ dataDir });
  const c1 = clientFor(first.url, first.keys[0]);
  const doc = await c1.uploadMultipart(await files.write('keep.pdf', pdf));
  const tpl = await c1.createTemplate({ template_title: 'Keep', template_type: 'invoice', template_schema: { fields: [{ name: 'total', type: 'number' }] } });
  const cls = await c1.createClassifier({ name: 'keep', classes: [{ label: 'a', description: 'A', template_id: tpl.template_id }, { label: 'b', description: 'B' }] });
  const { document_id: reserved } = await c1.getUploadUrl('later.pdf');
  const storageKey = (await c1.getDocument(doc.document_id)).storage_key!;
  await first.close();

  const second = await startTestService({ dataDir });
  try {
    const c2 = clientFor(second.url, second.keys[0]);
    const again = await c2.getDocument(doc.document_id);
    assert.equal(again.num_pages, 2);
    assert.equal(again.created_at, doc.created_at);
    assert.deepEqual(await c2.getTemplate(tpl.template_id), tpl);
    assert.deepEqual(await c2.getClassifier(cls.classifier_id), cls);
    // the old URL names the old port; the signature covers only method, path and expiry
    const u = new URL(storageKey);
    const res = await request(`${second.url}${u.pathname}${u.search}`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(Buffer.from(await res.body.arrayBuffer()), pdf);
    // a reservation made before the restart can still be completed
    const upload_url = second.service.context.presign.url('PUT', `/presigned/uploads/${reserved}`, 60);
    const put = await request(upload_url, { method: 'PUT', body: pdf });
    await put.body.dump();
    assert.equal(put.statusCode, 200);
    assert.equal((await c2.confirmUpload(reserved, 'later.pdf')).num_pages, 2);
  } finally {
    await second.close();
  }
});

test('a deleted Workflow leaves the documents and their parser_runs in place', async () => {
  const svc = await startTestService();
  try {
    const c = clientFor(svc.url, svc.keys[0]);
    const doc = await c.uploadMultipart(await files.write('run.pdf', await pagesPdf(1)));
    const tpl = await c.createTemplate({ template_title: 'Temp', template_type: 'x', template_schema: { fields: [] } });
    svc.service.context.repos.documents.addParserRun({
      document_id: doc.document_id,
      template_id: tpl.template_id,
      template_title: tpl.template_title,
      request_id: '66666666-7777-4888-9999-000000000000',
      params: {},
      datetime: specTimestamp(),
    });
    await c.deleteTemplate(tpl.template_id);
    const after = await c.getDocument(doc.document_id);
    assert.equal(after.parser_runs.length, 1);
    assert.equal(after.parser_runs[0].template_title, 'Temp');
  } finally {
    await svc.close();
  }
});
