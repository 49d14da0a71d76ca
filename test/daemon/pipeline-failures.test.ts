// A step that fails in a way retrying cannot fix fails its input at once, with docdrop's code for the
// reason (docs/errors.md), instead of being retried with backoff. Real service, real daemon, real folders.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/shared/logger.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, listFiles, numberedInvoice, tempTree, waitFor, writeConfig } from './pipeline-fixtures.js';

describe('permanent failures of a step', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
  });
  after(() => svc.close());

  test('an output folder whose path is taken by a file fails the input at once with file_refused, not after retries', async () => {
    const tree = await tempTree();
    const { config } = await writeConfig(tree.root, configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]! }));
    const inbox = config.rules[0]!.watch;
    await mkdir(inbox, { recursive: true });
    // `cp report.csv outbox/invoices` before the folder existed: a file where the rule's output folder should be.
    await mkdir(join(tree.root, 'outbox'));
    await writeFile(join(tree.root, 'outbox', 'invoices'), 'not a folder');
    const daemon = await startDaemon(config, { logger: silentLogger });
    try {
      await writeFile(join(inbox, 'inv.pdf'), await numberedInvoice(1));
      const failed = await waitFor('the input failed', async () => (await daemon.ledger.list({ state: 'failed' }))[0]);

      assert.match(failed.lastError ?? '', /^file_refused: ENOTDIR/);
      assert.equal(failed.attempts, 0, 'no attempt was retried');
      const kinds = (await daemon.ledger.events(failed.id)).map((e) => e.kind);
      assert.ok(kinds.includes('extracted'), `the service did its part first: ${kinds.join(', ')}`);
      assert.ok(!kinds.includes('error'), `no retry was scheduled: ${kinds.join(', ')}`);

      const failedDir = join(tree.root, 'failed', 'invoices');
      assert.deepEqual(await listFiles(failedDir), ['inv.pdf', 'inv.pdf.error.json']);
      const note = JSON.parse(await readFile(join(failedDir, 'inv.pdf.error.json'), 'utf8')) as Record<string, unknown>;
      assert.equal(note.kind, 'file_refused');
      assert.equal(note.code, 'ENOTDIR');
      assert.match(String(note.reason), /not a directory/);
      assert.equal(typeof note.request_id, 'string');
    } finally {
      await daemon.stop();
      await tree.cleanup();
    }
  });
});
