// Sends one mail through the configured SMTP server (nodemailer). A connection per mail: alerts are rare,
// and so the CA file is read at each send (a renewed certificate is picked up) and no idle connection
// is left to a server that may go away. The password goes only to nodemailer, never into a log line.
import { readFile } from 'node:fs/promises';
import tls from 'node:tls';
import nodemailer from 'nodemailer';
import type { NotifyConfig } from '../config/config.js';
import type { OutgoingMail } from './mail-queue.js';

export function smtpSender(smtp: NotifyConfig['smtp'], from: string): (mail: OutgoingMail) => Promise<void> {
  return async (mail) => {
    const ca = smtp.tls_ca_file ? [...tls.rootCertificates, await readFile(smtp.tls_ca_file, 'utf8')] : undefined;
    const transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      // A password is sent only over TLS: STARTTLS is required unless cleartext was allowed. Without a
      // login, STARTTLS is still used whenever the server offers it.
      requireTLS: !smtp.secure && smtp.user !== undefined && !smtp.insecure_plaintext,
      ...(smtp.user !== undefined ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
      ...(ca ? { tls: { ca } } : {}),
      // Bounded, so a silent server cannot hold the queue (or the daemon's stop) for long.
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
      disableUrlAccess: true,
      logger: false,
    });
    try {
      await transport.sendMail({
        from,
        to: [...mail.to],
        subject: mail.subject,
        text: mail.text,
        attachments: (mail.attachments ?? []).map((a) => ({ filename: a.filename, path: a.path })),
      });
    } finally {
      transport.close();
    }
  };
}
