// Pages fed sideways or upside down: a scanner's feeder given a page the wrong way round, a phone
// photo whose orientation tag was lost on the way. OCR of such a page gives nothing or confident
// nonsense ("nsnipbup noy"), and every field comes out empty. A page that does not read as upright
// is read again turned by each right angle, and the turn that reads the most words well is kept:
// the readings are compared, so no threshold decides the turn, only whether to look for one.
import type { OcrWord } from './ocr.js';
import type { PreparedImage } from './image-prep.js';

/** A word read well: confident, with three letters or digits running (not "|" or "1."). */
const GOOD_CONF = 75;
const WORDY = /[\p{L}\p{N}]{3}/u;
/** Fewer good words than this and a page is not taken as upright. */
const MIN_GOOD_WORDS = 5;
/**
 * Below both of these a page is not taken as upright, per engine: the mean character confidence and
 * the share of words read well. Measured on the corpus's pages (2026-12-02): tesseract reads upright
 * pages at 93-94 with 0.7-0.8 of the words good, upside-down ones at 36-38 with 0.04-0.07, and a noisy
 * upright scan full of speckles at 53 with 0.24 (its 108 good words count); PP-OCR reads the 40 SROIE
 * receipts at 92-99 upright and at 59-80 upside down, with up to 0.59 of the words "good" (it reads
 * turned letters as letters, "SUN" for "NOS"), so only its confidence tells.
 */
const UPRIGHT: Record<PreparedImage['engine'], { mean: number; goodShare: number }> = {
  tesseract: { mean: 60, goodShare: 0.15 },
  ppocr: { mean: 86, goodShare: Infinity },
};

export interface PageReading {
  words: OcrWord[];
  image: PreparedImage;
  /** Clockwise turn applied to the page, in degrees. */
  turned: 0 | 90 | 180 | 270;
}

export const goodWords = (words: OcrWord[]): number => words.filter((w) => w.conf >= GOOD_CONF && WORDY.test(w.text)).length;

/** Character-weighted mean confidence of the words, 0 without words. */
function meanConfidence(words: OcrWord[]): number {
  let chars = 0;
  let sum = 0;
  for (const w of words) (chars += w.text.length), (sum += w.conf * w.text.length);
  return chars ? sum / chars : 0;
}

export function readsUpright(words: OcrWord[], engine: PreparedImage['engine']): boolean {
  const good = goodWords(words);
  return good >= MIN_GOOD_WORDS && (meanConfidence(words) >= UPRIGHT[engine].mean || good >= UPRIGHT[engine].goodShare * words.length);
}

/**
 * The best reading of a page that did not read as upright: turned half round first when the first
 * reading found words (text upside down reads as confident nonsense), else a quarter either way first
 * (sideways lines give an engine little or nothing). Stops at the first turn that reads as upright
 * and better than the page as it came.
 */
export async function readTurned(
  first: PageReading,
  read: (image: PreparedImage) => Promise<OcrWord[]>,
  turn: (image: PreparedImage, degrees: 90 | 180 | 270) => Promise<PreparedImage>,
  probe?: (image: PreparedImage) => Promise<PreparedImage>,
): Promise<PageReading> {
  const order: (90 | 180 | 270)[] = first.words.length >= MIN_GOOD_WORDS * 2 ? [180, 90, 270] : [90, 270, 180];
  // A smaller copy tells whether a turn reads as upright at all, in a third of the time; only a turn that does is read whole.
  const small = probe ? await probe(first.image) : null;
  let best = first;
  for (const degrees of order) {
    if (small && !readsUpright(await read(await turn(small, degrees)), small.engine)) continue;
    const image = await turn(first.image, degrees);
    const words = await read(image);
    if (goodWords(words) > goodWords(best.words)) best = { words, image, turned: degrees };
    if (best.turned === degrees && readsUpright(words, image.engine)) break;
  }
  return best;
}
