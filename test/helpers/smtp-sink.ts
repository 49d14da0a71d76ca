// A real SMTP server on 127.0.0.1 (smtp-server) that keeps every mail it receives, parsed (mailparser).
// close() takes it away and reopen() brings it back on the same port: an SMTP server that goes down and up.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  attachments: { filename: string; content: Buffer }[];
}

export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  /** Resolves once `count` mails have arrived in all (waits up to `timeoutMs` of real time). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
  reopen(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const arrived = () => {
    for (const w of waiters.filter((w) => mails.length >= w.count)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData(stream, session, cb) {
        simpleParser(stream).then((m) => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: m.subject ?? '',
            text: m.text ?? '',
            attachments: m.attachments.map((a) => ({ filename: a.filename ?? '', content: a.content })),
          });
          cb();
          arrived();
        }, cb);
      },
    });
  let server = create();
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    async waitFor(count, timeoutMs = 20_000) {
      if (mails.length < count) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`expected ${count} mails, got ${mails.length}: ${mails.map((m) => m.subject).join(' | ')}`)), timeoutMs);
          waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
        });
      }
      return mails.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    async reopen() {
      server = create();
      server.listen(port, '127.0.0.1');
      await once(server.server, 'listening');
    },
  };
}
