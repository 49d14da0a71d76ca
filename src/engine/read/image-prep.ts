// Turns a page image into what tesseract reads best: upright, grey, and large enough (small receipt
// photos read markedly better at twice their size), encoded as PNG. Measured on 20 SROIE receipts:
// contrast stretching (normalise) lowered the share of totals read from 0.85 to 0.60, sharpening and
// a median filter did not help either, so neither is done.
import sharp, { type Sharp } from 'sharp';
import { DocumentError } from '../types.js';

// A long-running service must not keep decoded images in sharp's cache.
sharp.cache(false);

/** Images whose longer side is below this are upscaled 2x before OCR. */
const UPSCALE_BELOW_PX = 2000;

export interface PreparedImage {
  png: Buffer;
  /** Pixels of `png` per pixel of the source image. */
  scale: number;
  /** Source size in pixels (after EXIF orientation). */
  width: number;
  height: number;
  /** Source resolution when the file states a credible one. */
  density?: number;
}

/** One page of an image file (0-based `page` for multi-page TIFF). */
export async function prepareImageFile(path: string, page: number): Promise<PreparedImage> {
  try {
    const img = sharp(path, { page, limitInputPixels: 20_000 * 20_000 }).autoOrient();
    const meta = await img.metadata();
    const swap = (meta.orientation ?? 1) >= 5;
    const width = (swap ? meta.height : meta.width) ?? 0;
    const height = (swap ? meta.width : meta.height) ?? 0;
    // 72 dpi is what cameras and JFIF write by default: it says nothing about the real scale.
    const density = meta.density && meta.density >= 100 && meta.density <= 1200 ? meta.density : undefined;
    return { ...(await finish(img, width, height)), width, height, density };
  } catch (err) {
    if (err instanceof DocumentError) throw err;
    throw new DocumentError(`the image could not be decoded (${(err as Error).message})`);
  }
}

/** A rendered PDF page (one grey byte per pixel). */
export async function prepareGray(gray: Uint8Array, width: number, height: number): Promise<PreparedImage> {
  const img = sharp(gray, { raw: { width, height, channels: 1 } });
  return { ...(await finish(img, width, height)), width, height };
}

async function finish(img: Sharp, width: number, height: number): Promise<{ png: Buffer; scale: number }> {
  const scale = Math.max(width, height) < UPSCALE_BELOW_PX ? 2 : 1;
  let pipeline = img.greyscale();
  if (scale !== 1) pipeline = pipeline.resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'lanczos3' });
  // Low compression: the PNG only travels to the OCR worker.
  const png = await pipeline.png({ compressionLevel: 1 }).toBuffer();
  return { png, scale };
}
