// `docdrop run` as systemd runs it (Type=notify, WatchdogSec=, ExecReload=kill -HUP): a real daemon
// process reports to a real unix datagram socket named by NOTIFY_SOCKET, and SIGHUP re-reads its config.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { openLedger } from '../../src/daemon/ledger/open-ledger.js';
import { startDaemonProcess, type DaemonProcess } from '../../bench/daemon-process.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { configYaml, invoiceTemplate, listFiles, numberedInvoice, tempTree, waitFor, type TempTree } from './pipeline-fixtures.js';

interface DgramSocket {
  bind(path: string): void;
  on(event: 'message', fn: (buf: Buffer) => void): void;
  close(): void;
}
const dgram = createRequire(import.meta.url)('unix-dgram') as { createSocket(type: 'unix_dgram'): DgramSocket };

describe('docdrop run under systemd', () => {
  let svc: TestService;
  let tree: TempTree;
  let socket: DgramSocket;
  const messages: string[] = [];
  let daemon: DaemonProcess;
  let configPath: string;
  let yamlOf: (rules: { name: string }[]) => string;

  before(async () => {
    svc = await startTestService();
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
    tree = await tempTree('docdrop-systemd-');
    const notifyPath = join(tree.root, 'notify.sock');
    socket = dgram.createSocket('unix_dgram');
    socket.on('message', (buf) => messages.push(buf.toString()));
    socket.bind(notifyPath);
    yamlOf = (rules) => configYaml({ root: tree.root, baseUrl: svc.url, apiKey: svc.keys[0]!, rules, logLevel: 'info' });
    configPath = join(tree.root, 'docdrop.yaml');
    await writeFile(configPath, yamlOf([{ name: 'invoices' }]));
    await mkdir(join(tree.root, 'inbox', 'invoices'), { recursive: true });
    // WATCHDOG_USEC of 0.4 s: a keep-alive every 0.2 s. WATCHDOG_PID unset means "this process".
    daemon = await startDaemonProcess(configPath, { tsx: true, env: { NOTIFY_SOCKET: notifyPath, WATCHDOG_USEC: '400000' } });
  });
  after(async () => {
    if (daemon?.child.exitCode === null) {
      daemon.child.kill('SIGKILL');
      await daemon.exited;
    }
    socket?.close();
    await svc?.close();
    await tree?.cleanup();
  });

  const received = (what: string, pred: (m: string) => boolean, from = 0) =>
    waitFor(what, async () => messages.slice(from).find(pred), 60_000);
  const doneCount = async () => {
    const ledger = await openLedger({ path: join(tree.root, 'state.db'), synchronous: 'normal' });
    try {
      return (await ledger.countByState()).done;
    } finally {
      await ledger.close();
    }
  };
  const dropAndAwait = async (rule: string, n: number) => {
    const before = await doneCount();
    await writeFile(join(tree.root, 'inbox', rule, `inv-${n}.pdf`), await numberedInvoice(n));
    await waitFor(`inv-${n}.pdf done`, async () => (await doneCount()) > before);
    assert.ok((await listFiles(join(tree.root, 'outbox', rule))).some((f) => f.startsWith(`inv-${n}`)), `output of inv-${n}.pdf`);
  };

  test('READY=1 with a STATUS line once started, then WATCHDOG=1 from the main loop', async () => {
    const ready = await received('READY=1', (m) => m.split('\n').includes('READY=1'));
    assert.match(ready, /^STATUS=0 in flight, 0 done today, 0 failed today$/m);
    const at = messages.indexOf(ready);
    await waitFor('3 keep-alives', async () => messages.slice(at).filter((m) => m === 'WATCHDOG=1').length >= 3);
  });

  test('SIGHUP with an added rule: RELOADING=1, READY=1, and the new folder is watched', async () => {
    await dropAndAwait('invoices', 1);
    await mkdir(join(tree.root, 'inbox', 'receipts'), { recursive: true });
    await writeFile(configPath, yamlOf([{ name: 'invoices' }, { name: 'receipts' }]));
    const from = messages.length;
    daemon.child.kill('SIGHUP');
    const reloading = await received('RELOADING=1', (m) => m.includes('RELOADING=1'), from);
    assert.match(reloading, /^MONOTONIC_USEC=\d+$/m);
    const ready = await received('READY=1 after the reload', (m) => m.split('\n').includes('READY=1'), messages.indexOf(reloading));
    assert.match(ready, /^STATUS=0 in flight, 1 done today, 0 failed today$/m);
    await waitFor('reload logged', async () => /"added":\["receipts"\].*"config reloaded"/.test(daemon.log()));
    await dropAndAwait('receipts', 2);
  });

  test('SIGHUP with a broken file: refused with the reason logged, the running config keeps working', async () => {
    await writeFile(configPath, yamlOf([{ name: 'invoices' }]).replace('rescan_interval_s: 5', 'rescan_interval_s: often'));
    const from = messages.length;
    daemon.child.kill('SIGHUP');
    await received('READY=1 after the refused reload', (m) => m.split('\n').includes('READY=1'), from);
    assert.match(daemon.log(), /config reload refused; the running config stays in use:.*rescan_interval_s: expected number, got \\"often\\"/);
    await dropAndAwait('receipts', 3);
    await dropAndAwait('invoices', 4);
  });

  test('SIGTERM: STOPPING=1, then a clean exit', async () => {
    const from = messages.length;
    daemon.child.kill('SIGTERM');
    await received('STOPPING=1', (m) => m.split('\n').includes('STOPPING=1'), from);
    await daemon.exited;
    assert.equal(daemon.child.exitCode, 0, daemon.log().slice(-2000));
  });
});
