// While `docdrop run` keeps an embedded service, its URL is in <state dir>/embedded-service.json: status
// shows it (the key only with --show-key), the other commands use that service instead of starting a
// second one, and a note left by a dead daemon is recognised as stale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connectConfigured } from '../../src/cli/service-connection.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { embeddedNotePath, findEmbeddedService } from '../../src/daemon/embedded-discovery.js';
import { silentLogger } from '../../src/shared/logger.js';
import { docdrop } from '../helpers/cli.js';
import { numberedInvoice, tempTree, writeConfig } from './pipeline-fixtures.js';

test('a running daemon announces its embedded service; status, try and the connection helper find it; stop removes the note', async () => {
  const tree = await tempTree('docdrop-discovery-');
  const { path: configPath, config } = await writeConfig(
    tree.root,
    [
      'log_level: silent',
      'service: { base_url: embedded }',
      'state: { path: ./var/state.db }',
      'workflows:',
      '  - { title: Invoices, type: invoice, fields: [{ name: invoice_number, type: text, description: "Invoice number" }, { name: total, type: number, description: "Total" }] }',
      'rules:',
      '  - { name: invoices, watch: ./var/inbox/invoices, workflow: Invoices }',
      '',
    ].join('\n'),
  );
  const note = embeddedNotePath(config);
  const daemon = await startDaemon(config, { logger: silentLogger });
  try {
    const written = JSON.parse(await readFile(note, 'utf8')) as { url: string; pid: number; started_at: string };
    assert.equal(written.url, daemon.serviceUrl);
    assert.equal(written.pid, process.pid);
    assert.equal((await stat(note)).mode & 0o777, 0o600);
    const key = (await readFile(join(tree.root, 'var', 'embedded-api-key'), 'utf8')).trim();

    const status = await docdrop(['status', '--json', '--config', configPath]);
    assert.equal(status.code, 0, status.stderr);
    const service = (JSON.parse(status.stdout) as { service: Record<string, unknown> }).service;
    assert.deepEqual({ ...service, started_at: null }, {
      base_url: 'embedded',
      url: daemon.serviceUrl,
      running: true,
      pid: process.pid,
      started_at: null,
      key_file: join(tree.root, 'var', 'embedded-api-key'),
    });
    assert.ok(!status.stdout.includes(key), 'the key only with --show-key');
    const table = await docdrop(['status', '--config', configPath]);
    assert.match(table.stdout, new RegExp(`^service: embedded, running at ${daemon.serviceUrl} \\(daemon pid ${process.pid}, since .+\\); key in .+embedded-api-key$`, 'm'));
    const shown = await docdrop(['status', '--show-key', '--config', configPath]);
    assert.match(shown.stdout, new RegExp(`^api key: ${key}$`, 'm'));

    const conn = await connectConfigured(config, silentLogger);
    assert.equal(conn.via, 'daemon');
    assert.equal(conn.url, daemon.serviceUrl);
    await conn.close();

    const file = join(tree.root, 'invoice.pdf');
    await writeFile(file, await numberedInvoice(51));
    const tried = await docdrop(['try', file, '--workflow', 'Invoices', '--json', '--config', configPath]);
    assert.equal(tried.code, 0, tried.stderr);
    const requestId = (JSON.parse(tried.stdout) as { request_id: string }).request_id;
    assert.equal((await daemon.client.getJob(requestId)).request_status, 'completed', "the job ran on the daemon's service");
  } finally {
    await daemon.stop();
  }
  try {
    await assert.rejects(stat(note), { code: 'ENOENT' });
    const status = await docdrop(['status', '--config', configPath]);
    assert.match(status.stdout, /^service: embedded, not running \(docdrop run starts it\); key in /m);
  } finally {
    await tree.cleanup();
  }
});

test('a note left by a daemon that is gone, or whose port no longer answers, is stale', async () => {
  const tree = await tempTree('docdrop-stale-');
  try {
    const { config } = await writeConfig(tree.root, ['service: { base_url: embedded }', 'state: { path: ./var/state.db }', 'rules:', '  - { name: r, watch: ./var/inbox, workflow: W }', ''].join('\n'));
    await mkdir(join(tree.root, 'var'));
    const deadPid = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
    await writeFile(embeddedNotePath(config), JSON.stringify({ url: 'http://127.0.0.1:9', pid: deadPid, started_at: new Date().toISOString() }));
    const gone = await findEmbeddedService(config);
    assert.equal(gone.running, false);
    assert.match(!gone.running ? (gone.stale ?? '') : '', new RegExp(`process ${deadPid} is gone`));
    await writeFile(embeddedNotePath(config), JSON.stringify({ url: 'http://127.0.0.1:9', pid: process.pid, started_at: new Date().toISOString() }));
    const silent = await findEmbeddedService(config);
    assert.equal(silent.running, false);
    assert.match(!silent.running ? (silent.stale ?? '') : '', /http:\/\/127\.0\.0\.1:9 does not answer/);
  } finally {
    await tree.cleanup();
  }
});
