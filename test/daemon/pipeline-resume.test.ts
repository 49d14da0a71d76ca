// The pipeline resumes each unfinished input from its committed state, and gives slow jobs up to
// timed_out without forgetting them. Real service, real SQLite ledger, real folders.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { buildPipeline } from '../../src/daemon/daemon.js';
import type { Ledger } from '../../src/daemon/ledger/ledger.js';
import { openLedger } from '../../src/daemon/ledger/open-ledger.js';
import { resolveTargets } from '../../src/daemon/pipeline/resolve-targets.js';
import { sha256File } from '../../src/daemon/intake/folder/folder-intake.js';
import { silentLogger } from '../../src/shared/logger.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, listFiles, numberedInvoice, readCsvFile, tempTree, waitFor, writeConfig } from './pipeline-fixtures.js';

async function setup(svc: TestService, root: string) {
  const { config } = await writeConfig(root, configYaml({ root, baseUrl: svc.url, apiKey: svc.keys[0]! }));
  const inbox = config.rules[0]!.watch;
  await mkdir(inbox, { recursive: true });
  const client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! });
  const targets = await resolveTargets([{ name: 'invoices', workflow: 'Invoices' }], client);
  const ledger = await openLedger(config.state);
  return { config, inbox, client, targets, ledger };
}

async function addFile(ledger: Ledger, inbox: string, name: string, bytes: Buffer) {
  const path = join(inbox, name);
  await writeFile(path, bytes);
  const st = await stat(path);
  return (await ledger.addInput({ rule: 'invoices', path, size: st.size, mtimeMs: st.mtimeMs, sha256: await sha256File(path) })).record;
}

describe('pipeline resume and time-outs', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ faults: { jobDelayMs: [0, 0] } });
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
  });
  after(() => svc.close());

  test('resumes inputs left uploaded and submitted before a crash, from their committed ids', async () => {
    const tree = await tempTree();
    const { config, inbox, client, targets, ledger } = await setup(svc, tree.root);
    try {
      const a = await addFile(ledger, inbox, 'a.pdf', await numberedInvoice(31));
      const docA = await client.uploadDocument(a.path);
      await ledger.transition(a.id, 'queued', 'uploaded', { documentId: docA.document_id });

      const b = await addFile(ledger, inbox, 'b.pdf', await numberedInvoice(32));
      const docB = await client.uploadDocument(b.path);
      const target = targets.get('invoices')!;
      assert.equal(target.kind, 'workflow');
      const job = await client.runParser(docB.document_id, { template_id: target.kind === 'workflow' ? target.templateId : '' });
      await ledger.transition(b.id, 'queued', 'uploaded', { documentId: docB.document_id });
      await ledger.transition(b.id, 'uploaded', 'submitted', { requestId: job.request_id });

      const pipeline = buildPipeline(config, client, ledger, targets, silentLogger);
      pipeline.start();
      try {
        await waitFor('both done', async () => (await ledger.countByState()).done === 2);
      } finally {
        await pipeline.stop();
      }
      const rb = (await ledger.get(b.id))!;
      assert.equal(rb.requestId, job.request_id, 'the submitted job was polled, not submitted again');
      assert.equal((await ledger.get(a.id))!.documentId, docA.document_id, 'the uploaded document was not uploaded again');
      const outputs = await listFiles(join(tree.root, 'outbox', 'invoices'));
      assert.equal(outputs.length, 2);
      assert.ok(outputs.some((o) => o.includes(job.request_id.slice(0, 8))));
    } finally {
      await ledger.close();
      await tree.cleanup();
    }
  });

  test('writes an input left extracted from its stored result, without calling the service', async () => {
    const tree = await tempTree();
    const { config, inbox, targets, ledger } = await setup(svc, tree.root);
    try {
      const r = await addFile(ledger, inbox, 'c.pdf', await numberedInvoice(33));
      await ledger.transition(r.id, 'queued', 'uploaded', { documentId: '11111111-1111-4111-8111-111111111111' });
      await ledger.transition(r.id, 'uploaded', 'submitted', { requestId: '22222222-2222-4222-8222-222222222222' });
      await ledger.transition(r.id, 'submitted', 'extracted', {
        result: { data: { invoice_number: 'STORED-1', total_due: 9.5, line_items: [{ description: 'x', amount: 9.5 }] }, fileName: 'c.pdf', numPages: 1, templateId: null, classification: null, confidence: null },
      });
      // A client whose every call fails: port 9 on loopback (discard) has no listener.
      const dead = new ServiceClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'x', retry: false });
      const pipeline = buildPipeline(config, dead, ledger, targets, silentLogger);
      pipeline.start();
      try {
        await waitFor('done', async () => (await ledger.get(r.id))!.state === 'done');
      } finally {
        await pipeline.stop();
      }
      const [out] = await listFiles(join(tree.root, 'outbox', 'invoices'));
      const { rows } = await readCsvFile(join(tree.root, 'outbox', 'invoices', out!));
      assert.equal(rows[0]!.invoice_number, 'STORED-1');
      assert.equal(rows[0]!.request_id, '22222222-2222-4222-8222-222222222222');
    } finally {
      await ledger.close();
      await tree.cleanup();
    }
  });
});

describe('slow jobs', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ faults: { jobDelayMs: 2500 } });
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
  });
  after(() => svc.close());

  test('a job still running past give_up_after becomes timed_out and a later slow re-check completes it', async () => {
    const tree = await tempTree();
    const { config, inbox, client, targets, ledger } = await setup(svc, tree.root);
    try {
      const pipeline = buildPipeline(config, client, ledger, targets, silentLogger, { initialMs: 100, maxMs: 200, giveUpAfterMs: 300, slowRecheckMs: 1500 });
      pipeline.start();
      try {
        await writeFile(join(inbox, 'slow.pdf'), await numberedInvoice(34));
        const record = await pipeline.accept('invoices', join(inbox, 'slow.pdf'));
        assert.ok(record);
        await waitFor('timed_out', async () => (await ledger.get(record.id))!.state === 'timed_out');
        assert.match((await ledger.get(record.id))!.lastError ?? '', /after 0 s|still/);
        await waitFor('done after a slow re-check', async () => (await ledger.get(record.id))!.state === 'done', 30_000);
        const kinds = (await ledger.events(record.id)).map((e) => e.kind);
        assert.ok(kinds.indexOf('timed_out') < kinds.indexOf('extracted'));
      } finally {
        await pipeline.stop();
      }
    } finally {
      await ledger.close();
      await tree.cleanup();
    }
  });
});
