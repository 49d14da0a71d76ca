// How a mailbox's connections log in: with its password, or with an OAuth2 access token from its token
// source. A cached token the server refuses (revoked, or expired early) is replaced once by a new one;
// when that is refused too, or the provider refuses to issue one, the attempt fails with the reason and
// the check loop reports it (status, /readyz, alerts) and retries with backoff.
import type { ImapFlow } from 'imapflow';
import type { MailboxConfig } from '../../config/config.js';
import type { Logger } from '../../../shared/logger.js';
import { connectImap } from './imap-connection.js';
import { createTokenSource } from './oauth2-token.js';

export type MailboxConnect = (onNewMail: () => void, signal: AbortSignal) => Promise<ImapFlow>;

/** One connector per mailbox: it keeps the mailbox's access token across reconnects. */
export function mailboxConnector(mb: MailboxConfig, log: Logger): MailboxConnect {
  const auth = mb.auth;
  if (auth.type === 'password') return (onNewMail, signal) => connectImap(mb, log, onNewMail, signal);
  const tokens = createTokenSource(auth, { mailbox: mb.name, log });
  return async (onNewMail, signal) => {
    const first = await tokens.get(signal);
    try {
      return await connectImap(mb, log, onNewMail, signal, first.token);
    } catch (err) {
      if ((err as { authenticationFailed?: boolean }).authenticationFailed !== true || first.fresh) throw err;
      tokens.invalidate(first.token);
      log.info('the mail server refused the cached access token; asking for a new one');
      const second = await tokens.get(signal);
      return connectImap(mb, log, onNewMail, signal, second.token);
    }
  };
}
