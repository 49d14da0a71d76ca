// Tesseract OCR on a small pool of reusable workers. The model comes from the
// @tesseract.js-data/eng package: nothing is ever fetched (tesseract.js turns a failed download
// into an uncaught exception that ends the process, so a missing model fails here, up front).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import PQueue from 'p-queue';
import tesseract from 'tesseract.js';
import { DocumentError, type Word } from '../types.js';

/** LSTM "best_int" model: the accurate one (the package's default folder holds the fast one). */
const langPath = join(dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

/**
 * OCR engines idle this long are ended: their models and image buffers hold 150-250 MB each, which a
 * service that mostly waits for the next document should give back. Starting one again takes ~1 s.
 */
export const OCR_IDLE_MS = 60_000;

/**
 * A white 1-px PNG. Tesseract keeps a page's images and results until the next page is set, so they
 * were still held while the next page's were made: its WASM heap, which never shrinks, grew to 165 MB
 * on A4 scans at 300 dpi (198 MB on larger pages) where one page needs 105-126 MB.
 */
const BLANK_PAGE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAACklEQVQImWP4DwABAQEADeY2wwAAAABJRU5ErkJggg==', 'base64');

let size = 1;
let queue: PQueue | null = null;
let idle: tesseract.Worker[] = [];
let all = new Set<tesseract.Worker>();
const idleTimers = new Map<tesseract.Worker, NodeJS.Timeout>();

/** Ends the idle tesseract workers now. */
export function endIdleOcrWorkers(): void {
  for (const worker of [...idle]) retire(worker);
}

function retire(worker: tesseract.Worker): void {
  clearTimeout(idleTimers.get(worker));
  idleTimers.delete(worker);
  idle = idle.filter((w) => w !== worker);
  all.delete(worker);
  void worker.terminate().catch(() => {});
}

function takeIdle(): tesseract.Worker | undefined {
  const worker = idle.pop();
  if (worker) {
    clearTimeout(idleTimers.get(worker));
    idleTimers.delete(worker);
  }
  return worker;
}

function putIdle(worker: tesseract.Worker): void {
  idle.push(worker);
  const timer = setTimeout(() => retire(worker), OCR_IDLE_MS);
  timer.unref();
  idleTimers.set(worker, timer);
}

export function configureOcr(workers: number): void {
  size = workers;
}

async function createOcrWorker(): Promise<tesseract.Worker> {
  if (!existsSync(join(langPath, 'eng.traineddata.gz'))) {
    throw new Error(`the OCR model is missing: expected ${join(langPath, 'eng.traineddata.gz')} (npm package @tesseract.js-data/eng)`);
  }
  const worker = await tesseract.createWorker('eng', tesseract.OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: 'none',
    // Errors reach the recognize() promise instead of being rethrown asynchronously.
    errorHandler: () => {},
  });
  // Tesseract's diagnostics ("Estimating resolution as ...") would otherwise land on stdout.
  await worker.setParameters({ debug_file: '/dev/null' });
  all.add(worker);
  return worker;
}

export interface OcrWord extends Word {
  conf: number;
}

/** A grey image: one byte per pixel, row by row. */
export interface GrayImage {
  gray: Uint8Array;
  width: number;
  height: number;
}

/**
 * The image as a binary PGM file, which Leptonica reads as it is: a PNG cost ~0.1 s to encode and
 * 0.1-0.2 s more for tesseract to decode on an A4 scan at 250 dpi. The comment pads the header past the
 * 500 bytes in which tesseract.js looks for an EXIF orientation, so pixels are never taken for one.
 */
function pgm(image: GrayImage): Buffer {
  return Buffer.concat([Buffer.from(`P5\n#${' '.repeat(500)}\n${image.width} ${image.height}\n255\n`, 'latin1'), image.gray]);
}

/**
 * Words of a grey image, with boxes in its pixels. `dpi` is the image's resolution when known;
 * without it tesseract estimates one from the text size.
 */
export function recognize(image: GrayImage, dpi: number | undefined): Promise<OcrWord[]> {
  queue ??= new PQueue({ concurrency: size });
  return queue.add(async () => {
    let worker: tesseract.Worker | undefined = takeIdle() ?? (await createOcrWorker());
    try {
      await worker.setParameters({
        user_defined_dpi: dpi ? String(Math.round(dpi)) : '0',
        // Sparse layouts (receipts, forms) read better as one column of variable-size text.
        tessedit_pageseg_mode: tesseract.PSM.SINGLE_COLUMN,
      });
      const { data } = await worker.recognize(pgm(image), {}, { blocks: true, text: false });
      // Setting a blank page (no recognition) makes tesseract let go of this page's images and results.
      await worker.recognize(BLANK_PAGE, {}, { text: false });
      return wordsOf(data);
    } catch (err) {
      // The worker may be in a bad state: drop it, the next job gets a fresh one.
      all.delete(worker);
      void worker.terminate().catch(() => {});
      worker = undefined;
      throw new DocumentError(`OCR failed on the image (${(err as Error)?.message ?? String(err)})`);
    } finally {
      if (worker) putIdle(worker);
    }
  });
}

function wordsOf(page: tesseract.Page): OcrWord[] {
  const words: OcrWord[] = [];
  for (const block of page.blocks ?? []) {
    for (const para of block.paragraphs) {
      for (const line of para.lines) {
        for (const w of line.words) {
          const text = w.text.trim();
          if (text === '') continue;
          words.push({ text, x0: w.bbox.x0, y0: w.bbox.y0, x1: w.bbox.x1, y1: w.bbox.y1, conf: Math.round(w.confidence) });
        }
      }
    }
  }
  return words;
}

export async function closeOcr(): Promise<void> {
  const workers = [...all];
  for (const timer of idleTimers.values()) clearTimeout(timer);
  idleTimers.clear();
  queue?.clear();
  queue = null;
  idle = [];
  all = new Set();
  await Promise.all(workers.map((w) => w.terminate().catch(() => {})));
}
