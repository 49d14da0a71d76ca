// The notify: section and rules[].notify: defaults, each mistake named by its key path, the SMTP password
// read from a file, redacted by describeConfig, and neither expanded nor read with secrets: 'skip'.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeConfig, loadConfig, parseConfig } from '../../src/daemon/config/config.js';
import { BASE, problems } from './config-problems.js';
import { notifySettings } from '../../src/daemon/notify/settings.js';

const RULES = 'rules:\n  - name: invoices\n    watch: ./in\n    workflow: Invoices\n';
const NOTIFY = 'notify:\n  smtp: { host: smtp.example.com }\n  from: docdrop@example.com\n  to: [ops@example.com]\n';

test('notify: defaults, and absent when not configured', () => {
  assert.equal(parseConfig(RULES, { baseDir: BASE, env: {} }).notify, undefined);
  assert.equal(notifySettings(parseConfig(RULES, { baseDir: BASE, env: {} })), null);
  const n = parseConfig(RULES + NOTIFY, { baseDir: BASE, env: {} }).notify!;
  assert.deepEqual(n, {
    smtp: { host: 'smtp.example.com', port: 587, secure: false, insecure_plaintext: false, tls_ca_file: undefined, password: undefined },
    from: 'docdrop@example.com',
    to: ['ops@example.com'],
    failures: { min_interval_s: 300 },
    down_after_s: 300,
    max_queued: 100,
    attachment_max_mb: 10,
  });
});

test('notify: the example of the issue loads, with the password from a file, redacted by describeConfig', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-notify-config-'));
  try {
    await writeFile(join(dir, 'smtp.pass'), 'smtp-Secret-42\n');
    const yaml =
      RULES +
      'notify:\n' +
      '  smtp: { host: smtp.example.com, port: 587, secure: false, user: docdrop, password_file: smtp.pass }\n' +
      '  from: docdrop@example.com\n  to: [ops@example.com]\n  failures: { min_interval_s: 300 }\n  digest: { at: "07:00" }\n';
    await writeFile(join(dir, 'd.yaml'), yaml);
    const c = await loadConfig(join(dir, 'd.yaml'), {});
    assert.equal(c.notify!.smtp.password, 'smtp-Secret-42');
    assert.equal(c.notify!.smtp.user, 'docdrop');
    assert.deepEqual(c.notify!.digest, { at: '07:00' });
    assert.ok(!JSON.stringify(describeConfig(c)).includes('smtp-Secret-42'));
    assert.equal(c.notify!.smtp.password, 'smtp-Secret-42', 'describeConfig leaves the config untouched');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('notify: each mistake is named with its key path', () => {
  const got = problems(
    RULES.replace('workflow: Invoices', 'workflow: Invoices\n    notify: { to: ["not an address"] }') +
      'notify:\n  smtp: { host: h, user: u, secure: true, insecure_plaintext: true }\n  from: "a@b\\nBcc: x@y"\n  to: []\n  digest: { at: "7:00" }\n',
  );
  assert.ok(got.includes('notify.from: expected a plain e-mail address like ops@example.com, got "a@b\\nBcc: x@y"'), got.join('\n'));
  assert.ok(got.includes('notify.to: expected at least one address, got a list'), got.join('\n'));
  assert.ok(got.includes('notify.digest.at: expected a local time "HH:MM" (00:00 to 23:59), got "7:00"'), got.join('\n'));
  assert.ok(got.includes('rules[0].notify.to[0]: expected a plain e-mail address like ops@example.com, got "not an address"'), got.join('\n'));

  const semantic = problems(RULES + 'notify:\n  smtp: { host: h, user: u, secure: true, insecure_plaintext: true }\n  from: a@b.c\n  to: [o@b.c]\n');
  assert.ok(semantic.includes('notify.smtp.insecure_plaintext: only used with secure: false, but secure is true'), semantic.join('\n'));
  assert.ok(semantic.some((p) => p.startsWith('notify.smtp.password: required with user')), semantic.join('\n'));
  assert.ok(
    problems(RULES + NOTIFY.replace('host: smtp.example.com', 'host: h, password: p')).includes('notify.smtp.user: required with a password (the login name)'),
  );
});

test('rules[].notify needs the notify section, and attach_output a per-document output', () => {
  const rule = (extra: string) => RULES.replace('workflow: Invoices', `workflow: Invoices\n${extra}`);
  assert.ok(
    problems(rule('    notify: { to: [ap@example.com] }\n')).includes(
      'rules[0].notify: needs the top-level notify section (its smtp server and from address send these mails)',
    ),
  );
  assert.ok(
    problems(rule('    output: { group: daily }\n    notify: { to: [ap@example.com], attach_output: true }\n') + NOTIFY).includes(
      'rules[0].notify.attach_output: needs output.group: per_document, got daily (a daily file grows all day)',
    ),
  );
  const c = parseConfig(rule('    notify: { to: [ap@example.com], attach_output: true }\n') + NOTIFY, { baseDir: BASE, env: {} });
  assert.deepEqual(notifySettings(c)!.rules.get('invoices'), { to: ['ap@example.com'], attachOutput: true });
});

test("notify: secrets: 'skip' neither expands nor reads the SMTP password; a mistyped one is never echoed", () => {
  const yaml = RULES + NOTIFY.replace('host: smtp.example.com', 'host: smtp.example.com, user: u, password_file: "${CREDENTIALS_DIRECTORY}/smtp"');
  assert.match(problems(yaml).join('\n'), /CREDENTIALS_DIRECTORY is not set/);
  const c = parseConfig(yaml, { baseDir: BASE, env: {}, secrets: 'skip' });
  assert.equal(c.notify!.smtp.password, undefined);
  const got = problems(RULES + NOTIFY.replace('host: smtp.example.com', 'host: h, user: u, password: 123456'));
  assert.ok(got.some((p) => p.startsWith('notify.smtp.password: expected string, got a value of the wrong kind')), got.join('\n'));
});
