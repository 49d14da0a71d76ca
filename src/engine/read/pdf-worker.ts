// Worker thread entry of the PDF pool: pdf.js for page counts and text-layer words, PDFium for
// rendering pages without text. Both run on the calling thread, which is why they live here.
import { parentPort } from 'node:worker_threads';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFiumLibrary } from '@hyzyla/pdfium';
import { wordsOfRun } from './pdf-words.js';
import type { PdfRequest, PdfTextResult, PdfRenderResult } from './pdf-protocol.js';
import type { WorkerReply } from './worker-pool.js';

const pdfjsDir = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const assetDir = (name: string) => join(pdfjsDir, name) + '/';

/** A failure whose message is already fit for the user. */
class InputError extends Error {}

async function openPdf(path: string) {
  const data = new Uint8Array(await readFile(path));
  const task = pdfjs.getDocument({
    data,
    standardFontDataUrl: assetDir('standard_fonts'),
    cMapUrl: assetDir('cmaps'),
    cMapPacked: true,
    wasmUrl: assetDir('wasm'),
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    return await task.promise;
  } catch (err) {
    await task.destroy();
    const name = (err as Error).name;
    if (name === 'PasswordException') throw new InputError('the PDF is password-protected');
    throw new InputError(`the file is not a readable PDF (${(err as Error).message})`);
  }
}

async function pageText(path: string, pages: number[] | undefined, withEinvoice: boolean): Promise<PdfTextResult> {
  const doc = await openPdf(path);
  try {
    const wanted = pages ?? Array.from({ length: doc.numPages }, (_, i) => i + 1);
    const out: PdfTextResult = { numPages: doc.numPages, pages: [] };
    for (const n of wanted) {
      if (n < 1 || n > doc.numPages) continue;
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const words = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const style = content.styles[item.fontName];
        words.push(
          ...wordsOfRun({
            str: item.str,
            transform: pdfjs.Util.transform(viewport.transform, item.transform),
            width: item.width,
            ascent: style?.ascent,
            descent: style?.descent,
          }),
        );
      }
      out.pages.push({ page: n, width: round(viewport.width), height: round(viewport.height), words });
      page.cleanup();
    }
    const xml = withEinvoice ? await einvoiceAttachment(doc) : undefined;
    if (xml) out.einvoiceXml = xml;
    return out;
  } finally {
    await doc.destroy();
  }
}

/** Larger XML attachments are not invoices; the biggest real ones are tens of kilobytes. */
const MAX_EINVOICE_BYTES = 5 * 1024 * 1024;

/**
 * The CII invoice XML of a hybrid e-invoice: ZUGFeRD and Factur-X attach it as factur-x.xml,
 * zugferd-invoice.xml (ZUGFeRD 1: ZUGFeRD-invoice.xml) or xrechnung.xml. Other attachments (receipts
 * as PDFs, say) are ignored. An unreadable attachment table is not an unreadable document.
 */
async function einvoiceAttachment(doc: pdfjs.PDFDocumentProxy): Promise<string | undefined> {
  let attachments: Record<string, { filename?: string; content?: Uint8Array }> | null;
  try {
    attachments = await doc.getAttachments();
  } catch {
    return undefined;
  }
  for (const a of Object.values(attachments ?? {})) {
    if (!a.content || a.content.length > MAX_EINVOICE_BYTES || !/\.xml$/i.test(a.filename ?? '')) continue;
    const text = new TextDecoder().decode(a.content);
    if (/<(\w+:)?CrossIndustry(Invoice|Document)\b/.test(text.slice(0, 4096))) return text;
  }
  return undefined;
}

let pdfium: Promise<PDFiumLibrary> | null = null;

async function renderPage(path: string, page: number, dpi: number, maxPixels: number): Promise<PdfRenderResult> {
  pdfium ??= import('@hyzyla/pdfium').then((m) => m.PDFiumLibrary.init());
  const lib = await pdfium;
  const bytes = new Uint8Array(await readFile(path));
  let doc;
  try {
    doc = await lib.loadDocument(bytes, '');
  } catch (err) {
    throw new InputError(`the PDF could not be rendered (${(err as Error).message})`);
  }
  try {
    if (page < 1 || page > doc.getPageCount()) throw new InputError(`the PDF has no page ${page}`);
    const p = doc.getPage(page - 1);
    const { originalWidth, originalHeight } = p.getOriginalSize();
    // Huge pages (posters, A0 drawings) are rendered smaller rather than exhausting memory.
    const wanted = dpi / 72;
    const cap = Math.sqrt(maxPixels / Math.max(1, originalWidth * originalHeight));
    const scale = Math.min(wanted, cap);
    const r = await p.render({ scale, colorSpace: 'Gray', render: 'bitmap' });
    return {
      gray: r.data,
      pixelWidth: r.width,
      pixelHeight: r.height,
      width: round(originalWidth),
      height: round(originalHeight),
      dpi: scale * 72,
    };
  } finally {
    doc.destroy();
  }
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}

async function handle(req: PdfRequest): Promise<unknown> {
  switch (req.type) {
    case 'count':
      return (await pageText(req.path, [], false)).numPages;
    case 'text':
      return pageText(req.path, req.pages, true);
    case 'render':
      return renderPage(req.path, req.page, req.dpi, req.maxPixels);
  }
}

parentPort!.on('message', async ({ id, request }: { id: number; request: PdfRequest }) => {
  let reply: WorkerReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const value = await handle(request);
    if (request.type === 'render') transfer = [(value as PdfRenderResult).gray.buffer as ArrayBuffer];
    reply = { id, ok: true, value };
  } catch (err) {
    const message = (err as Error).message;
    // Anything pdf.js or PDFium throws here comes from the file's content.
    reply = { id, ok: false, message: err instanceof InputError ? message : `the PDF could not be read (${message})`, document: true };
  }
  parentPort!.postMessage(reply, transfer);
});
