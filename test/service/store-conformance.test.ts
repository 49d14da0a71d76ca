// The service store's conformance suite: the same behaviour, checked the same way, from the SQLite adapter
// (a service.db in a temp folder) and the PostgreSQL adapter (a fresh database on 127.0.0.1:5432 per
// adapter run, dropped after). A repo method that behaves differently on one engine fails here.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../src/shared/logger.js';
import { specTimestamp } from '../../src/shared/time.js';
import type { ServiceStore } from '../../src/service/store/service-store.js';
import { openSqliteStore } from '../../src/service/store/sqlite-store.js';
import { openPostgresStore } from '../../src/service/store/postgres-store.js';
import { defaultParserConfig } from '../../src/service/template-config.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

interface Adapter {
  name: string;
  open(): Promise<ServiceStore>;
  /** A second store on the same data (a second process), where the engine supports one. */
  openAnother?(): Promise<ServiceStore>;
  cleanup(): Promise<void>;
}

function sqliteAdapter(): Adapter {
  let dir = '';
  return {
    name: 'sqlite',
    async open() {
      dir = await mkdtemp(join(tmpdir(), 'docdrop-store-'));
      return openSqliteStore(dir);
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

function postgresAdapter(): Adapter {
  let db: TestDatabase | undefined;
  return {
    name: 'postgres',
    async open() {
      db = await createTestDatabase('svcstore');
      return openPostgresStore({ url: db.url, logger: silentLogger });
    },
    openAnother: () => openPostgresStore({ url: db!.url, logger: silentLogger }),
    cleanup: async () => db?.drop(),
  };
}

let clock = 0;
/** Distinct, increasing spec timestamps (the repos order by them). */
const ts = () => specTimestamp(new Date(Date.UTC(2026, 0, 1) + ++clock * 1000));

for (const adapter of [sqliteAdapter(), postgresAdapter()]) {
  describe(`service store: ${adapter.name}`, () => {
    let store: ServiceStore;
    before(async () => {
      store = await adapter.open();
    });
    after(async () => {
      await store.close();
      await adapter.cleanup();
    });

    const newDocument = async (account: string, fileName = 'a.pdf') => {
      const id = randomUUID();
      await store.documents.create({ document_id: id, account_id: account, source_name: 'api', file_name: fileName, file_extension: 'pdf', num_pages: 2, byte_size: 1234, now: ts() });
      return id;
    };
    const newTemplate = async (account: string, title: string) => {
      const id = randomUUID();
      await store.templates.insert({
        template_id: id,
        account_id: account,
        template_title: title,
        template_type: 'invoice',
        template_category: 'other',
        template_schema: { fields: [] },
        email_id: `${title.toLowerCase().replace(/\W+/g, '-')}-${id.slice(0, 8)}@docdrop.local`,
        webhook_url: null,
        parser_config: defaultParserConfig(),
        now: ts(),
      });
      return id;
    };

    test('documents: a created document reads back with its columns typed as numbers and strings', async () => {
      const id = await newDocument('acct_doc1');
      const row = (await store.documents.get(id))!;
      assert.equal(row.state, 'ready');
      assert.equal(row.num_pages, 2);
      assert.equal(row.byte_size, 1234);
      assert.equal(row.meta_tags, '{}');
      assert.equal(row.content, null);
      assert.equal(await store.documents.get(randomUUID()), undefined);
    });

    test('documents: a reservation is invisible to list until confirmed, and confirms only once', async () => {
      const account = 'acct_doc2';
      const id = randomUUID();
      await store.documents.reserve({ document_id: id, account_id: account, file_name: 'big.pdf', now: ts() });
      assert.equal((await store.documents.list({ accountId: account, limit: 10 })).rows.length, 0);
      assert.equal((await store.documents.get(id))!.state, 'reserved');
      const confirm = { document_id: id, file_name: 'final.pdf', file_extension: 'pdf', num_pages: 3, byte_size: 99, now: ts() };
      assert.equal(await store.documents.confirm(confirm), true);
      assert.equal(await store.documents.confirm(confirm), false);
      const { rows } = await store.documents.list({ accountId: account, limit: 10 });
      assert.deepEqual(rows.map((r) => [r.document_id, r.file_name, r.num_pages]), [[id, 'final.pdf', 3]]);
    });

    test('documents: list is newest first with keyset paging, and search matches file names and content case-insensitively, % and _ literally', async () => {
      const account = 'acct_doc3';
      const ids = [];
      for (const name of ['Invoice_2026.pdf', 'receipt.pdf', '100%.pdf', 'other.pdf']) ids.push(await newDocument(account, name));
      await store.documents.setContent(ids[3]!, 'Delivery NOTE from ACME', ts());
      const first = await store.documents.list({ accountId: account, limit: 3 });
      assert.deepEqual(first.rows.map((r) => r.document_id), [ids[3], ids[2], ids[1]]);
      assert.equal(first.more, true);
      const last = first.rows.at(-1)!;
      const second = await store.documents.list({ accountId: account, limit: 3, after: { document_id: last.document_id, created_at: last.created_at } });
      assert.deepEqual(second.rows.map((r) => r.document_id), [ids[0]]);
      assert.equal(second.more, false);
      const search = async (term: string) => (await store.documents.list({ accountId: account, limit: 10, searchTerm: term })).rows.map((r) => r.file_name);
      assert.deepEqual(await search('INVOICE'), ['Invoice_2026.pdf']);
      assert.deepEqual(await search('acme'), ['other.pdf']);
      assert.deepEqual(await search('%'), ['100%.pdf']);
      assert.deepEqual(await search('e_2'), ['Invoice_2026.pdf']);
      assert.deepEqual(await search('e_r'), []);
      assert.equal((await store.documents.list({ accountId: 'acct_nobody', limit: 10 })).rows.length, 0);
    });

    test('documents: parser runs read back oldest first with their params', async () => {
      const doc = await newDocument('acct_doc4');
      for (const n of [1, 2]) {
        await store.documents.addParserRun({ document_id: doc, template_id: randomUUID(), template_title: `T${n}`, request_id: randomUUID(), params: { use_ocr: n === 2 }, datetime: ts() });
      }
      const runs = await store.documents.parserRuns(doc);
      assert.deepEqual(runs.map((r) => [r.template_title, r.params]), [['T1', { use_ocr: false }], ['T2', { use_ocr: true }]]);
    });

    test('templates: titles are unique among live Workflows, a deleted one frees its title and stays readable by getAny', async () => {
      const account = 'acct_tpl1';
      const id = await newTemplate(account, 'Invoices');
      assert.equal(await store.templates.titleTaken(account, 'Invoices'), true);
      assert.equal(await store.templates.titleTaken(account, 'invoices'), false);
      await assert.rejects(newTemplate(account, 'Invoices'));
      const row = (await store.templates.get(id))!;
      assert.equal((await store.templates.getByEmail(row.email_id.toUpperCase()))?.template_id, id);
      assert.equal(await store.templates.delete(id, ts()), true);
      assert.equal(await store.templates.delete(id, ts()), false);
      assert.equal(await store.templates.get(id), undefined);
      assert.equal(await store.templates.getByEmail(row.email_id), undefined);
      assert.ok((await store.templates.getAny(id))!.deleted_at);
      assert.equal(await store.templates.titleTaken(account, 'Invoices'), false);
      await newTemplate(account, 'Invoices');
    });

    test('templates: update replaces the values; list pages in creation order after a sequence number', async () => {
      const account = 'acct_tpl2';
      const ids = [];
      for (const t of ['A', 'B', 'C']) ids.push(await newTemplate(account, t));
      await store.templates.update(ids[0]!, { template_type: 'receipt', template_schema: { fields: [{ name: 'x', type: 'text' }] } as never, webhook_url: 'https://example.com/h', parser_config: defaultParserConfig() }, ts());
      const updated = (await store.templates.get(ids[0]!))!;
      assert.equal(updated.template_type, 'receipt');
      assert.equal(updated.webhook_url, 'https://example.com/h');
      assert.equal(JSON.parse(updated.template_schema).fields[0].name, 'x');
      const p1 = await store.templates.list(account, 0, 2);
      assert.deepEqual(p1.rows.map((r) => r.template_id), ids.slice(0, 2));
      assert.equal(p1.more, true);
      assert.equal(typeof p1.rows[1]!.seq, 'number');
      const p2 = await store.templates.list(account, p1.rows[1]!.seq, 2);
      assert.deepEqual(p2.rows.map((r) => r.template_id), [ids[2]]);
      assert.equal(p2.more, false);
    });

    test('classifiers: insert, update, soft delete and paging', async () => {
      const account = 'acct_cls1';
      const configs = { classifier_type: 'document', classes: [{ label: 'invoice', description: 'bills' }], default_template_id: null, min_confidence: 0.5, query_model: 'model-4o-mini', page_range: null, use_ocr: true } as const;
      const ids = [randomUUID(), randomUUID()];
      for (const id of ids) await store.classifiers.insert({ classifier_id: id, account_id: account, name: 'c', configs: configs as never, now: ts() });
      await store.classifiers.update(ids[0]!, 'renamed', { ...configs, min_confidence: 0.9 } as never, ts());
      const row = (await store.classifiers.get(ids[0]!))!;
      assert.equal(row.name, 'renamed');
      assert.equal(JSON.parse(row.configs).min_confidence, 0.9);
      const p1 = await store.classifiers.list(account, 0, 1);
      assert.deepEqual([p1.rows.map((r) => r.classifier_id), p1.more], [[ids[0]], true]);
      assert.equal(await store.classifiers.delete(ids[0]!, ts()), true);
      assert.equal(await store.classifiers.delete(ids[0]!, ts()), false);
      assert.equal(await store.classifiers.get(ids[0]!), undefined);
      assert.ok(await store.classifiers.getAny(ids[0]!));
      assert.deepEqual((await store.classifiers.list(account, 0, 10)).rows.map((r) => r.classifier_id), [ids[1]]);
    });

    const newJob = async (documentId: string, templateId: string | null, withRun = false) =>
      store.jobs.insert(
        { request_id: randomUUID(), account: 'acct_job', document_id: documentId, template_id: templateId, template_title: templateId ? 'T' : null, classifier_id: null, submitted_via: 'run_parser', params: { use_ocr: true } },
        withRun && templateId ? { document_id: documentId, template_id: templateId, template_title: 'T', params: { use_ocr: true }, datetime: ts() } : undefined,
      );

    test('jobs: insert records the job pending with its parser run in one transaction; a failing run leaves no job', async () => {
      const doc = await newDocument('acct_job');
      const job = await newJob(doc, randomUUID(), true);
      assert.equal(job.status, 'pending');
      assert.deepEqual(job.params, { use_ocr: true });
      assert.deepEqual((await store.documents.parserRuns(doc)).map((r) => r.request_id), [job.request_id]);
      // A parser run of a document that does not exist breaks the foreign key: the job is not recorded either.
      const orphan = randomUUID();
      await assert.rejects(
        store.jobs.insert(
          { request_id: orphan, account: 'acct_job', document_id: doc, template_id: randomUUID(), classifier_id: null, submitted_via: 'run_parser', params: {} },
          { document_id: randomUUID(), template_id: randomUUID(), template_title: 'T', params: {}, datetime: ts() },
        ),
      );
      assert.equal(await store.jobs.get(orphan), undefined);
    });

    test('jobs: claim moves pending to processing exactly once, even when many claims race', async () => {
      const doc = await newDocument('acct_job');
      const job = await newJob(doc, null);
      const claims = await Promise.all(Array.from({ length: 8 }, () => store.jobs.claim(job.request_id)));
      assert.equal(claims.filter(Boolean).length, 1);
      assert.equal((await store.jobs.get(job.request_id))!.status, 'processing');
      assert.equal(await store.jobs.claim(randomUUID()), false);
    });

    test('jobs: update writes JSON and number columns; counts, requeue, completed-for-template and delete', async () => {
      const doc = await newDocument('acct_job');
      const templateId = randomUUID();
      const [a, b, c] = [await newJob(doc, templateId), await newJob(doc, templateId), await newJob(doc, null)];
      await store.jobs.update(a.request_id, { status: 'completed', result: { data: { total: 12.5 }, missingRequired: [], numPages: 1, pagesRead: [1] }, confidence_scores: { invoice: 0.9 }, classify_credits: 1, credits_used: 1, engine: 'e@1' });
      await store.jobs.claim(b.request_id);
      const done = (await store.jobs.get(a.request_id))!;
      assert.deepEqual([done.status, done.result?.data, done.confidence_scores, done.classify_credits, done.credits_used], ['completed', { total: 12.5 }, { invoice: 0.9 }, 1, 1]);
      await assert.rejects(store.jobs.update(a.request_id, { ['status; DROP TABLE jobs; --' as 'status']: 'failed' }), /unknown column/);
      const counts = await store.jobs.countByStatus();
      assert.equal(counts.completed >= 1 && counts.processing >= 1 && counts.failed === 0, true);
      const requeued = await store.jobs.requeueUnfinished();
      assert.ok(requeued.includes(b.request_id) && requeued.includes(c.request_id) && !requeued.includes(a.request_id));
      assert.equal((await store.jobs.get(b.request_id))!.status, 'pending');
      assert.equal((await store.jobs.countByStatus()).processing, 0);
      assert.deepEqual((await store.jobs.completedForTemplate('acct_job', templateId, '2000-01-01T00:00:00.000000')).map((j) => j.request_id), [a.request_id]);
      assert.deepEqual(await store.jobs.completedForTemplate('acct_job', templateId, '2999-01-01T00:00:00.000000'), []);
      assert.equal(await store.jobs.delete(c.request_id), true);
      assert.equal(await store.jobs.delete(c.request_id), false);
    });

    test('webhook deliveries: pending soonest first, attempts counted, outcomes recorded', async () => {
      const requestId = randomUUID();
      const ids = [randomUUID(), randomUUID()];
      await store.webhookDeliveries.insert({ delivery_id: ids[0]!, account: 'a', request_id: requestId, url: 'https://example.com/h', body: '{}', next_attempt_at: 2_000_000_000_000 });
      await store.webhookDeliveries.insert({ delivery_id: ids[1]!, account: 'a', request_id: requestId, url: 'https://example.com/h', body: '{}', next_attempt_at: 1_700_000_000_000 });
      assert.deepEqual((await store.webhookDeliveries.pending()).map((d) => d.delivery_id), [ids[1], ids[0]]);
      assert.equal(await store.webhookDeliveries.startAttempt(ids[1]!, 1_800_000_000_000, 0), true);
      assert.equal(await store.webhookDeliveries.startAttempt(ids[1]!, 1_800_000_000_000, 0), false, 'attempt 1 is taken once');
      let d = (await store.webhookDeliveries.get(ids[1]!))!;
      assert.deepEqual([d.attempts, d.next_attempt_at], [1, 1_800_000_000_000]);
      await store.webhookDeliveries.recordOutcome(ids[1]!, { state: 'delivered', status: 200, error: null, nextAttemptAt: 1_800_000_000_001 });
      d = (await store.webhookDeliveries.get(ids[1]!))!;
      assert.deepEqual([d.state, d.last_status, d.last_error], ['delivered', 200, null]);
      assert.equal(await store.webhookDeliveries.startAttempt(ids[1]!, 5, 1), false);
      assert.equal((await store.webhookDeliveries.get(ids[1]!))!.attempts, 1, 'a finished delivery takes no more attempts');
      assert.deepEqual((await store.webhookDeliveries.pending()).map((x) => x.delivery_id), [ids[0]]);
      assert.equal((await store.webhookDeliveries.forRequest(requestId)).length, 2);
    });

    test('the presign secret is 32 bytes and the same on every read; the store commits a no-op write', async () => {
      const secret = await store.presignSecret();
      assert.equal(secret.length, 32);
      assert.deepEqual(await store.presignSecret(), secret);
      await store.checkWritable();
    });

    if (adapter.openAnother) {
      test('a second process on the same database sees the same rows, presign secret and job claims', async () => {
        const other = await adapter.openAnother!();
        try {
          const doc = await newDocument('acct_two');
          assert.equal((await other.documents.get(doc))?.document_id, doc);
          assert.deepEqual(await other.presignSecret(), await store.presignSecret());
          const job = await newJob(doc, null);
          const claims = await Promise.all([store.jobs.claim(job.request_id), other.jobs.claim(job.request_id), store.jobs.claim(job.request_id), other.jobs.claim(job.request_id)]);
          assert.equal(claims.filter(Boolean).length, 1);
        } finally {
          await other.close();
        }
      });
    }
  });
}

describe('service store: postgres migrations', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase('svcstore');
  });
  after(() => db.drop());

  test('several processes starting together on a new database apply the schema once and all open', async () => {
    const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore({ url: db.url, logger: silentLogger })));
    try {
      const rows = await db.query<{ version: number }>('SELECT version FROM service_schema_migrations ORDER BY version');
      assert.deepEqual(rows.map((r) => r.version), [1]);
      const secrets = await Promise.all(stores.map((s) => s.presignSecret()));
      assert.ok(secrets.every((s) => s.equals(secrets[0]!)), 'one shared presign secret');
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  test('a database at a schema newer than this docdrop is refused, naming the versions and without the password', async () => {
    await db.query("INSERT INTO service_schema_migrations (version, name) VALUES (99, 'from the future')");
    const withPassword = new URL(db.url);
    withPassword.password = 'not-a-real-secret';
    await assert.rejects(openPostgresStore({ url: withPassword.href, logger: silentLogger }), (err: Error) => {
      assert.match(err.message, /schema version 99, newer than this docdrop \(1\); upgrade docdrop/);
      assert.doesNotMatch(err.message, /not-a-real-secret/);
      return true;
    });
  });
});
