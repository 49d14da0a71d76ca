// Page count of a document, from the file itself.
import type { FileKind } from '../../shared/file-kind.js';
import { pdfWorkerPool } from './reader-pools.js';
import { tiffPageCount } from './read-pages.js';

export async function countPages(filePath: string, kind: FileKind): Promise<number> {
  if (kind === 'pdf') return pdfWorkerPool().run<number>({ type: 'count', path: filePath });
  if (kind === 'tiff') return tiffPageCount(filePath);
  return 1;
}
