// Writes into a folder that almost always exists already: try first, and make the folder only when the
// write says it is missing (ENOENT). A mkdir before every write cost a syscall or three per file, and a
// cache of "folders made" goes stale when an operator deletes one while the daemon runs.
import { mkdir } from 'node:fs/promises';

export async function inFolder<T>(dir: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dir, { recursive: true });
  return write();
}
