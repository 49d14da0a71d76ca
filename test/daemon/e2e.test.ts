// The daemon end to end against a real `docdrop serve` on loopback: real folders, real SQLite, real intake.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ServiceClient } from '../../src/api/client.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon/daemon.js';
import { readXlsxTable } from '../../src/outputs/xlsx.js';
import { createLogger, silentLogger } from '../../src/shared/logger.js';
import { describeConfig } from '../../src/daemon/config/config.js';
import { startTestService, type TestService } from '../helpers/service.js';
import {
  configYaml,
  contractPdf,
  invoiceTemplate,
  largeInvoicePdf,
  listFiles,
  numberedInvoice,
  readCsvFile,
  tempTree,
  waitFor,
  writeConfig,
  type RuleYaml,
  type TempTree,
} from './pipeline-fixtures.js';

const FINAL = ['done', 'failed', 'duplicate'] as const;

async function settled(d: RunningDaemon, expected: number): Promise<Record<string, number>> {
  return waitFor(`${expected} inputs to reach a final state`, async () => {
    const c = await d.ledger.countByState();
    const final = FINAL.reduce((n, s) => n + c[s], 0);
    const active = c.queued + c.uploaded + c.submitted + c.extracted + c.written + c.timed_out;
    return final >= expected && active === 0 ? c : undefined;
  }, 90_000);
}

async function startOn(svc: TestService, tree: TempTree, rules: RuleYaml[], extra: Parameters<typeof configYaml>[0] extends infer O ? Partial<O> : never = {}) {
  const { config } = await writeConfig(tree.root, configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]!, rules, ...extra }));
  for (const r of config.rules) await mkdir(r.watch, { recursive: true });
  return { config, daemon: await startDaemon(config, { logger: silentLogger }) };
}

