// `docdrop serve` answers /healthz, /readyz and /metrics on its own port without an API key (every other
// path still needs one), and its metrics count what the jobs did: jobs by state, job duration, pages read
// by kind (text layer, OCR), OCR seconds per page, webhook deliveries.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../src/api/client.js';
import { healthChecks } from '../../src/service/routes/health.js';
import { runChecks } from '../../src/shared/health-checks.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { invoicePdf, invoiceTemplate, writeFixture } from '../helpers/job-fixtures.js';
import { scrape } from '../helpers/prometheus.js';

describe('serve: health paths and metrics', () => {
  let svc: TestService;
  let hooks: Server;
  let hookUrl: string;
  before(async () => {
    hooks = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
    await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
    svc = await startTestService({ fetchAllowRanges: ['127.0.0.0/8'] }); // the loopback webhook receiver
  });
  after(async () => {
    await svc.close();
    await new Promise((r) => hooks.close(r));
  });

  test('/healthz, /readyz and /metrics answer without x-api-key; an API path still refuses a request without one', async () => {
    const health = await fetch(`${svc.url}/healthz`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { status: string }).status, 'ok');
    const ready = await fetch(`${svc.url}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ready', checks: { store_writable: 'ok', workers_running: 'ok' }, failed: [] });
    const m = await scrape(`${svc.url}/metrics`);
    assert.equal(m.sum('docdrop_serve_ready'), 1);
    assert.equal((await fetch(`${svc.url}/v1/templates`)).status, 401);
  });

  test('counts jobs by state, their duration, text and OCR pages, OCR seconds per page and webhook deliveries', async () => {
    const client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]!, retry: false });
    const t = await client.createTemplate(invoiceTemplate('Metered', { webhook_url: hookUrl }));
    const pdf = await writeFixture(svc.dataDir, 'inv.pdf', await invoicePdf({ number: 'M-1', total: '12.00', date: '2026-01-02' }));
    const doc = await client.uploadDocument(pdf);
    await client.runParser(doc.document_id, { template_id: t.template_id });
    await client.runParser(doc.document_id, { template_id: t.template_id, use_ocr: true });
    await svc.service.context.jobs.idle();

    const m = await scrape(`${svc.url}/metrics`);
    assert.equal(m.sum('docdrop_serve_jobs', { state: 'completed' }), 2);
    assert.equal(m.sum('docdrop_serve_jobs', { state: 'pending' }), 0);
    assert.equal(m.count('docdrop_serve_job_duration_seconds', { state: 'completed' }), 2);
    assert.equal(m.sum('docdrop_serve_pages_read_total', { kind: 'text' }), 1);
    assert.equal(m.sum('docdrop_serve_pages_read_total', { kind: 'ocr' }), 1);
    assert.equal(m.count('docdrop_serve_ocr_page_duration_seconds'), 1);
    assert.equal(m.sum('docdrop_serve_webhook_deliveries_total', { outcome: 'delivered' }), 2);
    assert.equal(m.sum('docdrop_serve_webhook_deliveries_total', { outcome: 'abandoned' }), 0);
  });

  test('readiness names the failed check when the job workers are stopped', async () => {
    const { db, files } = svc.service.context;
    const report = await runChecks(healthChecks({ store: db, filesRoot: files.root, workersRunning: () => false }), 1000);
    assert.equal(report.ready, false);
    assert.deepEqual(report.failed, ['workers_running']);
    assert.match(report.checks.find((c) => c.name === 'workers_running')!.error!, /stopped/);
  });
});
