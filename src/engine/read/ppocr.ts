// PP-OCR on the service's side: sends a grey image to the PP-OCR worker thread (ppocr-worker.ts),
// which holds the models once for the process.
import type { OcrWord } from './ocr.js';
import { ppocrWorkerPool } from './reader-pools.js';

export interface PpocrRequest {
  /** One grey byte per pixel. */
  gray: Uint8Array;
  width: number;
  height: number;
}

/** Words of a grey image, boxes in its pixels. The pixel buffer is handed to the worker. */
export function recognizePhoto(request: PpocrRequest): Promise<OcrWord[]> {
  return ppocrWorkerPool().run<OcrWord[]>(request, [request.gray.buffer as ArrayBuffer]);
}
