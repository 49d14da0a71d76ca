// Accounts are API keys: each configured key is its own account, with an id derived from the key
// (sha256 prefix) so it is stable across restarts and the key itself is never stored or logged.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCodes } from '../../api/error-codes.js';
import { ServiceError } from './errors.js';

export interface Account {
  id: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every route outside /presigned/. */
    account: Account;
  }
}

export function accountIdForKey(key: string): string {
  return 'acct_' + createHash('sha256').update(key).digest('hex').slice(0, 16);
}

export function createKeyring(keys: string[]): (key: string) => Account | null {
  const digests = keys.map((k) => ({ digest: createHash('sha256').update(k).digest(), account: { id: accountIdForKey(k) } }));
  return (key) => {
    const d = createHash('sha256').update(key).digest();
    // Constant-time compare of digests, so response timing does not leak key prefixes.
    return digests.find((e) => timingSafeEqual(e.digest, d))?.account ?? null;
  };
}

/** Paths served without x-api-key: their URLs carry their own signature. */
export const PUBLIC_PREFIX = '/presigned/';

export function installAuth(app: FastifyInstance, keys: string[]): void {
  const lookup = createKeyring(keys);
  app.decorateRequest('account', null as unknown as Account);
  app.addHook('onRequest', async (req: FastifyRequest) => {
    if (req.url.startsWith(PUBLIC_PREFIX)) return;
    const header = req.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) throw new ServiceError(401, ErrorCodes.unauthorized, 'x-api-key header: expected the account API key, received none');
    const account = lookup(key);
    if (!account) throw new ServiceError(401, ErrorCodes.unauthorized, 'x-api-key header: the key is not valid for this service');
    req.account = account;
  });
}

/** 404 for unknown rows, 403 for rows of another account; returns the row otherwise. */
export function requireOwned<T extends { account_id: string }>(row: T | undefined, account: Account, what: string, id: string): T {
  if (!row) throw new ServiceError(404, ErrorCodes.notFound, `${what} ${id} does not exist`);
  if (row.account_id !== account.id) throw new ServiceError(403, ErrorCodes.forbidden, `${what} ${id} belongs to another account`);
  return row;
}
