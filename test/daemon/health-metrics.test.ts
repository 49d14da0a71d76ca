// The daemon's health listener against a real `docdrop serve`: /metrics parsed by a Prometheus text-format
// parser agrees with the ledger after a run with successes, failures and duplicates; /readyz names the
// failed check while the service is away and is ready again once it is back; /healthz follows the loop.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon/daemon.js';
import { INPUT_STATES } from '../../src/daemon/ledger/ledger.js';
import { silentLogger } from '../../src/shared/logger.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { scrape } from '../helpers/prometheus.js';
import { configYaml, invoiceTemplate, numberedInvoice, tempTree, waitFor, writeConfig, type TempTree } from './pipeline-fixtures.js';

const HEALTH = '\nhealth:\n  listen: "127.0.0.1:0"\n';

async function startWithHealth(svc: TestService, tree: TempTree): Promise<RunningDaemon> {
  const yaml = configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]!, rules: [{}] }) + HEALTH;
  const { config } = await writeConfig(tree.root, yaml);
  for (const r of config.rules) await mkdir(r.watch, { recursive: true });
  return startDaemon(config, { logger: silentLogger });
}

async function settled(d: RunningDaemon, expected: number): Promise<Record<string, number>> {
  return waitFor(`${expected} inputs to reach a final state`, async () => {
    const c = await d.ledger.countByState();
    const active = c.queued + c.uploaded + c.submitted + c.extracted + c.written + c.timed_out;
    return c.done + c.failed + c.duplicate >= expected && active === 0 ? c : undefined;
  }, 90_000);
}

async function readyz(d: RunningDaemon): Promise<{ status: number; body: { status: string; checks: Record<string, string>; failed: string[] } }> {
  const res = await fetch(`${d.healthUrl}/readyz`);
  return { status: res.status, body: (await res.json()) as never };
}

describe('daemon health listener: /metrics against the ledger', () => {
  let svc: TestService;
  before(async () => {
    // Half the jobs end failed (seeded): failures come from the service, not only from local checks.
    svc = await startTestService({ faults: { jobFailedRate: 0.5, seed: 7 } });
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
  });
  after(() => svc.close());

  test('inputs by state, failures, step latencies and API requests match the ledger after successes, failures and duplicates', async () => {
    const tree = await tempTree();
    const daemon = await startWithHealth(svc, tree);
    try {
      assert.ok(daemon.healthUrl);
      const inbox = join(tree.root, 'inbox', 'invoices');
      const pdfs = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((i) => numberedInvoice(i)));
      for (const [i, pdf] of pdfs.entries()) await writeFile(join(inbox, `inv-${i + 1}.pdf`), pdf);
      await writeFile(join(inbox, 'notes.pdf'), 'not a document at all'); // fails locally: unsupported_file_type
      await settled(daemon, 9);
      // The same bytes again: a duplicate of an input that is done, processed again after a failed one.
      for (const [i, pdf] of pdfs.entries()) await writeFile(join(inbox, `again-${i + 1}.pdf`), pdf);
      const counts = await settled(daemon, 17);
      assert.ok(counts.done > 0 && counts.failed > 1 && counts.duplicate > 0, `a mix of outcomes: ${JSON.stringify(counts)}`);

      const m = await scrape(`${daemon.healthUrl}/metrics`);
      for (const state of INPUT_STATES) assert.equal(m.sum('docdrop_inputs', { rule: 'invoices', state }), counts[state], `docdrop_inputs{state="${state}"}`);
      assert.equal(m.family('docdrop_inputs').type, 'GAUGE');
      assert.equal(m.sum('docdrop_input_failures_total', { rule: 'invoices' }), counts.failed);
      assert.equal(m.sum('docdrop_input_failures_total', { reason: 'unsupported_file_type' }), 1);
      assert.equal(m.sum('docdrop_input_failures_total', { reason: 'job_failed' }), counts.failed - 1);
      const final = (state: string) => m.count('docdrop_input_duration_seconds', { rule: 'invoices', state });
      assert.deepEqual([final('done'), final('failed'), final('duplicate')], [counts.done, counts.failed, counts.duplicate]);
      // Every input that was done went through each step once; failed jobs were uploaded and submitted too.
      const step = (s: string) => m.count('docdrop_step_duration_seconds', { rule: 'invoices', step: s });
      assert.equal(step('done'), counts.done);
      assert.equal(step('written'), counts.done);
      assert.equal(step('extracted'), counts.done);
      assert.equal(step('submitted'), counts.done + counts.failed - 1);
      assert.equal(step('uploaded'), counts.done + counts.failed - 1);
      assert.equal(m.sum('docdrop_api_requests_total', { operation: 'POST /v1/documents', code: '200' }), counts.done + counts.failed - 1);
      assert.ok(m.sum('docdrop_api_requests_total', { operation: 'GET /files' }) >= counts.done + counts.failed - 1);
      assert.equal(m.sum('docdrop_oldest_unfinished_input_age_seconds', { rule: 'invoices' }), 0);
      const lastSuccess = m.sum('docdrop_last_success_timestamp_seconds', { rule: 'invoices' });
      assert.ok(lastSuccess > Date.now() / 1000 - 300 && lastSuccess <= Date.now() / 1000, `last success ${lastSuccess}`);
      assert.equal(m.sum('docdrop_queue_waiting', { queue: 'upload' }), 0);
      assert.equal(m.sum('docdrop_ready'), 1);
      assert.ok(m.samples('process_resident_memory_bytes').length === 1, 'default process metrics');
    } finally {
      await daemon.stop();
      await tree.cleanup();
    }
  });
});

