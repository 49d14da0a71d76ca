// The process-wide pools of the reading layer, created on first use and ended by closeReaders().
import { availableParallelism } from 'node:os';
import type { PdfRequest } from './pdf-protocol.js';
import { WorkerPool } from './worker-pool.js';
import { closeOcr, configureOcr, OCR_IDLE_MS } from './ocr.js';

export interface ReaderPoolOptions {
  /** PDF worker threads (pdf.js text, PDFium rendering). Default min(2, cores). */
  pdfWorkers?: number;
  /** Tesseract workers. Default 1 (PP-OCR reads the photos; tesseract the scans and large images). */
  ocrWorkers?: number;
}

const defaultSize = () => Math.max(1, Math.min(2, availableParallelism()));
let pdfWorkers = defaultSize();
let pdfPool: WorkerPool | null = null;
let ppocrPool: WorkerPool | null = null;

/** Sets pool sizes; takes effect for pools created afterwards (call before the first read, or after closeReaders). */
export function configureReaders(options: ReaderPoolOptions): void {
  for (const [name, value] of Object.entries(options)) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
      throw new Error(`${name} must be a whole number >= 1, got ${String(value)}`);
    }
  }
  if (options.pdfWorkers) pdfWorkers = options.pdfWorkers;
  if (options.ocrWorkers) configureOcr(options.ocrWorkers);
}

export function pdfWorkerPool(): WorkerPool {
  // tsx runs the sources directly; the compiled build runs .js files.
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  pdfPool ??= new WorkerPool(new URL(`./pdf-worker${ext}`, import.meta.url), {
    size: pdfWorkers,
    taskTimeoutMs: 120_000,
    maxHeapMb: 1024,
    // PDFium's WASM heap grows to ~50 MB rendering a page at 300 dpi and never shrinks: rendering
    // on one worker keeps it in one thread, while text pages are still read in parallel.
    oneWorker: (request) => (request as PdfRequest).type === 'render',
  });
  return pdfPool;
}

/**
 * One PP-OCR worker: its models take ~250 MB, and onnxruntime already spreads one image over the
 * cores, so a second worker would double the memory for little more throughput.
 */
export function ppocrWorkerPool(): WorkerPool {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  ppocrPool ??= new WorkerPool(new URL(`./ppocr-worker${ext}`, import.meta.url), {
    size: 1,
    taskTimeoutMs: 120_000,
    maxHeapMb: 512,
    idleMs: OCR_IDLE_MS,
  });
  return ppocrPool;
}

/** Ends the PP-OCR worker if it is idle. */
export function endIdlePpocr(): void {
  ppocrPool?.endIdle();
}

/** Ends the worker pools; the next read starts new ones. */
export async function closeReaders(): Promise<void> {
  const pools = [pdfPool, ppocrPool];
  pdfPool = null;
  ppocrPool = null;
  await Promise.all([...pools.map((p) => p?.close()), closeOcr()]);
}
