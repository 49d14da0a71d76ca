// Writes the pages a job read (page_ranges) as their own file, served as file_presigned_url.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { PDFDocument } from '@cantoo/pdf-lib';
import { DocumentError } from '../types.js';
import { detectFileKind } from '../../shared/file-kind.js';

/** `pages` are 1-based. Images are copied whole (they have no pages to select, TIFF aside). */
export async function writeSelectedPages(srcPdf: string, pages: number[], destPath: string): Promise<void> {
  if ((await detectFileKind(srcPdf)) !== 'pdf') {
    await copyFile(srcPdf, destPath);
    return;
  }
  let src: PDFDocument;
  try {
    // The empty password opens owner-password PDFs (print/copy restrictions), common on invoices.
    src = await PDFDocument.load(await readFile(srcPdf), { password: '', ignoreEncryption: false, updateMetadata: false });
  } catch (err) {
    throw new DocumentError(`the PDF could not be opened to select pages (${(err as Error).message})`);
  }
  const count = src.getPageCount();
  const indices = pages.filter((p) => p >= 1 && p <= count).map((p) => p - 1);
  if (indices.length === 0) throw new DocumentError(`none of pages ${pages.join(',')} exist in the ${count}-page PDF`);
  const out = await PDFDocument.create({ updateMetadata: false });
  for (const page of await out.copyPages(src, indices)) out.addPage(page);
  await writeFile(destPath, await out.save());
}
