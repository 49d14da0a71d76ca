import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describeConfig, loadConfig, parseConfig } from '../../src/daemon/config/config.js';
import { BASE, problems } from './config-problems.js';

const minimal = (rule = 'workflow: Invoices') => `rules:\n  - name: invoices\n    watch: ./in\n    ${rule}\n`;

test('fills every default of the documented configuration', () => {
  const c = parseConfig(minimal(), { baseDir: BASE, env: {} });
  assert.equal(c.service.base_url, 'embedded');
  assert.equal(c.service.requests_per_second, 10);
  assert.equal(c.service.upload_concurrency, 4);
  assert.equal(c.service.poll_concurrency, 16);
  assert.deepEqual(c.service.polling, { initial_s: 1, max_s: 15, give_up_after_s: 600 });
  assert.equal(c.service.submit, 'run_parser');
  assert.equal(c.state.path, '/srv/docdrop/config/var/state.db');
  assert.equal(c.state.synchronous, 'normal');
  assert.equal(c.log_level, 'info');
  assert.equal(c.rescan_interval_s, 60);
  assert.deepEqual(c.health, {}, 'no health listener unless health.listen is set');
  const r = c.rules[0];
  assert.equal(r.watch, '/srv/docdrop/config/in');
  assert.equal(r.recursive, true);
  assert.deepEqual(r.include, ['**/*']);
  assert.deepEqual(r.exclude, ['**/.*', '**/*.tmp', '**/*.part', '**/~$*']);
  assert.equal(r.stable_ms, 2000);
  assert.equal(r.watch_mode, 'native');
  assert.equal(r.duplicates, 'skip');
  assert.deepEqual(r.options, {});
  assert.deepEqual(r.output, {
    dir: '/srv/docdrop/config/var/outbox/{rule}',
    format: 'xlsx',
    layout: 'line_items',
    merge_field: 'line_items',
    include_filename: true,
    include_request_id: true,
    include_mail: false,
    confidence: false,
    group: 'per_document',
  });
  assert.deepEqual(r.after, {
    success: 'move',
    processed_dir: '/srv/docdrop/config/var/processed/{rule}/{date}',
    failed_dir: '/srv/docdrop/config/var/failed/{rule}',
    duplicates_dir: '/srv/docdrop/config/var/duplicates/{rule}',
  });
});

test('returns a frozen object', () => {
  const c = parseConfig(minimal(), { baseDir: BASE, env: {} });
  assert.ok(Object.isFrozen(c) && Object.isFrozen(c.rules[0].output) && Object.isFrozen(c.rules));
  assert.throws(() => {
    (c.service as { requests_per_second: number }).requests_per_second = 1;
  }, TypeError);
});

test('interpolates ${VAR} and ${VAR:-default} in values', () => {
  const c = parseConfig(
    `service:\n  base_url: \${URL}\n  api_key: \${KEY}\nstate:\n  path: \${STATE:-/var/lib/docdrop/state.db}\n${minimal()}`,
    { baseDir: BASE, env: { URL: 'http://10.0.0.5:8080', KEY: 'k: with colon' } },
  );
  assert.equal(c.service.base_url, 'http://10.0.0.5:8080');
  assert.equal(c.service.api_key, 'k: with colon');
  assert.equal(c.service.api_key_source, 'config');
  assert.equal(c.state.path, '/var/lib/docdrop/state.db');
});

test('names the missing environment variable and the key', () => {
  const p = problems(`service:\n  api_key: \${DOCDROP_API_KEY}\n${minimal()}`);
  assert.equal(p.length, 1);
  assert.match(p[0], /^service\.api_key: environment variable DOCDROP_API_KEY is not set/);
});

test('reports an invalid enum value with the allowed values and what was given', () => {
  const p = problems(minimal('workflow: Invoices\n    output: { format: xls }'));
  assert.deepEqual(p, ['rules[0].output.format: expected one of csv, xlsx, json, got "xls"']);
});

test('health.listen takes host:port (IPv6 in brackets) and names a malformed one', () => {
  for (const listen of ['127.0.0.1:9464', '[::1]:9464', 'localhost:0']) {
    assert.equal(parseConfig(`${minimal()}health: { listen: "${listen}" }\n`, { baseDir: BASE, env: {} }).health.listen, listen);
  }
  assert.deepEqual(problems(`${minimal()}health: { listen: "9464" }\n`), [
    'health.listen: expected host:port, e.g. "127.0.0.1:9464" (IPv6 in brackets: "[::1]:9464"), got "9464"',
  ]);
  assert.deepEqual(problems(`${minimal()}health: { listen: "127.0.0.1:70000" }\n`), ['health.listen: expected a port of at most 65535, got "127.0.0.1:70000"']);
  assert.deepEqual(problems(`${minimal()}health: { port: 9464 }\n`), ['health: unknown key "port" (check the spelling)']);
});

