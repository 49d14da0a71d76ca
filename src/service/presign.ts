// Pre-signed URLs: HMAC-SHA256 over "METHOD\npath\nexpires" with a per-data-dir secret, so a URL works
// without the API key, only for that method and path, and only until it expires.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync, existsSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
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

/** Reads DATA_DIR/presign.key, creating it (mode 600) on first start; a new key voids old URLs. */
export function loadSecret(dataDir: string): Buffer {
  const file = join(dataDir, 'presign.key');
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}

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
