// Builds PageText the way a reader would report it: words with boxes, 6 pt per character, 10 pt high.
import type { PageText, Word } from '../../src/engine/types.js';

/** A line is plain text at x=50, or cells placed at explicit x positions: [[50, 'Total'], [400, '12.00']]. */
export type FixtureLine = string | [number, string][];

const CHAR = 6;
const HEIGHT = 10;
const LEADING = 14;

export function makePage(lines: FixtureLine[], page = 1, opts: { top?: number; height?: number } = {}): PageText {
  const words: Word[] = [];
  lines.forEach((line, i) => {
    const y0 = (opts.top ?? 50) + i * LEADING;
    const cells: [number, string][] = typeof line === 'string' ? [[50, line]] : line;
    for (const [x, text] of cells) {
      let cx = x;
      for (const w of text.split(' ')) {
        if (w !== '') words.push({ text: w, x0: cx, y0, x1: cx + w.length * CHAR, y1: y0 + HEIGHT });
        cx += (w.length + 1) * CHAR;
      }
    }
  });
  return { page, width: 600, height: opts.height ?? 800, words, source: 'text' };
}
