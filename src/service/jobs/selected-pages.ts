// The file behind file_presigned_url: the document holding only the pages the run read (page_ranges).
// When every page was read (the common case, and always for images) it is a plain copy: no PDF parsing.
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeSelectedPages as writePdfPages } from '../../engine/read/index.js';
import type { FileKind } from '../../engine/types.js';

/** Writes `dest` from `source`; `pagesRead` are 1-based pages of a `numPages`-page document. Returns dest. */
export async function writeSelectedPages(source: string, kind: FileKind, pagesRead: number[], numPages: number, dest: string): Promise<string> {
  await mkdir(dirname(dest), { recursive: true });
  if (kind !== 'pdf' || new Set(pagesRead).size >= numPages) await copyFile(source, dest);
  else await writePdfPages(source, pagesRead, dest);
  return dest;
}