test('reports wrong types, unknown keys and a missing rule list', () => {
  assert.deepEqual(problems(minimal('workflow: Invoices\n    stable_ms: soon')), [
    'rules[0].stable_ms: expected number, got "soon"',
  ]);
  assert.deepEqual(problems(minimal('workflow: Invoices\n    recursve: false')), [
    'rules[0]: unknown key "recursve" (check the spelling)',
  ]);
  assert.deepEqual(problems('service: {}\n'), ['rules: required (expected array)']);
});

test('requires exactly one of workflow and classifier', () => {
  assert.match(problems(minimal('recursive: true'))[0], /^rules\[0\]: expected exactly one of "workflow".*got neither$/);
  assert.match(problems(minimal('workflow: A\n    classifier: B'))[0], /got both$/);
  const c = parseConfig(minimal('classifier: Mail sorter'), { baseDir: BASE, env: {} });
  assert.equal(c.rules[0].classifier, 'Mail sorter');
});

test('rejects run options the service forbids without use_ocr', () => {
  const p = problems(minimal('workflow: A\n    options: { detect_tables: true, split_regex: "^Page", query_model: model-3.5-turbo }'));
  assert.deepEqual(p, [
    'rules[0].options.detect_tables: requires use_ocr: true in the same options (the service rejects detect_tables without OCR)',
    'rules[0].options.split_regex: requires use_ocr: true in the same options (the service rejects split_regex without OCR)',
    'rules[0].options.query_model: "model-3.5-turbo" requires use_ocr: true in the same options',
  ]);
  for (const opt of ['detect_layout: false', 'start_regex: a', 'end_regex: b', 'use_all_matches: true']) {
    assert.equal(problems(minimal(`workflow: A\n    options: { use_ocr: false, ${opt} }`)).length, 1, opt);
  }
  const ok = parseConfig(minimal('workflow: A\n    options: { use_ocr: true, detect_tables: true, query_model: model-3.5-turbo }'), {
    baseDir: BASE,
    env: {},
  });
  assert.equal(ok.rules[0].options.detect_tables, true);
});

test('rejects malformed page ranges', () => {
  assert.match(problems(minimal('workflow: A\n    options: { page_ranges: "1-3;5" }'))[0], /^rules\[0\]\.options\.page_ranges: expected page ranges like/);
});

test('requires a merge_field for the line_items layout', () => {
  assert.deepEqual(problems(minimal('workflow: A\n    output: { layout: line_items, merge_field: null }')), [
    'rules[0].output.merge_field: layout line_items needs the table field whose rows become output rows',
  ]);
  const flat = parseConfig(minimal('workflow: A\n    output: { layout: flat, merge_field: null }'), { baseDir: BASE, env: {} });
  assert.equal(flat.rules[0].output.layout, 'flat');
});

test('rejects duplicate rule names and unknown placeholders', () => {
  const p = problems(
    'rules:\n  - { name: a, watch: ./a, workflow: W }\n  - { name: a, watch: ./b, workflow: W, output: { dir: "./out/{month}" } }\n',
  );
  assert.deepEqual(p, [
    'rules[1].output.dir: unknown placeholder {month}; expected one of {rule} {label} {date} {workflow}',
    'rules[1].name: "a" is already the name of rules[0]; names must be unique',
  ]);
});

test('records managed folders inside the watched tree and refuses one that holds the inbox', () => {
  const c = parseConfig(
    minimal('workflow: A\n    output: { dir: "./in/out/{label}" }\n    after: { processed_dir: "./in/done/{rule}/{date}", failed_dir: ./in/failed }'),
    { baseDir: BASE, env: {} },
  );
  const r = c.rules[0];
  assert.deepEqual([...r.managed_dirs].sort(), [
    '/srv/docdrop/config/in/done/invoices',
    '/srv/docdrop/config/in/failed',
    '/srv/docdrop/config/in/out',
    '/srv/docdrop/config/var/duplicates/invoices',
  ]);
  for (const d of r.managed_dirs) assert.ok(c.ignore_paths.includes(d));
  assert.ok(c.ignore_paths.includes('/srv/docdrop/config/var/state.db-wal'));

  const p = problems(minimal('workflow: A\n    after: { processed_dir: "./in/{date}" }'));
  assert.match(p[0], /managed folder \/srv\/docdrop\/config\/in .*is or contains the watched folder/);
});

