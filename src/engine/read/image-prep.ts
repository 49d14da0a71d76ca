// Turns a page image into what an OCR engine reads: upright and grey. Photos and small images go to
// PP-OCR, scans and rendered pages to tesseract, upscaled 2x when small (rendered PDF pages of tiny
// size); both get grey pixels. Measured on 20 SROIE receipts with tesseract:
// contrast stretching (normalise) lowered the share of totals read from 0.85 to 0.60, sharpening and
// a median filter did not help either, and neither did adaptive binarisation on 40 (totals 0.93 ->
// 0.57), so none is done.
import sharp, { type Sharp } from 'sharp';
import { DocumentError } from '../types.js';
import { skewDegrees } from './deskew.js';

// A long-running service must not keep decoded images in sharp's cache.
sharp.cache(false);

/**
 * Below this longer side an image is small for tesseract, which then needs a 2x upscale: such image
 * files go to PP-OCR instead, rendered PDF pages are upscaled.
 */
const SMALL_BELOW_PX = 2000;
/**
 * Longer side a photo is scaled down to for PP-OCR, bounding the grey buffer (16 MB) whatever the
 * camera: the detector sees 960 px anyway, and a text line of a full page photographed at this size
 * is still ~40 px high, what the recogniser reads (48 px).
 */
const PHOTO_MAX_SIDE = 4000;

export interface PreparedImage {
  /** Which OCR engine reads it: photos and small images PP-OCR, scans and rendered pages tesseract. */
  engine: 'tesseract' | 'ppocr';
  /** One grey byte per pixel of a `grayWidth` x `grayHeight` image. */
  gray: Uint8Array;
  grayWidth: number;
  grayHeight: number;
  /** Pixels of `gray` per pixel of the source image (2 for a small page upscaled, under 1 for a photo scaled down). */
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
    const longer = Math.max(width, height);
    // A photo states no credible resolution, whatever its size; scanners and renderers state one.
    // A 1688x3000 phone photo of a receipt read by tesseract gave almost no words, by PP-OCR all of them.
    // A till roll's scan (twice as tall as wide, a shape no paper format has) goes to PP-OCR too: of a
    // 790x2028 receipt at 200 dpi tesseract lost the price column and the foot, PP-OCR read them all.
    const tillRoll = height >= 2 * width;
    if (longer < SMALL_BELOW_PX || density === undefined || tillRoll) {
      const scale = Math.min(1, PHOTO_MAX_SIDE / longer);
      let pipeline = img.flatten({ background: '#ffffff' }).greyscale();
      if (scale < 1) pipeline = pipeline.resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'lanczos3' });
      const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
      const gray = info.channels === 1 ? new Uint8Array(data.buffer, data.byteOffset, data.length) : firstChannel(data, info.channels);
      const straight = await straighten(gray, info.width, info.height);
      return { engine: 'ppocr', ...grayOf(straight), scale: info.width / width, width, height, density };
    }
    const gray = (meta.channels ?? 1) >= 3 && width * height <= INK_GRAY_MAX_PIXELS ? await inkDarkGray(img) : img;
    return { engine: 'tesseract', ...(await finish(gray, width, height)), width, height, density };
  } catch (err) {
    if (err instanceof DocumentError) throw err;
    throw new DocumentError(`the image could not be decoded (${(err as Error).message})`);
  }
}

/** A rendered PDF page (one grey byte per pixel). */
export async function prepareGray(gray: Uint8Array, width: number, height: number): Promise<PreparedImage> {
  const img = sharp(gray, { raw: { width, height, channels: 1 } });
  return { engine: 'tesseract', ...(await finish(img, width, height)), width, height };
}

/**
 * The page turned clockwise by a right angle (90, 180 or 270), then levelled again: a page fed into the
 * scanner sideways or upside down. Its size is the turned page's.
 */
export async function turnImage(image: PreparedImage, degrees: 90 | 180 | 270): Promise<PreparedImage> {
  const swap = degrees !== 180;
  const size = { width: swap ? image.height : image.width, height: swap ? image.width : image.height };
  const { data, info } = await sharp(image.gray, { raw: { width: image.grayWidth, height: image.grayHeight, channels: 1 } })
    .rotate(degrees)
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const gray = info.channels === 1 ? new Uint8Array(data.buffer, data.byteOffset, data.length) : firstChannel(data, info.channels);
  return { ...image, ...size, ...grayOf(await straighten(gray, info.width, info.height)) };
}

