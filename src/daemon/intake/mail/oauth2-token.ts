// Access tokens for one OAuth2 mailbox. A token is reused until shortly before it expires, then a new one
// is asked for (refresh-token or client-credentials grant). A refresh token the provider rotates is
// written to refresh_token_file (atomically, mode 600) before the new access token is handed out, so a
// crash at any moment leaves on disk the refresh token the provider honours now. A refusal (revoked
// token, wrong client) is logged once and not sent again: the same error is returned until the refresh
// token file changes (`docdrop mail login` writes a new one).
import { readFile } from 'node:fs/promises';
import type { MailAuthConfig } from '../../config/config.js';
import { atomicWriteFile } from '../../../shared/atomic-write.js';
import type { Logger } from '../../../shared/logger.js';
import { MailLoginError, requestToken } from './oauth2-endpoint.js';

export type OAuth2Auth = Extract<MailAuthConfig, { type: 'oauth2' }>;

/** Without expires_in the token is kept an hour (the usual lifetime) or until the server refuses it. */
const DEFAULT_LIFETIME_S = 3600;

export interface AccessToken {
  token: string;
  /** Obtained by this call (not from the cache): a refusal of it is not cured by asking again. */
  fresh: boolean;
}

export interface TokenSource {
  /** A token valid for a while yet: the cached one, or a new one. Rejects with a MailLoginError. */
  get(signal?: AbortSignal): Promise<AccessToken>;
  /** The mail server refused `token`: the next get() asks the provider for a new one. */
  invalidate(token: string): void;
}

export interface TokenSourceOptions {
  mailbox: string;
  log: Logger;
  /** Milliseconds since the epoch (tests pass a virtual clock). */
  now?: () => number;
}

export function createTokenSource(auth: OAuth2Auth, o: TokenSourceOptions): TokenSource {
  const now = o.now ?? Date.now;
  let cached: { token: string; renewAt: number } | undefined;
  let inFlight: Promise<AccessToken> | undefined;
  /** The credential the provider last refused, and its error: not sent again. */
  let refused: { credential: string; error: MailLoginError } | undefined;

  const obtain = async (signal?: AbortSignal): Promise<AccessToken> => {
    const credential = auth.grant === 'refresh_token' ? await readRefreshToken(auth, o.mailbox) : 'client_credentials';
    if (refused?.credential === credential) throw refused.error;
    let res;
    try {
      res = await requestToken(
        auth.token_url,
        auth.grant === 'refresh_token'
          ? { grant_type: 'refresh_token', refresh_token: credential, client_id: auth.client_id, client_secret: auth.client_secret, scope: auth.scope }
          : { grant_type: 'client_credentials', client_id: auth.client_id, client_secret: auth.client_secret, scope: auth.scope },
        signal,
      );
    } catch (err) {
      if (err instanceof MailLoginError && err.authenticationFailed) {
        const error = new MailLoginError(`${err.message}${auth.grant === 'refresh_token' ? `: run \`docdrop mail login ${o.mailbox}\` for a new refresh token` : ': check client_id and client_secret_file'}`, true, err.code);
        refused = { credential, error };
        o.log.error({ code: err.code }, `mailbox login refused by the identity provider: ${error.message}`);
        throw error;
      }
      throw err;
    }
    if (auth.refresh_token_file !== undefined && res.refresh_token !== undefined && res.refresh_token !== credential) {
      // Before the access token is used: a crash after this line finds the new token on disk.
      await atomicWriteFile(auth.refresh_token_file, `${res.refresh_token}\n`, { mode: 0o600 });
      o.log.info({ file: auth.refresh_token_file }, 'rotated refresh token stored');
    }
    const lifetimeMs = (res.expires_in ?? DEFAULT_LIFETIME_S) * 1000;
    // Renew a minute early (a quarter of the lifetime for short-lived tokens), so a token is not
    // handed out just before it expires.
    cached = { token: res.access_token, renewAt: now() + lifetimeMs - Math.min(60_000, lifetimeMs / 4) };
    refused = undefined;
    return { token: res.access_token, fresh: true };
  };

  return {
    get(signal) {
      if (cached && now() < cached.renewAt) return Promise.resolve({ token: cached.token, fresh: false });
      inFlight ??= obtain(signal).finally(() => (inFlight = undefined));
      return inFlight;
    },
    invalidate(token) {
      if (cached?.token === token) cached = undefined;
    },
  };
}

async function readRefreshToken(auth: OAuth2Auth, mailbox: string): Promise<string> {
  const file = auth.refresh_token_file!;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist yet' : `cannot be read (${code ?? (err as Error).message})`;
    throw new MailLoginError(`the refresh token file ${file} ${why}: run \`docdrop mail login ${mailbox}\``, true, code);
  }
  const token = text.trim();
  if (token === '') throw new MailLoginError(`the refresh token file ${file} is empty: run \`docdrop mail login ${mailbox}\``, true);
  return token;
}
