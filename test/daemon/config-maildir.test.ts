// mailboxes[].maildir: a local Maildir instead of an IMAP host; exactly one of them, IMAP keys refused with
// it, move_to a Maildir++ folder name; every mistake named by its key path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeConfig, parseConfig } from '../../src/daemon/config/config.js';
import { BASE, problems } from './config-problems.js';

const rules = 'rules:\n  - name: invoices\n    watch: ./in\n    workflow: Invoices\n';

test('a maildir mailbox takes only its keys, with defaults, its path resolved against the config folder', () => {
  const c = parseConfig(rules + 'mailboxes:\n  - { name: scans, maildir: ../mail/scans, rule: invoices }\n', { baseDir: BASE, env: {} });
  assert.deepEqual({ ...c.mailboxes[0] }, { name: 'scans', maildir: '/srv/docdrop/mail/scans', rule: 'invoices', poll_s: 60, after: 'seen',
    filter: { from: [], attachments: [], parse_body: false } });
  assert.equal(JSON.stringify(describeConfig(c)).includes('password'), false, 'no password key invented for a Maildir');
});

test('exactly one of host and maildir, and the IMAP keys are refused with maildir', () => {
  const got = problems(
    rules +
      'mailboxes:\n' +
      '  - { name: a, rule: invoices }\n' +
      '  - { name: b, host: h, maildir: /m, rule: invoices }\n' +
      '  - { name: c, maildir: /m, user: u, password: p, port: 143, folder: X, tls: false, rule: invoices }\n',
  );
  assert.ok(got.includes('mailboxes[0]: expected host (an IMAP server) or maildir (a local Maildir folder), got neither'), got.join('\n'));
  assert.ok(got.includes('mailboxes[1].host: expected either host or maildir, got both'), got.join('\n'));
  for (const key of ['user', 'password', 'port', 'folder', 'tls']) {
    assert.ok(got.includes(`mailboxes[2].${key}: only used with host (IMAP), not with maildir`), got.join('\n'));
  }
  assert.equal(got.length, 7, got.join('\n'));
});

test('move_to with maildir is a Maildir++ folder name: no "/", no leading "."; required with after: move', () => {
  const got = problems(
    rules +
      'mailboxes:\n' +
      '  - { name: a, maildir: /m, rule: invoices, after: move, move_to: ../etc }\n' +
      '  - { name: b, maildir: /m, rule: invoices, after: move, move_to: a/b }\n' +
      '  - { name: c, maildir: /m, rule: invoices, after: move }\n' +
      '  - { name: d, maildir: /m, rule: invoices, after: move, move_to: Archive.Invoices }\n',
  );
  const bad = (i: number, v: string) => `mailboxes[${i}].move_to: expected a Maildir++ folder name without "/" and not starting with "." (nested: "Archive.Invoices"), got "${v}"`;
  assert.ok(got.includes(bad(0, '../etc')), got.join('\n'));
  assert.ok(got.includes(bad(1, 'a/b')), got.join('\n'));
  assert.ok(got.includes('mailboxes[2].move_to: required with after: move (the Maildir++ folder to move messages to)'), got.join('\n'));
  assert.equal(got.length, 3, got.join('\n'));
});

test('an IMAP mailbox still needs its user', () => {
  const got = problems(rules + 'mailboxes:\n  - { name: a, host: h, password: p, rule: invoices }\n');
  assert.deepEqual(got, ['mailboxes[0].user: required with host (the login name)']);
});

test('auth (OAuth2) is refused with maildir: a Maildir has no login', () => {
  const got = problems(rules + 'mailboxes:\n  - { name: a, maildir: /m, rule: invoices, auth: { type: oauth2, provider: google, client_id: cid } }\n');
  assert.deepEqual(got, ['mailboxes[0].auth: only used with host (IMAP), not with maildir']);
});
