// Splits pdf.js text runs into words with boxes. pdf.js gives one box per run (often a whole line),
// so word edges are placed by Helvetica advance widths scaled to the run's measured width: close
// enough for layout (a fraction of a point on typical invoices) without a canvas dependency.
import type { Word } from '../types.js';

/** Helvetica advance widths (1/1000 em) of ASCII 32..126, from the standard AFM. */
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556,
  556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667,
  556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556,
  556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722,
  500, 500, 500, 334, 260, 334, 584,
];

function advance(ch: string): number {
  const c = ch.codePointAt(0) ?? 0;
  if (c >= 32 && c <= 126) return HELVETICA[c - 32];
  // CJK and other wide scripts take a full em; other letters an average lower-case width.
  return c >= 0x2e80 ? 1000 : 556;
}

/** A pdf.js TextItem reduced to what word splitting needs. */
export interface TextRun {
  str: string;
  /** Text matrix already multiplied by the viewport transform (top-left origin, points). */
  transform: number[];
  /** Advance width of the run in points. */
  width: number;
  /** Font ascent/descent as fractions of the font size (descent negative); pdf.js styles. */
  ascent?: number;
  descent?: number;
}

export function wordsOfRun(run: TextRun): Word[] {
  const chars = [...run.str];
  if (chars.length === 0 || run.str.trim() === '') return [];
  const [a, b, c, d, e, f] = run.transform;
  const size = Math.hypot(c, d) || Math.hypot(a, b);
  if (!(size > 0)) return [];
  // Unit vectors along the text and towards its top, in viewport space (y grows downwards).
  const along = [a / (Math.hypot(a, b) || 1), b / (Math.hypot(a, b) || 1)];
  const up = [c / (Math.hypot(c, d) || 1), d / (Math.hypot(c, d) || 1)];
  const ascent = run.ascent && run.ascent > 0 && run.ascent < 1.5 ? run.ascent : 0.8;
  const descent = run.descent && run.descent < 0 && run.descent > -1 ? -run.descent : 0.2;

  const offsets = [0];
  for (const ch of chars) offsets.push(offsets[offsets.length - 1] + advance(ch));
  const natural = offsets[offsets.length - 1];
  const scale = run.width > 0 && natural > 0 ? run.width / natural : size / 1000;

  const words: Word[] = [];
  let i = 0;
  while (i < chars.length) {
    if (/\s/u.test(chars[i])) {
      i++;
      continue;
    }
    let j = i;
    while (j < chars.length && !/\s/u.test(chars[j])) j++;
    const s = offsets[i] * scale;
    const t = offsets[j] * scale;
    const xs: number[] = [];
    const ys: number[] = [];
    for (const along_ of [s, t]) {
      for (const h of [ascent * size, -descent * size]) {
        xs.push(e + along[0] * along_ + up[0] * h);
        ys.push(f + along[1] * along_ + up[1] * h);
      }
    }
    words.push({
      text: chars.slice(i, j).join(''),
      x0: round(Math.min(...xs)),
      y0: round(Math.min(...ys)),
      x1: round(Math.max(...xs)),
      y1: round(Math.max(...ys)),
    });
    i = j;
  }
  return words;
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
