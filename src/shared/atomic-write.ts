// Atomic replacement of a file: readers see the old content or the new, never a half-written file,
// and after a crash (or power loss) the destination is one or the other, never empty.
// Steps: write a hidden temp file in the same folder (same file system, so rename is atomic), fsync it,
// rename it over the destination, fsync the folder so the rename itself is durable. The temp name starts
// with '.' and ends in '.tmp', which the daemon's default excludes ignore in watched folders.
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

export type AtomicContent = string | Buffer | Uint8Array | ((tmpPath: string) => Promise<void>);

export interface AtomicWriteOptions {
  /** File mode of a new file (default 0o666 before umask, like fs.writeFile). */
  mode?: number;
}

export function tempPathFor(dest: string): string {
  return path.join(path.dirname(dest), `.${path.basename(dest)}.${randomBytes(6).toString('hex')}.tmp`);
}

export async function atomicWriteFile(dest: string, content: AtomicContent, opts: AtomicWriteOptions = {}): Promise<void> {
  const tmp = tempPathFor(dest);
  try {
    if (typeof content === 'function') {
      await content(tmp);
      await fsyncPath(tmp, 'r+');
    } else {
      const fh = await open(tmp, 'wx', opts.mode ?? 0o666);
      try {
        await fh.writeFile(content);
        await fh.sync();
      } finally {
        await fh.close();
      }
    }
    await rename(tmp, dest);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fsyncDir(path.dirname(dest));
}

async function fsyncPath(p: string, flags: string): Promise<void> {
  const fh = await open(p, flags);
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Makes a rename/create in dir durable. Some file systems (and Windows) refuse fsync on a folder. */
export async function fsyncDir(dir: string): Promise<void> {
  try {
    await fsyncPath(dir, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw err;
  }
}
