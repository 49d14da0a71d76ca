// The pre-signed URL secret of a SQLite store: 32 random bytes, hex, in DATA_DIR/presign.key.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Reads DATA_DIR/presign.key, creating it (mode 600) on first start; a new key voids old URLs. */
export function loadSecret(dataDir: string): Buffer {
  const file = join(dataDir, 'presign.key');
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}