const grayOf = (g: { gray: Uint8Array; width: number; height: number }) => ({ gray: g.gray, grayWidth: g.width, grayHeight: g.height });

/** The image at half its size in each direction (a quick look at a page turned, before reading it whole). */
export async function halfImage(image: PreparedImage): Promise<PreparedImage> {
  const width = Math.max(1, Math.round(image.grayWidth / 2));
  const height = Math.max(1, Math.round(image.grayHeight / 2));
  const { data, info } = await sharp(image.gray, { raw: { width: image.grayWidth, height: image.grayHeight, channels: 1 } })
    .resize(width, height)
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const gray = info.channels === 1 ? new Uint8Array(data.buffer, data.byteOffset, data.length) : firstChannel(data, info.channels);
  return { ...image, gray, grayWidth: info.width, grayHeight: info.height, scale: image.scale * (info.width / image.grayWidth) };
}

/** Below this luminance a coloured pixel is taken as ink (orange print is ~165, yellow highlighter ~225). */
const INK_LUMINANCE = 200;
/** inkDarkGray holds the image as RGB for a moment: up to ~110 MB (A4 at 600 dpi); larger ones are greyed as usual. */
const INK_GRAY_MAX_PIXELS = 36_000_000;

/**
 * Grey in which coloured ink reads dark: tesseract's global threshold takes orange or light-blue
 * print (luminance ~165) for paper and drops it (an invoice's orange line-item names, its whole
 * table). A pixel under INK_LUMINANCE takes its darkest channel instead; grey pixels and light tints
 * (highlighter, table bands) keep their luminance. Black print on a saturated mid-tone band would go
 * dark with its band; such bands mostly carry white print, which then stands out more.
 */
async function inkDarkGray(img: Sharp): Promise<Sharp> {
  const { data, info } = await img.clone().flatten({ background: '#ffffff' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const gray = new Uint8Array(info.width * info.height);
  for (let i = 0, j = 0; i < gray.length; i++, j += info.channels) {
    const r = data[j];
    const g = data[j + 1];
    const b = data[j + 2];
    const lum = (r * 299 + g * 587 + b * 114) / 1000;
    gray[i] = lum < INK_LUMINANCE ? Math.min(r, g, b) : Math.round(lum);
  }
  return sharp(gray, { raw: { width: info.width, height: info.height, channels: 1 } });
}

/**
 * The grey image turned so that its text lines run level (PP-OCR cuts lines out as upright boxes). The
 * turned image is a little larger; word boxes stay in its pixels, near enough to the page's for layout.
 */
async function straighten(gray: Uint8Array, width: number, height: number): Promise<{ gray: Uint8Array; width: number; height: number }> {
  const degrees = skewDegrees(gray, width, height);
  if (degrees === 0) return { gray, width, height };
  const { data, info } = await sharp(gray, { raw: { width, height, channels: 1 } })
    .rotate(degrees, { background: { r: 255, g: 255, b: 255 } })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = info.channels === 1 ? new Uint8Array(data.buffer, data.byteOffset, data.length) : firstChannel(data, info.channels);
  return { gray: out, width: info.width, height: info.height };
}

function firstChannel(data: Buffer, channels: number): Uint8Array {
  const out = new Uint8Array(data.length / channels);
  for (let i = 0; i < out.length; i++) out[i] = data[i * channels];
  return out;
}

/**
 * The page for tesseract: grey, upscaled when small, and levelled. A scan fed in at 1° had its two
 * columns read as one ("z. Hd. Matthias Hagedorn ieferdatum . November i") and lost its invoice number.
 */
async function finish(img: Sharp, width: number, height: number): Promise<Pick<PreparedImage, 'gray' | 'grayWidth' | 'grayHeight' | 'scale'>> {
  const scale = Math.max(width, height) < SMALL_BELOW_PX ? 2 : 1;
  let pipeline = img.greyscale();
  if (scale !== 1) pipeline = pipeline.resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'lanczos3' });
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  const gray = info.channels === 1 ? new Uint8Array(data.buffer, data.byteOffset, data.length) : firstChannel(data, info.channels);
  return { ...grayOf(await straighten(gray, info.width, info.height)), scale };
}
