// The file behind file_presigned_url: a copy of the document holding only the pages the run read
// (page_ranges). Images have one page and page_ranges does not apply to them, so they are copied whole.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import type { FileKind } from '../../engine/types.js';

/** Writes `dest` from `source`; `pages` are 1-based. Returns dest. */
export async function writeSelectedPages(source: string, kind: FileKind, pages: number[], dest: string): Promise<string> {
  await mkdir(dirname(dest), { recursive: true });
  if (kind !== 'pdf') {
    await copyFile(source, dest);
    return dest;
  }
  const bytes = await readFile(source);
  // password '' opens owner-password-encrypted PDFs (common on invoices), which have no user password.
  const src = await PDFDocument.load(bytes, { ignoreEncryption: true, password: '', updateMetadata: false });
  const total = src.getPageCount();
  const wanted = pages.filter((p) => p >= 1 && p <= total);
  if (wanted.length === total) {
    await copyFile(source, dest);
    return dest;
  }
  const out = await PDFDocument.create();
  const copied = await out.copyPages(src, wanted.map((p) => p - 1));
  for (const page of copied) out.addPage(page);
  await writeFile(dest, await out.save());
  return dest;
}
