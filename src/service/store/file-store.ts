// Where the service keeps bytes: FILES/documents/<document_id> for uploads and FILES/artifacts/<relative
// path> for things made later (parsed page selections, exports); FILES is --files (default DATA_DIR/files)
// and may be a folder several serve processes share. Writes go to FILES/tmp/<random uuid> first and are
// renamed into place, so a reader (in this process or another) never sees half a file; the temp file is
// on the same file system, which is what makes the rename atomic.
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { inFolder } from '../../shared/in-folder.js';

export class FileTooLargeError extends Error {
  override readonly name = 'FileTooLargeError';
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
  }
}

export class FileStore {
  constructor(readonly root: string) {}

  async init(): Promise<void> {
    await Promise.all(['documents', 'artifacts', 'tmp'].map((d) => mkdir(join(this.root, d), { recursive: true })));
  }

  documentPath(documentId: string): string {
    return join(this.root, 'documents', documentId);
  }

  /** Path of an artifact; throws when rel escapes the artifacts folder (it may come from a URL). */
  artifactPath(rel: string): string {
    const base = join(this.root, 'artifacts');
    const p = resolve(base, rel);
    if (!p.startsWith(base + sep)) throw new Error(`artifact path escapes the store: ${rel}`);
    return p;
  }

  /** Streams into dest atomically; rejects with FileTooLargeError past maxBytes. Returns the byte count. */
  async save(dest: string, source: Readable, maxBytes = Number.POSITIVE_INFINITY): Promise<number> {
    const tmp = join(this.root, 'tmp', randomUUID());
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        if (bytes > maxBytes) cb(new FileTooLargeError(maxBytes));
        else cb(null, chunk);
      },
    });
    try {
      await pipeline(source, counter, createWriteStream(tmp));
      await inFolder(dirname(dest), () => rename(tmp, dest));
      return bytes;
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async size(path: string): Promise<number | null> {
    try {
      return (await stat(path)).size;
    } catch {
      return null;
    }
  }

  async remove(path: string): Promise<void> {
    await rm(path, { force: true });
  }
}
