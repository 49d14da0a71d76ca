// Sends the range-export download link to the account's address (spec Events 3) through nodemailer.
// Without SMTP settings the link is written to the service log instead, at warn level, saying so.
import nodemailer from 'nodemailer';
import type { Logger } from '../../shared/logger.js';

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS when offered. */
  secure?: boolean;
  user?: string;
  pass?: string;
  /** Sender address; default docdrop@<host>. */
  from?: string;
}

export interface ExportMail {
  to: string;
  subject: string;
  text: string;
  /** The link, logged when no SMTP is configured. */
  url: string;
}

export interface ExportMailer {
  send(mail: ExportMail): Promise<void>;
  close(): void;
}

export function createExportMailer(smtp: SmtpSettings | undefined, logger: Logger): ExportMailer {
  if (!smtp) {
    return {
      async send(mail) {
        logger.warn({ to: mail.to, url: mail.url }, 'no SMTP configured (--mail-smtp-host): export link NOT e-mailed; here it is instead');
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure ?? false,
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.pass ?? '' } } : {}),
  });
  const from = smtp.from ?? `docdrop@${smtp.host}`;
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
      logger.info({ to: mail.to }, 'export link e-mailed');
    },
    close() {
      transport.close();
    },
  };
}
