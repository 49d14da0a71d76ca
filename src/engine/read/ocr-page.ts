// OCR of one page image into a PageText in points (72 dpi), so interpreters treat scans and
// text-layer PDFs alike.
import type { PageText, Word } from '../types.js';
import { halfImage, turnImage, type PreparedImage } from './image-prep.js';
import { endIdleOcrWorkers, recognize, type OcrWord } from './ocr.js';
import { readsUpright, readTurned, type PageReading } from './page-turn.js';
import { recognizePhoto } from './ppocr.js';
import { endIdlePpocr } from './reader-pools.js';

/** Resolution from which a page's turns are tried at half size first (rendered PDF pages come at 300 dpi). */
const PROBE_MIN_DPI = 250;
/** Median OCR word-box height that an image of unknown resolution is scaled to: ~10 pt text. */
const TYPICAL_WORD_HEIGHT_PT = 8;

/**
 * `dpi` is the source resolution when known (rendered PDF pages, images that state it); the page
 * size in points (`pageSize`) when the source is a PDF page. Tesseract is told the resolution only
 * when it is exact (rendered PDF pages, which come with `pageSize`): for photos its own estimate from the text size
 * read more totals on SROIE receipts (0.95 vs 0.85 of 20) than the file's stated density.
 */
export async function ocrPage(
  page: number,
  image: PreparedImage,
  dpi: number | undefined,
  pageSize?: { width: number; height: number },
): Promise<PageText> {
  // One OCR engine in memory at a time where possible: each holds 150-250 MB, and together with the
  // PDF workers they took the service past 800 MB. An idle engine of the other kind is ended first.
  (image.engine === 'ppocr' ? endIdleOcrWorkers : endIdlePpocr)();
  const read = (img: PreparedImage): Promise<OcrWord[]> =>
    img.engine === 'ppocr'
      ? // A copy: the worker takes the buffer it is sent, and a page read again turned needs its own.
        recognizePhoto({ gray: img.gray.slice(), width: img.grayWidth, height: img.grayHeight })
      : recognize({ gray: img.gray, width: img.grayWidth, height: img.grayHeight }, pageSize && dpi ? dpi * img.scale : undefined);
  let reading: PageReading = { words: await read(image), image, turned: 0 };
  // A page rendered or scanned at 250 dpi or more still reads at half that: the turns are tried on a half-size copy first.
  const fine = image.engine === 'tesseract' && !!pageSize && !!dpi && dpi * image.scale >= PROBE_MIN_DPI;
  if (!readsUpright(reading.words, image.engine)) reading = await readTurned(reading, read, turnImage, fine ? halfImage : undefined);
  const words = reading.words;
  image = reading.image;
  if (pageSize && reading.turned % 180 !== 0) pageSize = { width: pageSize.height, height: pageSize.width };
  // Source pixels per point.
  const pxPerPt = (dpi ?? estimateDpi(words, image.scale)) / 72;
  const k = 1 / (image.scale * pxPerPt);
  return {
    page,
    width: pageSize?.width ?? round(image.width / pxPerPt),
    height: pageSize?.height ?? round(image.height / pxPerPt),
    words: words.map((w) => ({ ...w, x0: round(w.x0 * k), y0: round(w.y0 * k), x1: round(w.x1 * k), y1: round(w.y1 * k) })),
    source: 'ocr',
  };
}

/** Camera images carry no real resolution: infer one from the size of the text itself. */
function estimateDpi(words: Word[], scale: number): number {
  const heights = words
    .filter((w) => /[\p{L}\p{N}]{2,}/u.test(w.text))
    .map((w) => (w.y1 - w.y0) / scale)
    .sort((a, b) => a - b);
  if (heights.length === 0) return 150;
  const median = heights[Math.floor(heights.length / 2)];
  return Math.min(1200, Math.max(72, (median / TYPICAL_WORD_HEIGHT_PT) * 72));
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
