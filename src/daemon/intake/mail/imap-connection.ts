// Opening one IMAP connection to a configured mailbox, and the small helpers every step on it shares.
import { readFile } from 'node:fs/promises';
import tls from 'node:tls';
import { ImapFlow } from 'imapflow';
import type { MailboxConfig } from '../../config/config.js';
import type { Logger } from '../../../shared/logger.js';

/**
 * Connects and logs in, with the password or, given `accessToken`, with OAuth2 (OAUTHBEARER or XOAUTH2,
 * whichever the server offers); `onNewMail` runs whenever the server announces new mail (IDLE push). A
 * failed attempt, or one cut short by `signal` (stop), closes its socket: imapflow leaves it open after a
 * refused login, and a process with open sockets does not exit.
 */
export async function connectImap(mb: MailboxConfig, log: Logger, onNewMail: () => void, signal: AbortSignal, accessToken?: string): Promise<ImapFlow> {
  // Read at each connect, so a renewed certificate is picked up without a restart.
  const ca = mb.tls_ca_file ? [...tls.rootCertificates, await readFile(mb.tls_ca_file, 'utf8')] : undefined;
  signal.throwIfAborted();
  const c = new ImapFlow({
    host: mb.host,
    port: mb.port,
    secure: mb.tls,
    // Without TLS from the first byte, STARTTLS is required (imapflow refuses before LOGIN when the
    // server lacks it), unless cleartext was allowed; then it is still used when offered.
    ...(mb.tls || mb.insecure_plaintext ? {} : { doSTARTTLS: true }),
    ...(ca ? { tls: { ca } } : {}),
    auth: accessToken === undefined ? { user: mb.user, pass: mb.password } : { user: mb.user, accessToken },
    logger: false,
    // IDLE (new-mail pushes) 1 s after the last command instead of imapflow's 15 s.
    autoIdleDelay: 1000,
  });
  // Without a listener an 'error' event would end the process; the check loop reconnects instead.
  c.on('error', (err: Error) => log.debug({ err: describeImapError(err) }, 'imap connection error'));
  c.on('exists', onNewMail);
  const abort = () => c.close(); // rejects the pending connect() at once
  signal.addEventListener('abort', abort, { once: true });
  try {
    await c.connect();
  } catch (err) {
    c.close();
    const e = err as { tlsFailed?: boolean; code?: string };
    throw e.tlsFailed && e.code === undefined && !mb.tls ? noStartTls(mb) : err; // not offered, or refused
  } finally {
    signal.removeEventListener('abort', abort);
  }
  if (!c.secureConnection) {
    log.warn({ host: mb.host }, `mailbox connected without TLS: the ${accessToken === undefined ? 'password' : 'access token'} went in cleartext (insecure_plaintext: true)`);
  }
  log.info({ host: mb.host, folder: mb.folder }, 'mailbox connected');
  return c;
}

function noStartTls(mb: MailboxConfig): Error {
  return new Error(
    `${mb.host}:${mb.port} offers no STARTTLS, so the password is not sent: use tls: true (port 993) if the server has it, ` +
      'or set insecure_plaintext: true on this mailbox to log in in cleartext',
  );
}

/** Runs `fn` holding the folder's lock (imapflow's per-connection mailbox selection). */
export async function withFolder<T>(c: ImapFlow, folder: string, fn: () => Promise<T>): Promise<T> {
  const lock = await c.getMailboxLock(folder);
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

/** An IMAP error as it may be logged: message and server response, never the credentials. */
export function describeImapError(err: unknown): Record<string, unknown> {
  const e = err as { message?: string; code?: string; responseText?: string; authenticationFailed?: boolean };
  return { message: e.message, code: e.code, response: e.responseText, authenticationFailed: e.authenticationFailed };
}

/** LOGOUT, then close; a server that does not answer within 2 s is cut off, so stop() stays prompt. */
export async function logoutImap(c: ImapFlow): Promise<void> {
  const cutOff = setTimeout(() => c.close(), 2000);
  await c.logout().catch(() => undefined);
  clearTimeout(cutOff);
  c.close();
}
