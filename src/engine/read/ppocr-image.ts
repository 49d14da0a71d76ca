// Pixel work for PP-OCR on a grey image (one byte per pixel): bilinear crops and model inputs.
import type { Box } from './ppocr-post.js';

/** Bilinear resample of `box` (source pixels, fractional allowed) to `dw` x `dh`. */
export function resample(gray: Uint8Array, width: number, height: number, box: Box, dw: number, dh: number): Uint8Array {
  const out = new Uint8Array(dw * dh);
  const sx = (box.x1 - box.x0) / dw;
  const sy = (box.y1 - box.y0) / dh;
  for (let y = 0; y < dh; y++) {
    const fy = Math.min(height - 1, Math.max(0, box.y0 + (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(height - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < dw; x++) {
      const fx = Math.min(width - 1, Math.max(0, box.x0 + (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(width - 1, x0 + 1);
      const tx = fx - x0;
      const top = gray[y0 * width + x0] * (1 - tx) + gray[y0 * width + x1] * tx;
      const bottom = gray[y1 * width + x0] * (1 - tx) + gray[y1 * width + x1] * tx;
      out[y * dw + x] = Math.round(top * (1 - ty) + bottom * ty);
    }
  }
  return out;
}

/**
 * Writes a grey image into an NCHW float tensor at item `index`, the same value in all three
 * channels, normalised per channel as (v / 255 - mean) / std. `tensorWidth` may exceed the image's
 * width (a batch padded to its widest line); the padding stays 0.
 */
export function fillTensor(
  tensor: Float32Array,
  index: number,
  img: Uint8Array,
  width: number,
  height: number,
  tensorWidth: number,
  mean: readonly number[],
  std: readonly number[],
): void {
  const plane = height * tensorWidth;
  const base = index * 3 * plane;
  for (let c = 0; c < 3; c++) {
    const off = base + c * plane;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) tensor[off + y * tensorWidth + x] = (img[y * width + x] / 255 - mean[c]) / std[c];
    }
  }
}
