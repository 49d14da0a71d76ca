// `docdrop doctor` as a person runs it against a real `docdrop serve` and a real dovecot: a pass list
// for a good config, and the failures named (wrong key, missing folder, unknown Workflow, bad mailbox
// password), with exit 1 and no secret printed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { inotifyChecks } from '../../src/cli/doctor-local-checks.js';
import { parseConfig } from '../../src/daemon/config/config.js';
import { docdrop } from '../helpers/cli.js';
import { hasDovecot, startDovecot, type Dovecot } from '../helpers/dovecot.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { invoiceTemplate, tempTree, type TempTree } from './pipeline-fixtures.js';

interface Checked {
  ok: boolean;
  checks: { status: string; name: string; detail: string }[];
}

describe('docdrop doctor', () => {
  let svc: TestService;
  let tree: TempTree;
  before(async () => {
    svc = await startTestService();
    tree = await tempTree('docdrop-doctor-');
    await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
  });
  after(async () => {
    await svc.close();
    await tree.cleanup();
  });

  async function configAt(name: string, o: { apiKey?: string; workflow?: string; createInbox?: boolean; mailbox?: string } = {}): Promise<string> {
    const root = join(tree.root, name);
    await mkdir(root, { recursive: true });
    if (o.createInbox !== false) await mkdir(join(root, 'inbox'), { recursive: true });
    const path = join(root, 'docdrop.yaml');
    await writeFile(
      path,
      [
        'service:',
        `  base_url: ${svc.url}`,
        `  api_key: ${o.apiKey ?? svc.keys[0]}`,
        `state: { path: ${join(root, 'var', 'state.db')} }`,
        'rules:',
        `  - { name: invoices, watch: ${join(root, 'inbox')}, workflow: "${o.workflow ?? 'Invoices'}", output: { dir: ${join(root, 'out')} } }`,
        ...(o.mailbox ? ['mailboxes:', o.mailbox] : []),
        '',
      ].join('\n'),
    );
    return path;
  }

  const byName = (c: Checked, name: string) => c.checks.filter((x) => x.name === name);

  test('a good config passes every check and exits 0', async () => {
    const r = await docdrop(['doctor', '--config', await configAt('good')]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^PASS\s+config\s/m);
    assert.match(r.stdout, /^PASS\s+service\s+http:\/\/127\.0\.0\.1:\d+ answers and accepts the key/m);
    assert.match(r.stdout, /^PASS\s+rule invoices: workflow\s+"Invoices" \(/m);
    assert.match(r.stdout, /^PASS\s+rule invoices: watch folder\s/m);
    assert.match(r.stdout, /^PASS\s+rule invoices: managed folders\s/m);
    assert.match(r.stdout, /^PASS\s+state database\s+.*state\.db will be created/m);
    assert.match(r.stdout, /^(PASS|WARN)\s+inotify\s+max_user_watches \d+/m);
    assert.match(r.stdout, /^(PASS|WARN)\s+free disk\s+\d+ MB free/m);
    assert.match(r.stdout, /\d+ passed, \d+ warnings, 0 failed/);
  });

  test('a wrong key, a missing watch folder and too little disk fail with their reasons, exit 1, and the key is not printed', async () => {
    const r = await docdrop(['doctor', '--json', '--min-free-mb', String(Number.MAX_SAFE_INTEGER), '--config', await configAt('bad', { apiKey: 'wrong-key-0123456789', createInbox: false })]);
    assert.equal(r.code, 1);
    const c = JSON.parse(r.stdout) as Checked;
    assert.equal(c.ok, false);
    assert.match(byName(c, 'service')[0]!.detail, /refuses the API key \(HTTP 401\)/);
    assert.equal(byName(c, 'service')[0]!.status, 'fail');
    assert.equal(byName(c, 'rule targets')[0]!.status, 'fail', 'targets are not checked without the service');
    const watch = byName(c, 'rule invoices: watch folder')[0]!;
    assert.equal(watch.status, 'fail');
    assert.match(watch.detail, /inbox does not exist/);
    assert.ok(byName(c, 'free disk').every((d) => d.status === 'fail'));
    assert.ok(!r.stdout.includes('wrong-key-0123456789') && !r.stderr.includes('wrong-key-0123456789'));
  });

  test('a rule naming an unknown Workflow fails, listing the Workflows that exist; a broken config is one failed check', async () => {
    const r = await docdrop(['doctor', '--config', await configAt('unknown', { workflow: 'Purchase orders' })]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^FAIL\s+rule invoices: workflow\s+.*"Purchase orders" matches no Workflow.*"Invoices"/m);
    const broken = join(tree.root, 'broken.yaml');
    await writeFile(broken, 'rules: []\n');
    const b = await docdrop(['doctor', '--config', broken]);
    assert.equal(b.code, 1);
    assert.match(b.stdout, /^FAIL\s+config\s+.*rules: expected at least one rule/m);
  });

  describe('mailboxes', { skip: !hasDovecot && 'dovecot not installed (apt-get install dovecot-imapd) or not root' }, () => {
    let imap: Dovecot;
    before(async () => {
      imap = await startDovecot({ ap: 'right-password' }, { tls: true });
    });
    after(async () => imap?.stop());

    const mailbox = (password: string) =>
      `  - { name: ap, host: 127.0.0.1, port: ${imap.port}, tls_ca_file: ${imap.certFile}, user: ap, password: ${password}, rule: invoices }`;

    test('a mailbox that logs in passes; a wrong password fails as a refused login, without the password', async () => {
      const good = await docdrop(['doctor', '--config', await configAt('mail-good', { mailbox: mailbox('right-password') })]);
      assert.equal(good.code, 0, good.stdout + good.stderr);
      assert.match(good.stdout, /^PASS\s+mailbox ap\s+ap@127\.0\.0\.1:\d+ logs in \(TLS\)/m);
      const bad = await docdrop(['doctor', '--config', await configAt('mail-bad', { mailbox: mailbox('not-the-password') })]);
      assert.equal(bad.code, 1);
      assert.match(bad.stdout, /^FAIL\s+mailbox ap\s+ap@127\.0\.0\.1:\d+ refuses the login: wrong user or password/m);
      assert.ok(!bad.stdout.includes('not-the-password') && !bad.stderr.includes('not-the-password'));
    });
  });
});

test('inotify: too few watches for the folders watched fails, more than half warns', async () => {
  const tree = await tempTree('docdrop-inotify-');
  try {
    for (const d of ['a', 'a/b', 'a/c']) await mkdir(join(tree.root, 'inbox', d), { recursive: true });
    const proc = join(tree.root, 'proc');
    await mkdir(proc);
    const config = parseConfig(`rules:\n  - { name: r, watch: ${join(tree.root, 'inbox')}, workflow: W }\n`, { baseDir: tree.root, env: {} });
    const limits = async (watches: number) => {
      await writeFile(join(proc, 'max_user_watches'), `${watches}\n`);
      await writeFile(join(proc, 'max_user_instances'), '128\n');
      return (await inotifyChecks(config, proc))[0]!;
    };
    assert.equal((await limits(3)).status, 'fail', '4 folders (inbox, a, a/b, a/c) need 4 watches');
    assert.match((await limits(3)).detail, /4 folders watched natively: too few watches/);
    assert.equal((await limits(6)).status, 'warn');
    assert.equal((await limits(100)).status, 'pass');
  } finally {
    await tree.cleanup();
  }
});
