// File -> positioned words per page. Text-layer PDF pages come from pdf.js; pages without text,
// images, and every page when OCR is forced are rendered/decoded and OCR'd.
import sharp from 'sharp';
import type { FileKind } from '../../shared/file-kind.js';
import { DocumentError, type PageText, type ReadOptions } from '../types.js';
import { prepareGray, prepareImageFile } from './image-prep.js';
import { ocrPage } from './ocr-page.js';
import type { PdfRenderResult, PdfTextResult } from './pdf-protocol.js';
import { pdfWorkerPool } from './reader-pools.js';
import { readLookalikesAsLatin } from './script-lookalikes.js';

/** Rendering resolution for OCR of PDF pages. */
const RENDER_DPI = 300;
/** Bitmap cap per rendered page (~A3 at 300 dpi), bounding memory on oversized pages. */
const MAX_RENDER_PIXELS = 25_000_000;
/** Pages OCR'd at once per document: bounds the rendered bitmaps held in memory. */
const OCR_PAGES_IN_FLIGHT = 2;

export interface ReadDocument {
  pages: PageText[];
  /** The invoice XML a hybrid e-invoice PDF carries (ZUGFeRD, Factur-X), as attached. */
  einvoiceXml?: string;
}

export async function readPages(filePath: string, kind: FileKind, opts: ReadOptions): Promise<PageText[]> {
  return (await readDocument(filePath, kind, opts)).pages;
}

export async function readDocument(filePath: string, kind: FileKind, opts: ReadOptions): Promise<ReadDocument> {
  const doc = kind === 'pdf' ? await readPdf(filePath, opts) : { pages: await readImage(filePath, kind, opts) };
  return { ...doc, pages: doc.pages.map((p) => ({ ...p, words: readLookalikesAsLatin(p.words) })) };
}

async function readPdf(path: string, opts: ReadOptions): Promise<ReadDocument> {
  const pool = pdfWorkerPool();
  // With OCR forced no page text is taken from the PDF (pages: []), only its page count and attachment.
  const text = await pool.run<PdfTextResult>({ type: 'text', path, pages: opts.useOcr ? [] : opts.pages });
  const pages = selectPages(opts.pages, text.numPages);
  const textPages = new Map(text.pages.filter((p) => p.words.length > 0).map((p) => [p.page, { ...p, source: 'text' as const }]));
  const ocrd = await mapLimit(
    pages.filter((p) => !textPages.has(p)),
    OCR_PAGES_IN_FLIGHT,
    timed(async (page) => {
      const r = await pool.run<PdfRenderResult>({ type: 'render', path, page, dpi: RENDER_DPI, maxPixels: MAX_RENDER_PIXELS });
      const image = await prepareGray(r.gray, r.pixelWidth, r.pixelHeight);
      return ocrPage(page, image, r.dpi, { width: r.width, height: r.height });
    }),
  );
  return { pages: [...textPages.values(), ...ocrd].sort((a, b) => a.page - b.page), einvoiceXml: text.einvoiceXml };
}

async function readImage(path: string, kind: FileKind, opts: ReadOptions): Promise<PageText[]> {
  const numPages = kind === 'tiff' ? await tiffPageCount(path) : 1;
  const pages = numPages === 1 ? [1] : selectPages(opts.pages, numPages);
  return mapLimit(
    pages,
    OCR_PAGES_IN_FLIGHT,
    timed(async (page) => {
      const image = await prepareImageFile(path, page - 1);
      return ocrPage(page, image, image.density);
    }),
  );
}

/** Records on an OCR'd page how long it took, rendering included (the service's OCR seconds per page). */
function timed(read: (page: number) => Promise<PageText>): (page: number) => Promise<PageText> {
  return async (page) => {
    const start = performance.now();
    const text = await read(page);
    return { ...text, ocrMs: performance.now() - start };
  };
}

export async function tiffPageCount(path: string): Promise<number> {
  try {
    const meta = await sharp(path).metadata();
    return meta.pages ?? 1;
  } catch (err) {
    throw new DocumentError(`the image could not be decoded (${(err as Error).message})`);
  }
}

function selectPages(wanted: number[] | undefined, numPages: number): number[] {
  const all = Array.from({ length: numPages }, (_, i) => i + 1);
  return wanted ? all.filter((p) => wanted.includes(p)) : all;
}

/** Maps with at most `limit` calls in flight, keeping input order. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return out;
}