describe('daemon end to end (no faults)', () => {
  let svc: TestService;
  let client: ServiceClient;
  before(async () => {
    svc = await startTestService();
    client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! });
    await client.createTemplate(invoiceTemplate('Invoices'));
  });
  after(() => svc.close());

  test('turns dropped invoices into CSV rows in the Workflow field order and moves the inputs to processed', async () => {
    const tree = await tempTree();
    const { daemon } = await startOn(svc, tree, [{}]);
    try {
      const inbox = join(tree.root, 'inbox', 'invoices');
      for (let i = 1; i <= 3; i++) await writeFile(join(inbox, `inv-${i}.pdf`), await numberedInvoice(i));
      const counts = await settled(daemon, 3);
      assert.equal(counts.done, 3);
      const outputs = await listFiles(join(tree.root, 'outbox', 'invoices'));
      assert.equal(outputs.length, 3);
      const numbers = new Set<string>();
      for (const name of outputs) {
        const { header, rows } = await readCsvFile(join(tree.root, 'outbox', 'invoices', name));
        assert.deepEqual(header.slice(0, 5), ['file_name', 'request_id', 'invoice_number', 'invoice_date', 'total_due']);
        assert.equal(rows.length, 2, 'one row per line item');
        assert.equal(rows[0]!['line_items.description'], 'Widget A');
        numbers.add(rows[0]!.invoice_number!);
      }
      assert.deepEqual([...numbers].sort(), ['INV-00001', 'INV-00002', 'INV-00003']);
      assert.deepEqual(await listFiles(inbox), []);
      assert.equal((await listFiles(join(tree.root, 'processed', 'invoices'))).length, 3);
    } finally {
      await daemon.stop();
      await tree.cleanup();
    }
  });

  test('skips a duplicate into its own folder with a note naming the original, and fails an unsupported file with a reason', async () => {
    const tree = await tempTree();
    const { daemon } = await startOn(svc, tree, [{ format: 'xlsx' }]);
    try {
      const inbox = join(tree.root, 'inbox', 'invoices');
      const bytes = await numberedInvoice(7);
      await writeFile(join(inbox, 'first.pdf'), bytes);
      await settled(daemon, 1);
      await writeFile(join(inbox, 'again.pdf'), bytes);
      await writeFile(join(inbox, 'notes.pdf'), 'this is plain text, not a PDF');
      const counts = await settled(daemon, 3);
      assert.deepEqual([counts.done, counts.duplicate, counts.failed], [1, 1, 1]);

      const dupDir = join(tree.root, 'duplicates', 'invoices');
      const dups = await listFiles(dupDir);
      assert.ok(dups.includes('again.pdf'), `duplicates folder holds ${dups.join(', ')}`);
      const note = dups.find((n) => n !== 'again.pdf' && n.startsWith('again.pdf'));
      assert.ok(note, 'a note sits beside the duplicate');
      assert.match(await readFile(join(dupDir, note), 'utf8'), /first\.pdf/);

      const failedDir = join(tree.root, 'failed', 'invoices');
      const failed = await listFiles(failedDir);
      assert.ok(failed.includes('notes.pdf'));
      const errName = failed.find((n) => n.endsWith('.error.json'))!;
      const err = JSON.parse(await readFile(join(failedDir, errName), 'utf8')) as Record<string, unknown>;
      assert.equal(err.kind, 'unsupported_file_type');
      assert.match(String(err.reason), /not a PDF/);

      const xlsx = (await listFiles(join(tree.root, 'outbox', 'invoices'))).filter((n) => n.endsWith('.xlsx'));
      assert.equal(xlsx.length, 1, 'the duplicate produced no second output');
      const [sheet] = await readXlsxTable(join(tree.root, 'outbox', 'invoices', xlsx[0]!));
      assert.ok(sheet);
    } finally {
      await daemon.stop();
      await tree.cleanup();
    }
  });

  test('uploads a file over 6 MB through the pre-signed flow', async () => {
    const tree = await tempTree();
    const { daemon } = await startOn(svc, tree, [{}]);
    try {
      const big = await largeInvoicePdf();
      assert.ok(big.length > 6 * 1024 * 1024);
      await writeFile(join(tree.root, 'inbox', 'invoices', 'big.pdf'), big);
      const counts = await settled(daemon, 1);
      assert.equal(counts.done, 1);
      const [out] = await listFiles(join(tree.root, 'outbox', 'invoices'));
      const { rows } = await readCsvFile(join(tree.root, 'outbox', 'invoices', out!));
      assert.equal(rows[0]!.invoice_number, 'INV-99999');
    } finally {
      await daemon.stop();
      await tree.cleanup();
    }
  });

  test('a classifier rule writes the label and confidence columns', async () => {
    const tree = await tempTree();
    const contract = await client.createTemplate({
      template_title: 'Contracts',
      template_type: 'contract',
      template_schema: { fields: [{ name: 'parties', type: 'text', description: 'parties of the agreement' }] },
    });
    const invoices = (await client.listTemplates()).items.find((t) => t.template_title === 'Invoices')!;
    await client.createClassifier({
      name: 'Mailroom',
      classes: [
        { label: 'invoice', description: 'an invoice with invoice number, total due and line items', template_id: invoices.template_id },
        { label: 'contract', description: 'an employment contract agreement between employer and employee', template_id: contract.template_id },
      ],
    });
    const { daemon } = await startOn(svc, tree, [{ name: 'mail', classifier: 'Mailroom', layout: 'flat' }]);
    try {
      const inbox = join(tree.root, 'inbox', 'mail');
      await writeFile(join(inbox, 'invoice.pdf'), await numberedInvoice(3));
      await writeFile(join(inbox, 'contract.pdf'), await contractPdf());
      const counts = await settled(daemon, 2);
      assert.equal(counts.done, 2);
      const labels = new Map<string, string>();
      for (const name of await listFiles(join(tree.root, 'outbox', 'mail'))) {
        const { header, rows } = await readCsvFile(join(tree.root, 'outbox', 'mail', name));
        assert.ok(header.includes('classification') && header.includes('confidence'), `header: ${header.join(',')}`);
        const conf = Number(rows[0]!.confidence);
        assert.ok(conf > 0 && conf <= 1);
        labels.set(rows[0]!.file_name!, rows[0]!.classification!);
      }
      assert.deepEqual(Object.fromEntries(labels), { 'invoice.pdf': 'invoice', 'contract.pdf': 'contract' });
    } finally {
      await daemon.stop();
      await tree.cleanup();
    }
  });

  test('refuses to start when a rule names an unknown Workflow, naming the rule and the Workflows that exist', async () => {
    const tree = await tempTree();
    try {
      await assert.rejects(startOn(svc, tree, [{ name: 'bills', workflow: 'Bills' }]), (err: Error) => {
        assert.match(err.message, /rule "bills"/);
        assert.match(err.message, /"Invoices"/);
        return true;
      });
    } finally {
      await tree.cleanup();
    }
  });

  test('logs the service URL without the user name and password written into base_url', async () => {
    const tree = await tempTree();
    let log = '';
    const destination = new Writable({ write: (chunk, _enc, cb) => ((log += String(chunk)), cb()) });
    try {
      const baseUrl = svc.url.replace('http://', 'http://alice:s3cret-pw@');
      const { config } = await writeConfig(tree.root, configYaml({ root: tree.root, baseUrl, apiKey: svc.keys[0]!, rules: [{}] }));
      for (const r of config.rules) await mkdir(r.watch, { recursive: true });
      const daemon = await startDaemon(config, { logger: createLogger({ destination }) });
      await daemon.stop();
      assert.match(log, /daemon started/);
      assert.ok(!log.includes('s3cret-pw'), log);
      assert.ok(!log.includes('alice'), log);
      assert.ok(!JSON.stringify(describeConfig(config)).includes('s3cret-pw'));
    } finally {
      await tree.cleanup();
    }
  });
});

