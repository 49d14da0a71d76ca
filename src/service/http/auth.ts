// The x-api-key check on every route outside /presigned/ and the health paths: the key names the account (accounts.ts).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCodes } from '../../api/error-codes.js';
import { accountIdForKey, type Account } from '../accounts.js';
import { ServiceError } from '../service-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every route outside /presigned/. */
    account: Account;
  }
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

/** Served without x-api-key too: probes and scrapers hold no account key (routes/health.ts). */
export const HEALTH_PATHS: readonly string[] = ['/healthz', '/readyz', '/metrics'];

export function installAuth(app: FastifyInstance, keys: string[]): void {
  const lookup = createKeyring(keys);
  app.decorateRequest('account', null as unknown as Account);
  app.addHook('onRequest', async (req: FastifyRequest) => {
    if (req.url.startsWith(PUBLIC_PREFIX) || HEALTH_PATHS.includes(req.url.split('?')[0]!)) return;
    const header = req.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) throw new ServiceError(401, ErrorCodes.unauthorized, 'x-api-key header: expected the account API key, received none');
    const account = lookup(key);
    if (!account) throw new ServiceError(401, ErrorCodes.unauthorized, 'x-api-key header: the key is not valid for this service');
    req.account = account;
  });
}
