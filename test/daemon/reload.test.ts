// A config reload on a running daemon (what SIGHUP does; the signal itself: run-under-systemd.test.ts):
// a removed rule's input in flight still finishes while its folder is no longer watched, settings that
// cannot change live and unknown Workflows refuse the reload and leave the running config in place.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { parseConfig } from '../../src/daemon/config/config.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { restartOnlyChanges, ruleChanges } from '../../src/daemon/reload/config-changes.js';
import { startMailIntakes } from '../../src/daemon/intake/mail/mail-intakes.js';
import { silentLogger } from '../../src/shared/logger.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, listFiles, numberedInvoice, tempTree, waitFor, type RuleYaml, type TempTree } from './pipeline-fixtures.js';

describe('config reload', () => {
  let svc: TestService;
  let tree: TempTree;
  before(async () => {
    // Every job takes 1.5 s, so an input is still in flight when the reload comes.
    svc = await startTestService({ faults: { jobDelayMs: 1500 } });
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
    tree = await tempTree('docdrop-reload-');
  });
  after(async () => {
    await svc.close();
    await tree.cleanup();
  });

  const configFor = (root: string, rules: RuleYaml[], edit = (y: string) => y) =>
    parseConfig(edit(configYaml({ root, baseUrl: svc.url, apiKey: svc.keys[0]!, rules })), { baseDir: root });

  test('a removed rule stops being watched, and its input in flight still finishes', async () => {
    const root = join(tree.root, 'removed');
    for (const r of ['invoices', 'receipts']) await mkdir(join(root, 'inbox', r), { recursive: true });
    const daemon = await startDaemon(configFor(root, [{ name: 'invoices' }, { name: 'receipts' }]), { logger: silentLogger });
    try {
      await writeFile(join(root, 'inbox', 'receipts', 'in-flight.pdf'), await numberedInvoice(1));
      const input = await waitFor('the receipt submitted', async () => (await daemon.ledger.list({ state: 'submitted' }))[0]);
      const outcome = await daemon.reload(configFor(root, [{ name: 'invoices' }]));
      assert.deepEqual(outcome, { applied: true, added: [], removed: ['receipts'], changed: [] });
      assert.deepEqual(daemon.config.rules.map((r) => r.name), ['invoices']);

      await writeFile(join(root, 'inbox', 'receipts', 'after-removal.pdf'), await numberedInvoice(2));
      await writeFile(join(root, 'inbox', 'invoices', 'kept.pdf'), await numberedInvoice(3));
      await waitFor('the input in flight done', async () => (await daemon.ledger.get(input.id))?.state === 'done');
      assert.equal((await listFiles(join(root, 'outbox', 'receipts'))).length, 1, 'its output was written');
      await waitFor('the kept rule still works', async () => (await daemon.ledger.countByState()).done === 2);
      const taken = (await daemon.ledger.list({})).map((r) => r.path);
      assert.ok(!taken.some((p) => p.endsWith('after-removal.pdf')), 'a file dropped into the removed rule folder is not taken');
      assert.deepEqual(await listFiles(join(root, 'inbox', 'receipts')), ['after-removal.pdf']);
    } finally {
      await daemon.stop();
    }
  });

  test('a changed state.path or service key, or an unknown Workflow, refuses the reload and keeps the running config', async () => {
    const root = join(tree.root, 'refused');
    await mkdir(join(root, 'inbox', 'invoices'), { recursive: true });
    const config = configFor(root, [{ name: 'invoices' }]);
    const daemon = await startDaemon(config, { logger: silentLogger });
    try {
      const moved = await daemon.reload(configFor(root, [{ name: 'invoices' }], (y) => y.replace('state.db', 'other.db')));
      assert.equal(moved.applied, false);
      assert.match(String(!moved.applied && moved.problems), /^state\.path: cannot change while the daemon runs .*restart the daemon/);

      const rekeyed = await daemon.reload(configFor(root, [{ name: 'invoices' }], (y) => y.replace(svc.keys[0]!, 'another-key')));
      assert.equal(rekeyed.applied, false);
      const text = JSON.stringify(rekeyed);
      assert.match(text, /service\.api_key: cannot change/);
      assert.ok(!text.includes('another-key') && !text.includes(svc.keys[0]!), 'no key in the message');

      const unknown = await daemon.reload(configFor(root, [{ name: 'invoices' }, { name: 'other', workflow: 'Nope' }]));
      assert.equal(unknown.applied, false);
      assert.match(String(!unknown.applied && unknown.problems), /rule "other": workflow "Nope" matches no Workflow.*"Invoices"/);

      assert.equal(daemon.config, config, 'the running config is still the first one');
      await writeFile(join(root, 'inbox', 'invoices', 'still.pdf'), await numberedInvoice(4));
      await waitFor('a file still processed', async () => (await daemon.ledger.countByState()).done === 1);
    } finally {
      await daemon.stop();
    }
  });

  test('limits and rule settings change in place; a generated embedded key is no change', () => {
    const root = join(tree.root, 'diff');
    const a = configFor(root, [{ name: 'invoices' }]);
    const b = configFor(root, [{ name: 'invoices', format: 'json' }, { name: 'new' }], (y) => y.replace('upload_concurrency: 4', 'upload_concurrency: 1'));
    assert.deepEqual(restartOnlyChanges(a, b), []);
    const changes = ruleChanges(a.rules, b.rules);
    assert.deepEqual([changes.added, changes.removed, changes.changed], [['new'], [], ['invoices']]);
    assert.deepEqual(changes.toResolve.map((r) => r.name), ['new'], 'only a new or re-targeted rule is looked up');
    const embedded = (y: string) => y.replace(`base_url: ${svc.url}`, 'base_url: embedded').replace(/ {2}api_key: .*\n/, '');
    assert.deepEqual(restartOnlyChanges(configFor(root, [{}], embedded), configFor(root, [{}], embedded)), []);
  });

  test('mailboxes: an added one starts, a removed one stops, a changed one (or its rule folder) restarts', async () => {
    const root = join(tree.root, 'mail');
    const mailbox = (name: string, user = 'ap') => `  - { name: ${name}, host: imap.example.com, user: ${user}, password: pw, rule: invoices }\n`;
    const withMail = (boxes: string[], rule: RuleYaml = { name: 'invoices' }) =>
      configFor(root, [rule], (y) => `${y}mailboxes:\n${boxes.join('')}`);
    const log: string[] = [];
    const mail = startMailIntakes(withMail([mailbox('a'), mailbox('b')]), (mb) => {
      log.push(`start ${mb.name}`);
      return { checkNow: async () => undefined, stop: async () => void log.push(`stop ${mb.name}`), status: () => ({ loggedIn: true }) };
    });
    await mail.update(withMail([mailbox('a'), mailbox('b', 'other'), mailbox('c')]));
    await mail.update(withMail([mailbox('a')]));
    await mail.update(withMail([mailbox('a')], { name: 'invoices', success: 'keep' }));
    await mail.stop();
    assert.deepEqual(log, ['start a', 'start b', 'stop b', 'start b', 'start c', 'stop b', 'stop c', 'stop a', 'start a', 'stop a']);
  });
});
