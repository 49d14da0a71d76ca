// Documents made on the fly for the reading-layer tests: text PDFs (pdf-lib), images of text
// rendered from SVG (sharp), an image-only PDF and a two-page TIFF built from them.
import { after, before } from 'node:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { closeReaders } from '../../src/engine/read/index.js';

export interface FixtureDir {
  dir: string;
  file(name: string, bytes: Uint8Array | string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function fixtureDir(): Promise<FixtureDir> {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-read-'));
  return {
    dir,
    async file(name, bytes) {
      const path = join(dir, name);
      await writeFile(path, bytes);
      return path;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * For a describe block that reads documents: a fresh fixture folder before its tests, removed after
 * them with the reader pools closed (open pools would keep the test process alive). Returns a getter.
 */
export function useFixtureDir(): () => FixtureDir {
  let fx: FixtureDir;
  before(async () => {
    fx = await fixtureDir();
  });
  after(async () => {
    await fx.cleanup();
    await closeReaders();
  });
  return () => fx;
}

/** A text line drawn on a US-letter page at (x, y) in PDF coordinates (origin bottom-left). */
export interface PdfLine {
  text: string;
  x: number;
  y: number;
  size: number;
}

export async function textPdf(pages: PdfLine[][], encrypt?: { userPassword?: string; ownerPassword: string }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    for (const l of lines) page.drawText(l.text, { x: l.x, y: l.y, size: l.size, font });
  }
  if (encrypt) doc.encrypt(encrypt);
  return doc.save();
}

/** Black text on white, rendered from SVG; `lines` are drawn one under another. */
export async function textImage(lines: string[], format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const width = 1400;
  const height = 120 + lines.length * 110;
  const text = lines
    .map((l, i) => `<text x="60" y="${130 + i * 110}" font-size="64" font-family="DejaVu Sans, sans-serif" fill="black">${l}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
  const img = sharp(Buffer.from(svg)).flatten({ background: 'white' });
  return format === 'png' ? img.png().toBuffer() : img.jpeg({ quality: 92 }).toBuffer();
}

/** A PDF whose single page is only an image (no text layer), like a scan. */
export async function imageOnlyPdf(png: Buffer): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(png);
  const meta = await sharp(png).metadata();
  // Placed at 150 dpi.
  const w = ((meta.width ?? 0) * 72) / 150;
  const h = ((meta.height ?? 0) * 72) / 150;
  const page = doc.addPage([w, h]);
  page.drawImage(image, { x: 0, y: 0, width: w, height: h });
  return doc.save();
}

export async function multiPageTiff(images: Buffer[]): Promise<Buffer> {
  return sharp(images, { join: { animated: true } }).tiff().toBuffer();
}