test('requires an API key for a remote service and generates one for the embedded service', () => {
  assert.match(problems(`service: { base_url: "https://api.example.com" }\n${minimal()}`)[0], /^service\.api_key: required for base_url/);
  const a = parseConfig(minimal(), { baseDir: BASE, env: {} });
  const b = parseConfig(`service: { api_key: "\${NOPE:-}" }\n${minimal()}`, { baseDir: BASE, env: {} });
  assert.equal(a.service.api_key_source, 'generated');
  assert.ok(a.service.api_key.length >= 24);
  assert.notEqual(a.service.api_key, b.service.api_key);
});

test('reads api_key_file relative to the config folder and describeConfig redacts the key', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-config-'));
  try {
    await writeFile(join(dir, 'key.txt'), 'sekret-123\n');
    await writeFile(join(dir, 'd.yaml'), `service:\n  base_url: http://127.0.0.1:9\n  api_key_file: key.txt\n${minimal()}`);
    const c = await loadConfig(join(dir, 'd.yaml'), {});
    assert.equal(c.service.api_key, 'sekret-123');
    assert.equal(c.service.api_key_source, 'file');
    const text = JSON.stringify(describeConfig(c));
    assert.ok(!text.includes('sekret-123'));
    assert.match(text, /\[redacted\]/);
    assert.equal(c.service.api_key, 'sekret-123', 'describeConfig leaves the config untouched');
    await assert.rejects(loadConfig(join(dir, 'missing.yaml')), /cannot read the config file/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('loads the example config with paths under the repository root', async () => {
  const c = await loadConfig('config/docdrop.example.yaml', {});
  const root = resolve('.');
  assert.equal(c.base_dir, root);
  assert.equal(c.service.base_url, 'embedded');
  assert.equal(c.state.path, join(root, 'var/state.db'));
  assert.equal(c.rules[0].name, 'invoices');
  assert.equal(c.rules[0].workflow, 'Invoices');
  assert.equal(c.rules[0].watch, join(root, 'var/inbox/invoices'));
  assert.equal(c.rules[0].output.dir, join(root, 'var/outbox/{rule}'));
});

test('rejects a polling start interval above its cap', () => {
  assert.deepEqual(problems(`service:\n  polling: { initial_s: 30, max_s: 15 }\n${minimal()}`), [
    'service.polling.initial_s: expected at most max_s (15), got 30',
  ]);
});

test('describeConfig redacts a user name and password written into service.base_url', () => {
  const c = parseConfig(`service:\n  base_url: https://bob:hunter2@docs.example/api\n  api_key: k\n${minimal()}`, { baseDir: BASE, env: {} });
  const text = JSON.stringify(describeConfig(c));
  assert.ok(!text.includes('hunter2') && !text.includes('bob'), text);
  assert.match(text, /https:\/\/\*\*\*@docs\.example\/api/);
  assert.equal(c.service.base_url, 'https://bob:hunter2@docs.example/api', 'describeConfig leaves the config untouched');
});

test('mailboxes: defaults, password from a file, redacted by describeConfig', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-config-'));
  try {
    await writeFile(join(dir, 'imap.pw'), 'imap-pw-9\n');
    const mailbox = `mailboxes:\n  - name: ap\n    host: imap.example.com\n    user: ap@example.com\n    password_file: imap.pw\n    rule: invoices\n`;
    await writeFile(join(dir, 'd.yaml'), minimal() + mailbox);
    const c = await loadConfig(join(dir, 'd.yaml'), {});
    const m = c.mailboxes[0]!;
    assert.deepEqual(
      { port: m.port, tls: m.tls, insecure_plaintext: m.insecure_plaintext, folder: m.folder, poll_s: m.poll_s, after: m.after, password: m.password },
      { port: 993, tls: true, insecure_plaintext: false, folder: 'INBOX', poll_s: 60, after: 'seen', password: 'imap-pw-9' },
    );
    const text = JSON.stringify(describeConfig(c));
    assert.ok(!text.includes('imap-pw-9'));
    assert.deepEqual(parseConfig(minimal(), { baseDir: BASE, env: {} }).mailboxes, []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('mailboxes: each mistake is named (rule, password, move_to, CA file, insecure_plaintext with tls, duplicate names)', () => {
  const mb = (extra: string, name = 'ap') => `  - name: ${name}\n    host: h\n    user: u\n    rule: invoices\n${extra}`;
  const got = problems(
    minimal() +
      'mailboxes:\n' +
      mb('    password: p\n') +
      mb('    password: p\n    after: move\n', 'b') +
      mb('    password: p\n    password_file: /nonexistent\n', 'ap') +
      mb('', 'c') +
      mb('    password: p\n    tls_ca_file: /nonexistent/ca.pem\n    insecure_plaintext: true\n', 'e') +
      `  - name: d\n    host: h\n    user: u\n    rule: other\n    password: p\n    move_to: X\n`,
  );
  assert.ok(got.includes('mailboxes[1].move_to: required with after: move (the IMAP folder to move messages to)'), got.join('\n'));
  assert.ok(got.includes('mailboxes[2]: set password or password_file, not both'), got.join('\n'));
  assert.ok(got.some((p) => p.startsWith('mailboxes[3].password: required')), got.join('\n'));
  assert.ok(got.includes('mailboxes[4].tls_ca_file: cannot read /nonexistent/ca.pem: ENOENT'), got.join('\n'));
  assert.ok(got.includes('mailboxes[4].insecure_plaintext: only used with tls: false, but tls is true'), got.join('\n'));
  assert.ok(got.includes('mailboxes[5].rule: no rule is named "other"; expected one of "invoices"'), got.join('\n'));
  assert.ok(got.includes('mailboxes[5].move_to: only used with after: move, but after is seen'), got.join('\n'));
  assert.ok(got.includes('mailboxes[2].name: "ap" is already the name of mailboxes[0]; names must be unique'), got.join('\n'));
});

test('mailboxes[].filter: defaults take all mail; a bad regex, a wrong type or a misspelt key is named by its path', () => {
  const mb = (filter: string) => `  - name: ap\n    host: h\n    user: u\n    password: p\n    rule: invoices\n${filter}`;
  const c = parseConfig(minimal() + 'mailboxes:\n' + mb(''), { baseDir: BASE, env: {} });
  assert.deepEqual(c.mailboxes[0]!.filter, { from: [], attachments: [], parse_body: false });
  assert.equal(c.rules[0]!.output.include_mail, false);
  const ok = parseConfig(minimal() + 'mailboxes:\n' + mb('    filter: { from: ["*@supplier.com"], subject: "/^invoice \\\\d+/i", attachments: ["*.pdf"], max_age_days: 30, parse_body: true }\n'), { baseDir: BASE, env: {} });
  assert.equal(ok.mailboxes[0]!.filter.subject, '/^invoice \\d+/i');
  const got = problems(
    minimal() +
      'mailboxes:\n' +
      mb('    filter: { subject: "/(unclosed/i", from: "*@x.com", max_age_days: -1, attachment: ["*.pdf"] }\n'),
  );
  assert.ok(got.some((p) => /^mailboxes\[0\]\.filter\.subject: not a valid regular expression \(.*Unterminated group.*\); write a plain substring, or \/pattern\/flags, got "\/\(unclosed\/i"$/.test(p)), got.join('\n'));
  assert.ok(got.includes('mailboxes[0].filter.from: expected array, got "*@x.com"'), got.join('\n'));
  assert.ok(got.some((p) => p.startsWith('mailboxes[0].filter.max_age_days: ') && p.endsWith('got number -1')), got.join('\n'));
  assert.ok(got.includes('mailboxes[0].filter: unknown key "attachment" (check the spelling)'), got.join('\n'));
});

test('a mistyped mailbox password is never echoed in the error', () => {
  const got = problems(minimal() + 'mailboxes:\n  - name: ap\n    host: h\n    user: u\n    rule: invoices\n    password: 12345\n');
  assert.ok(got.some((p) => p.startsWith('mailboxes[0].password: expected string, got a value of the wrong kind')), got.join('\n'));
});

test("secrets: 'skip' (status, retry) neither expands nor reads the key and passwords; every other key still is", () => {
  const yaml =
    'service: { base_url: "https://docs.example.com", api_key_file: "${CREDENTIALS_DIRECTORY}/api_key" }\n' +
    'state: { path: "${STATE_DIR}/state.db" }\n' +
    minimal() +
    'mailboxes:\n  - { name: ap, host: imap.example.com, user: ap, password_file: "${CREDENTIALS_DIRECTORY}/imap", rule: invoices }\n';
  assert.match(problems(yaml, { STATE_DIR: '/var/lib/docdrop' }).join('\n'), /CREDENTIALS_DIRECTORY is not set/);
  const c = parseConfig(yaml, { baseDir: BASE, env: { STATE_DIR: '/var/lib/docdrop' }, secrets: 'skip' });
  assert.equal(c.state.path, '/var/lib/docdrop/state.db');
  assert.equal(c.service.api_key, '');
  assert.equal(c.service.api_key_source, 'unread');
  assert.equal(c.mailboxes[0]!.password, '');
  assert.throws(() => parseConfig(yaml, { baseDir: BASE, env: {}, secrets: 'skip' }), /STATE_DIR is not set/);
});
