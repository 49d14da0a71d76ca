// The daemon's commands as a person runs them: `docdrop process`, `status --json`, `retry --failed`,
// spawned as real processes against a real service and a real ledger.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { openLedger } from '../../src/daemon/ledger/open-ledger.js';
import { silentLogger } from '../../src/shared/logger.js';
import { docdrop } from '../helpers/cli.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, listFiles, numberedInvoice, readCsvFile, tempTree, waitFor, writeConfig, type TempTree } from './pipeline-fixtures.js';

describe('docdrop CLI', () => {
  let svc: TestService;
  let tree: TempTree;
  before(async () => {
    svc = await startTestService();
    tree = await tempTree('docdrop-cli-');
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
  });
  after(async () => {
    await svc.close();
    await tree.cleanup();
  });

  test('process exits 0 when every file succeeded and writes one output per file', async () => {
    const files = [join(tree.root, 'a.pdf'), join(tree.root, 'b.pdf')];
    await writeFile(files[0]!, await numberedInvoice(11));
    await writeFile(files[1]!, await numberedInvoice(12));
    const out = join(tree.root, 'out-ok');
    const r = await docdrop(['process', ...files, '--workflow', 'Invoices', '--out', out, '--base-url', svc.url, '--api-key', svc.keys[0]!]);
    assert.equal(r.code, 0, r.stderr);
    const outputs = await listFiles(out);
    assert.equal(outputs.length, 2);
    const numbers = await Promise.all(outputs.map(async (o) => (await readCsvFile(join(out, o))).rows[0]!.invoice_number));
    assert.deepEqual(numbers.sort(), ['INV-00011', 'INV-00012']);
    assert.match(r.stdout, /ok\s+.*a\.pdf/);
  });

  test('process exits non-zero and names each failed file with its reason', async () => {
    const good = join(tree.root, 'good.pdf');
    const bad = join(tree.root, 'bad.pdf');
    await writeFile(good, await numberedInvoice(13));
    await writeFile(bad, 'plain text pretending to be a PDF');
    const empty = join(tree.root, 'empty.pdf');
    await writeFile(empty, '');
    const out = join(tree.root, 'out-mixed');
    const r = await docdrop(['process', good, bad, empty, join(tree.root, 'missing.pdf'), '--workflow', 'Invoices', '--out', out, '--base-url', svc.url, '--api-key', svc.keys[0]!]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /failed\s+.*bad\.pdf: unsupported_file_type/);
    assert.match(r.stderr, /failed\s+.*empty\.pdf: empty_file: the file is empty/);
    assert.match(r.stderr, /failed\s+.*missing\.pdf: cannot read the file: ENOENT/);
    assert.match(r.stderr, /3 of 4 file\(s\) failed/);
    assert.equal((await listFiles(out)).length, 1, 'the good file still has its output');
  });

  test('process refuses an unknown Workflow with a message listing the existing ones', async () => {
    const f = join(tree.root, 'c.pdf');
    await writeFile(f, await numberedInvoice(14));
    const r = await docdrop(['process', f, '--workflow', 'Nope', '--out', join(tree.root, 'out-x'), '--base-url', svc.url, '--api-key', svc.keys[0]!]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /"Nope".*"Invoices"/s);
  });

  test('status --json counts inputs by state and retry --failed brings a failed file back to its inbox', async () => {
    const root = join(tree.root, 'daemon');
    await mkdir(root, { recursive: true });
    const { path: configPath, config } = await writeConfig(root, configYaml({ root, baseUrl: svc.url, apiKey: svc.keys[0]! }));
    const inbox = config.rules[0]!.watch;
    await mkdir(inbox, { recursive: true });
    await writeFile(join(inbox, 'inv.pdf'), await numberedInvoice(21));
    await writeFile(join(inbox, 'junk.pdf'), 'not a pdf at all');
    const daemon = await startDaemon(config, { logger: silentLogger });
    try {
      await waitFor('both inputs final', async () => {
        const c = await daemon.ledger.countByState();
        return c.done === 1 && c.failed === 1;
      });
    } finally {
      await daemon.stop();
    }

    const status = await docdrop(['status', '--json', '--config', configPath]);
    assert.equal(status.code, 0, status.stderr);
    const parsed = JSON.parse(status.stdout) as { counts: Record<string, number>; inputs: { state: string; path: string; last_error: string | null }[] };
    assert.equal(parsed.counts.done, 1);
    assert.equal(parsed.counts.failed, 1);
    const failed = parsed.inputs.find((i) => i.state === 'failed')!;
    assert.equal(failed.path, join(inbox, 'junk.pdf'));
    assert.match(failed.last_error ?? '', /unsupported_file_type/);

    const table = await docdrop(['status', '--state', 'failed', '--config', configPath]);
    assert.match(table.stdout, /failed: 1/);
    assert.match(table.stdout, /junk\.pdf/);

    const retry = await docdrop(['retry', '--failed', '--config', configPath]);
    assert.equal(retry.code, 0, retry.stderr);
    assert.match(retry.stdout, /retried #\d+ .*junk\.pdf/);
    assert.deepEqual(await listFiles(inbox), ['junk.pdf']);
    assert.deepEqual(await listFiles(join(root, 'failed', 'invoices')), [], 'file and its .error.json left failed_dir');
  });

  test('status and retry run outside the systemd unit: the secrets the config names under ${CREDENTIALS_DIRECTORY} are not read', async () => {
    const root = join(tree.root, 'no-credentials');
    await mkdir(root, { recursive: true });
    const configPath = join(root, 'docdrop.yaml');
    await writeFile(
      configPath,
      [
        'service:',
        '  base_url: https://docs.example.com',
        '  api_key_file: ${CREDENTIALS_DIRECTORY}/api_key',
        `state: { path: ${join(root, 'state.db')} }`,
        'rules:',
        `  - { name: invoices, watch: ${join(root, 'inbox')}, workflow: Invoices }`,
        'mailboxes:',
        '  - { name: ap, host: imap.example.com, user: ap, password_file: "${CREDENTIALS_DIRECTORY}/imap_password", rule: invoices }',
        '',
      ].join('\n'),
    );
    const env = { ...process.env };
    delete env.CREDENTIALS_DIRECTORY;
    const status = await docdrop(['status', '--json', '--config', configPath], env);
    assert.equal(status.code, 0, status.stderr);
    assert.deepEqual((JSON.parse(status.stdout) as { inputs: unknown[] }).inputs, []);
    const retry = await docdrop(['retry', '--failed', '--config', configPath], env);
    assert.equal(retry.code, 0, retry.stderr);
    assert.match(retry.stdout, /nothing to retry/);
    const daemon = await docdrop(['run', '--config', configPath], env);
    assert.equal(daemon.code, 1, 'the daemon itself still needs its key');
    assert.match(daemon.stderr, /CREDENTIALS_DIRECTORY is not set/);
  });

  test('status lists the newest inputs first', async () => {
    const root = join(tree.root, 'newest-first');
    await mkdir(root, { recursive: true });
    const { path: configPath, config } = await writeConfig(root, configYaml({ root, baseUrl: svc.url, apiKey: svc.keys[0]! }));
    const ledger = await openLedger(config.state);
    try {
      for (const name of ['first.pdf', 'second.pdf', 'third.pdf']) {
        await ledger.addInput({ rule: 'invoices', path: join(root, name), size: 1, mtimeMs: 1, sha256: name });
      }
    } finally {
      await ledger.close();
    }
    const paths = async (extra: string[]) => {
      const r = await docdrop(['status', '--json', '--config', configPath, ...extra]);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { inputs: { path: string }[] }).inputs.map((i) => i.path.slice(root.length + 1));
    };
    assert.deepEqual(await paths([]), ['third.pdf', 'second.pdf', 'first.pdf']);
    assert.deepEqual(await paths(['--limit', '2']), ['third.pdf', 'second.pdf']);
    assert.deepEqual(await paths(['--limit', '0']), ['third.pdf', 'second.pdf', 'first.pdf']);
    const bad = await docdrop(['status', '--config', configPath, '--limit', 'x']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--limit: expected a whole number, 0 or more, got "x"/);
  });
});