describe('daemon health listener: readiness and liveness', () => {
  test('/readyz is 503 naming the service check while the service is away, and 200 again once it is back', async () => {
    const first = await startTestService({ keepDataDir: true });
    await new ServiceClient({ baseUrl: first.url, apiKey: first.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
    const port = Number(new URL(first.url).port);
    const tree = await tempTree();
    const daemon = await startWithHealth(first, tree);
    let again: TestService | null = null;
    try {
      const ready = await readyz(daemon);
      assert.equal(ready.status, 200);
      assert.deepEqual(ready.body.failed, []);
      assert.deepEqual(Object.keys(ready.body.checks).sort(), ['folder:invoices', 'ledger_writable', 'service']);

      await first.close();
      const down = await waitFor('/readyz to turn unready', async () => {
        const r = await readyz(daemon);
        return r.status === 503 ? r : undefined;
      });
      assert.equal(down.body.status, 'unready');
      assert.deepEqual(down.body.failed, ['service']);
      assert.match(down.body.checks.service!, /^failed: /);
      assert.equal(down.body.checks.ledger_writable, 'ok');
      const m = await scrape(`${daemon.healthUrl}/metrics`);
      assert.equal(m.sum('docdrop_ready'), 0);
      assert.equal(m.sum('docdrop_readiness_check', { check: 'service' }), 0);

      again = await startTestService({ dataDir: first.dataDir, port });
      const back = await waitFor('/readyz to be ready again', async () => {
        const r = await readyz(daemon);
        return r.status === 200 ? r : undefined;
      });
      assert.equal(back.body.checks.service, 'ok');
    } finally {
      await daemon.stop();
      await again?.close();
      await rm(first.dataDir, { recursive: true, force: true });
      await tree.cleanup();
    }
  });

  test('/readyz fails the folder check while a watched folder is missing; /healthz reports the loop ticking; other paths are 404', async () => {
    const svc = await startTestService();
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
    const tree = await tempTree();
    const daemon = await startWithHealth(svc, tree);
    try {
      const health = await fetch(`${daemon.healthUrl}/healthz`);
      assert.equal(health.status, 200);
      const body = (await health.json()) as { status: string; last_tick_s_ago: number };
      assert.equal(body.status, 'ok');
      assert.ok(body.last_tick_s_ago < 30);

      const inbox = join(tree.root, 'inbox', 'invoices');
      await rename(inbox, `${inbox}-unmounted`);
      const r = await waitFor('the folder check to fail', async () => {
        const x = await readyz(daemon);
        return x.status === 503 ? x : undefined;
      });
      assert.deepEqual(r.body.failed, ['folder:invoices']);
      assert.match(r.body.checks['folder:invoices']!, /missing/);

      assert.equal((await fetch(`${daemon.healthUrl}/nope`)).status, 404);
      assert.equal((await fetch(`${daemon.healthUrl}/metrics`, { method: 'POST' })).status, 405);
    } finally {
      await daemon.stop();
      await svc.close();
      await tree.cleanup();
    }
  });
});
