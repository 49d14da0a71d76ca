import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ImapFlow } from 'imapflow';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { hasDovecot, startDovecot, type Dovecot } from '../helpers/dovecot.js';

// Self-test of the dovecot helper: a real IMAP server takes a message and gives it back unchanged.
const skip = !hasDovecot && 'dovecot not installed (apt-get install dovecot-imapd)';

let dovecot: Dovecot;
before(async () => {
  if (skip) return;
  dovecot = await startDovecot({ 'user@test': 'secret', 'other@test': 'secret2' });
});
after(async () => {
  await dovecot?.stop();
});

async function message(subject: string): Promise<Buffer> {
  return new MailComposer({
    from: 'sender@example.com',
    to: 'user@test',
    subject,
    text: 'Invoice attached.',
    attachments: [{ filename: 'invoice.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4\n%%EOF\n') }],
  })
    .compile()
    .build();
}

test('append then list returns the message with its uid and subject, unflagged', { skip }, async () => {
  assert.deepEqual(await dovecot.list('user@test'), []);
  const raw = await message('Invoice 42');
  await dovecot.append('user@test', raw);
  const got = await dovecot.list('user@test');
  assert.equal(got.length, 1);
  assert.equal(got[0].uid, 1);
  assert.equal(got[0].subject, 'Invoice 42');
  assert.deepEqual(got[0].flags, []);

  // The stored bytes are the appended bytes, PDF attachment included.
  const client = new ImapFlow({ host: dovecot.host, port: dovecot.port, secure: false, auth: { user: 'user@test', pass: 'secret' }, logger: false });
  await client.connect();
  try {
    const lock = await client.getMailboxLock('INBOX');
    let source: Buffer | undefined;
    try {
      const m = await client.fetchOne('1', { source: true }, { uid: true });
      source = m ? m.source : undefined;
    } finally {
      lock.release();
    }
    assert.ok(source);
    assert.ok(source.equals(raw));
    assert.match(source.toString(), /Content-Type: application\/pdf; name=invoice\.pdf/);
    assert.ok(source.toString().includes(Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64')));
  } finally {
    await client.logout();
  }
});

test('folders are created on demand, flags are kept, users are separate', { skip }, async () => {
  await dovecot.append('other@test', await message('Filed'), 'Archive', ['\\Seen']);
  await dovecot.append('other@test', await message('Filed again'), 'Archive');
  assert.deepEqual(await dovecot.list('other@test', 'Archive'), [
    { uid: 1, flags: ['\\Seen'], subject: 'Filed' },
    { uid: 2, flags: [], subject: 'Filed again' },
  ]);
  assert.deepEqual(await dovecot.list('other@test'), []);
  assert.equal((await dovecot.list('user@test', 'Archive')).length, 0);
});

test('a wrong password is refused', { skip }, async () => {
  const client = new ImapFlow({ host: dovecot.host, port: dovecot.port, secure: false, auth: { user: 'user@test', pass: 'nope' }, logger: false });
  await assert.rejects(client.connect());
  client.close();
});
