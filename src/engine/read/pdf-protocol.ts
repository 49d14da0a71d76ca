// Messages between the main thread and the PDF worker (pdf-worker.ts).
import type { Word } from '../types.js';

export type PdfRequest =
  | { type: 'count'; path: string }
  | { type: 'text'; path: string; pages?: number[] }
  | { type: 'render'; path: string; page: number; dpi: number; maxPixels: number };

export interface PdfTextResult {
  numPages: number;
  pages: { page: number; width: number; height: number; words: Word[] }[];
  /** The structured invoice XML attached to a hybrid e-invoice (ZUGFeRD, Factur-X), when there is one. */
  einvoiceXml?: string;
}

export interface PdfRenderResult {
  /** One byte per pixel, rows top to bottom. */
  gray: Uint8Array;
  pixelWidth: number;
  pixelHeight: number;
  /** Page size in points. */
  width: number;
  height: number;
  /** Effective resolution of the bitmap. */
  dpi: number;
}