describe('daemon end to end with fault injection', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({
      faults: { rate429: 0.08, retryAfterSeconds: 1, rate5xx: 0.08, dropRate: 0.04, jobFailedRate: 0.1, jobExceptionRate: 0.1, jobDelayMs: [0, 800], seed: 42 },
    });
    // Set up without faults getting in the way: the client retries them.
    const client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]!, retry: { retries: 20, minDelayMs: 10, maxDelayMs: 50 } });
    await client.createTemplate(invoiceTemplate('Invoices'));
  });
  after(() => svc.close());

  test('every dropped file ends processed or failed with its reason; none is lost or written twice', async () => {
    const tree = await tempTree();
    const { daemon } = await startOn(svc, tree, [{}]);
    const n = 24;
    try {
      const inbox = join(tree.root, 'inbox', 'invoices');
      for (let i = 1; i <= n; i++) await writeFile(join(inbox, `f-${i}.pdf`), await numberedInvoice(1000 + i));
      const counts = await settled(daemon, n);
      assert.equal(counts.done + counts.failed, n);
      // Seed 42 fixes the job outcomes in creation order (their own stream, whatever the HTTP faults do):
      // 7 of the 24 jobs end failed or exception.
      assert.equal(counts.failed, 7, 'the seeded job faults fail 7 of the 24 inputs');
      assert.ok(counts.done > 0);

      const processed = await listFiles(join(tree.root, 'processed', 'invoices'));
      const failedDir = join(tree.root, 'failed', 'invoices');
      const failed = await listFiles(failedDir);
      const failedInputs = failed.filter((f) => !f.endsWith('.error.json'));
      assert.equal(processed.length, counts.done);
      assert.equal(failedInputs.length, counts.failed);
      assert.deepEqual([...processed, ...failedInputs].sort(), Array.from({ length: n }, (_, i) => `f-${i + 1}.pdf`).sort());
      for (const f of failedInputs) {
        const errFile = failed.find((x) => x.endsWith('.error.json') && x.startsWith(f.replace(/\.pdf$/, '')));
        assert.ok(errFile, `${f} has its .error.json`);
        const info = JSON.parse(await readFile(join(failedDir, errFile), 'utf8')) as Record<string, unknown>;
        assert.ok(typeof info.reason === 'string' && info.reason.length > 0);
        assert.ok(info.request_id, 'a failed job names its request_id');
      }
      const outputs = await listFiles(join(tree.root, 'outbox', 'invoices'));
      assert.equal(outputs.length, counts.done, 'one output per processed input');
      for (const o of outputs) {
        const { rows } = await readCsvFile(join(tree.root, 'outbox', 'invoices', o));
        assert.equal(rows.length, 2);
      }
      assert.ok((await stat(join(tree.root, 'state.db'))).size > 0);
    } finally {
      await daemon.stop();
      await tree.cleanup();
    }
  });
});
