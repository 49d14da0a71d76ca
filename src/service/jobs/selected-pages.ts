// The file behind file_presigned_url: the document holding only the pages the run read (page_ranges).
// When every page was read (the common case, and always for images) it is the stored document itself,
// hard-linked: no PDF parsing and no copy, and it outlives a later DELETE of the document.
import { copyFile, link } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeSelectedPages as writePdfPages } from '../../engine/index.js';
import type { FileKind } from '../../shared/file-kind.js';
import { inFolder } from '../../shared/in-folder.js';

/** Writes `dest` from `source`; `pagesRead` are 1-based pages of a `numPages`-page document. Returns dest. */
export async function writeSelectedPages(source: string, kind: FileKind, pagesRead: number[], numPages: number, dest: string): Promise<string> {
  await inFolder(dirname(dest), async () => {
    if (kind === 'pdf' && new Set(pagesRead).size < numPages) await writePdfPages(source, pagesRead, dest);
    // A rerun finds dest taken (EEXIST), another file system refuses the link (EXDEV): copy then.
    else await link(source, dest).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? Promise.reject(err) : copyFile(source, dest)));
  });
  return dest;
}
