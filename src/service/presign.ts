// Pre-signed URLs: HMAC-SHA256 over "METHOD\npath\nexpires" with a per-data-dir secret, so a URL works
// without the API key, only for that method and path, and only until it expires. The secret comes from
// the store (ServiceStore.presignSecret), so every process sharing a store signs alike.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ErrorCodes } from '../api/error-codes.js';
import { ServiceError } from './service-error.js';

/** Lifetimes in seconds (documented in docs/service.md); storage_key URLs live --presign-ttl (serve-options.ts). */
export const PresignTtl = {
  upload: 15 * 60,
  /** The spec: export download URL valid 1 hour. */
  export: 60 * 60,
  parsedFile: 60 * 60,
} as const;

export interface Presigner {
  /** Absolute URL for method+path (path starts with /presigned/), valid ttlSeconds from now. */
  url(method: 'GET' | 'PUT', path: string, ttlSeconds?: number): string;
  /** Throws ServiceError 403 invalid_signature / url_expired. */
  verify(method: string, path: string, query: Record<string, unknown>): void;
}

/** The SQLite store keeps the secret in DATA_DIR/presign.key; PostgreSQL keeps it in the database. */
export { loadSecret } from './store/presign-key-file.js';

export function createPresigner(opts: {
  secret: Buffer;
  baseUrl: () => string;
  defaultTtlSeconds: number;
  now?: () => number;
}): Presigner {
  const now = opts.now ?? Date.now;
  const mac = (method: string, path: string, expires: string) =>
    createHmac('sha256', opts.secret).update(`${method.toUpperCase()}\n${path}\n${expires}`).digest('hex');
  return {
    url(method, path, ttlSeconds = opts.defaultTtlSeconds) {
      const expires = String(Math.floor(now() / 1000) + Math.max(1, Math.floor(ttlSeconds)));
      return `${opts.baseUrl()}${path}?expires=${expires}&signature=${mac(method, path, expires)}`;
    },
    verify(method, path, query) {
      const expires = typeof query.expires === 'string' ? query.expires : '';
      const signature = typeof query.signature === 'string' ? query.signature : '';
      if (!/^\d+$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) {
        throw new ServiceError(403, ErrorCodes.badSignature, 'pre-signed URL: expected expires and signature query parameters as issued by the service');
      }
      const expected = Buffer.from(mac(method, path, expires), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
        throw new ServiceError(403, ErrorCodes.badSignature, 'pre-signed URL: signature does not match this method and path; request a new URL');
      }
      if (Number(expires) * 1000 <= now()) {
        throw new ServiceError(403, ErrorCodes.urlExpired, `pre-signed URL: expired at ${new Date(Number(expires) * 1000).toISOString()}; request a new URL`);
      }
    },
  };
}
