// PP-OCR post-processing, pure functions: text regions from the detector's probability map (DB),
// characters with positions from the recogniser's CTC output, and words split from them.

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Map pixels above this probability are text (PaddleOCR's DB default). */
const PIXEL_THRESHOLD = 0.3;
/** Regions whose mean probability is lower are noise (DB's box_thresh). */
const REGION_THRESHOLD = 0.6;
/** DB learns shrunk text kernels: a region grows back by area * ratio / perimeter. */
const UNCLIP_RATIO = 1.5;

/**
 * Axis-aligned text regions (4-connected components above the threshold), grown back to the text's
 * extent, in map pixels. Regions thinner than 3 px are specks.
 */
export function textRegions(prob: Float32Array, width: number, height: number): Box[] {
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const boxes: Box[] = [];
  for (let start = 0; start < prob.length; start++) {
    if (seen[start] || prob[start] <= PIXEL_THRESHOLD) continue;
    let x0 = width, y0 = height, x1 = 0, y1 = 0, sum = 0, count = 0, top = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
      const p = stack[--top];
      const x = p % width;
      const y = (p - x) / width;
      sum += prob[p];
      count++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (x > 0 && !seen[p - 1] && prob[p - 1] > PIXEL_THRESHOLD) (seen[p - 1] = 1), (stack[top++] = p - 1);
      if (x < width - 1 && !seen[p + 1] && prob[p + 1] > PIXEL_THRESHOLD) (seen[p + 1] = 1), (stack[top++] = p + 1);
      if (y > 0 && !seen[p - width] && prob[p - width] > PIXEL_THRESHOLD) (seen[p - width] = 1), (stack[top++] = p - width);
      if (y < height - 1 && !seen[p + width] && prob[p + width] > PIXEL_THRESHOLD) (seen[p + width] = 1), (stack[top++] = p + width);
    }
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    if (Math.min(w, h) < 3 || sum / count < REGION_THRESHOLD) continue;
    const d = (w * h * UNCLIP_RATIO) / (2 * (w + h));
    boxes.push({ x0: Math.max(0, x0 - d), y0: Math.max(0, y0 - d), x1: Math.min(width, x1 + 1 + d), y1: Math.min(height, y1 + 1 + d) });
  }
  return boxes;
}

export interface CtcChar {
  char: string;
  /** Time step of the character's first frame (one step = 8 input pixels). */
  step: number;
  prob: number;
}

/**
 * Greedy CTC decoding of one line: the best class per step, repeats merged, blanks (class 0)
 * dropped. `out` holds `steps` rows of `classes` probabilities from `offset`; class i is dict[i-1].
 */
export function ctcDecode(out: Float32Array, offset: number, steps: number, classes: number, dict: string[]): CtcChar[] {
  const chars: CtcChar[] = [];
  let prev = 0;
  for (let s = 0; s < steps; s++) {
    const row = offset + s * classes;
    let best = 0;
    for (let c = 1; c < classes; c++) if (out[row + c] > out[row + best]) best = c;
    if (best !== 0 && best !== prev) chars.push({ char: dict[best - 1] ?? '', step: s, prob: out[row + best] });
    prev = best;
  }
  return chars;
}

/** Share of the way from the darkest pixel to the paper below which a pixel is ink. */
const INK_LEVEL = 0.7;

export interface LineInk {
  /** First and last column with ink. */
  x0: number;
  x1: number;
  /** Runs of blank columns between them, [start, end). */
  gaps: [number, number][];
}

/**
 * Where the ink of a line image is: the recogniser (trained on text that is mostly Chinese) often
 * leaves out spaces, which the blank columns still show. Null when there is too little contrast to
 * tell ink from paper.
 */
export function lineInk(gray: Uint8Array, width: number, height: number): LineInk | null {
  let lo = 255, hi = 0;
  for (const v of gray) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (hi - lo < 40) return null;
  // Thin or faint strokes (thermal print, photos) stay well above the darkest pixel: anything
  // clearly darker than the paper is ink.
  const ink = lo + INK_LEVEL * (hi - lo);
  const blank = (x: number) => {
    for (let y = 0; y < height; y++) if (gray[y * width + x] < ink) return false;
    return true;
  };
  let x0 = -1, x1 = -1;
  const gaps: [number, number][] = [];
  let runStart = -1;
  for (let x = 0; x < width; x++) {
    if (blank(x)) {
      if (runStart < 0) runStart = x;
      continue;
    }
    if (x0 < 0) x0 = x;
    else if (runStart >= 0) gaps.push([runStart, x]);
    x1 = x;
    runStart = -1;
  }
  return x0 < 0 ? null : { x0, x1, gaps };
}

export interface LineWord {
  text: string;
  /** Horizontal extent in line-image pixels. */
  x0: number;
  x1: number;
  conf: number;
}

/**
 * A blank run this share of the line's character pitch (ink width per character) is a space for
 * sure: wider than the blank around a '.' or '1' of a fixed-pitch receipt font (~0.5 pitch), which
 * prints a space as ~0.8.
 */
const SURE_SPACE_PITCHES = 0.6;
/** Narrower blanks are spaces only past this share of the pitch, and only as described at spaceWidth(). */
const MIN_SPACE_PITCHES = 0.4;
/** ... at least this share of the line's own word gaps (blanks under the spaces the recogniser printed), */
const OWN_SPACE_SHARE = 0.6;
/** ... or, on a line where it printed none, this many times its letter gaps (the median blank run). */
const LETTER_GAP_FACTOR = 2.5;
/**
 * Two digits are a space apart only when their centres are this many pitches apart: a '1' of a
 * fixed-pitch font leaves as much blank on either side as a narrow space, but sits one pitch away.
 */
const DIGIT_SPACE_PITCHES = 1.5;
/** One-letter words of their own ("a", "I", "x" in "2 x 3.50", "&"): any other lone letter cut off by a narrow blank is part of a word. */
const LONE_LETTER = /^[aAIxX&@]$/;

/** Lower median (of two values, the smaller: the letter gap, not the word gap). */
const lowerMedian = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
const alnum = (c: CtcChar | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c.char);

/**
 * The narrowest blank run of this line that is a space. The recogniser (trained on mostly Chinese
 * text) leaves out many spaces, but where it printed some between words, the blanks under them show
 * the line's word spacing; on a line without any, a space is a blank run well wider than the letter
 * gaps (a bold heading's word gap is a third of its pitch, but four times its letter gaps).
 */
function spaceWidth(chars: CtcChar[], ink: LineInk, centre: (c: CtcChar) => number, pitch: number): number {
  const spaced = chars.filter((c, i) => c.char.trim() === '' && alnum(chars[i - 1]) && alnum(chars[i + 1])).map(centre);
  const underSpaces = ink.gaps.filter(([g0, g1]) => spaced.some((x) => x >= g0 - 4 && x <= g1 + 4)).map(([g0, g1]) => g1 - g0);
  const scale = underSpaces.length > 0 ? OWN_SPACE_SHARE * lowerMedian(underSpaces) : LETTER_GAP_FACTOR * lowerMedian(ink.gaps.map(([g0, g1]) => g1 - g0));
  return Math.min(SURE_SPACE_PITCHES * pitch, Math.max(3, MIN_SPACE_PITCHES * pitch, scale));
}

const digit = (c: string) => c >= '0' && c <= '9';
/** A blank next to one of these between digits is the narrow glyph's: "86.00" and "5/3/2018" stay one word. */
const joiner = (c: string) => '.,/-'.includes(c);

/**
 * The spaces the recogniser left out, from the blank runs of the line's ink: each at the nearest
 * boundary between two characters (the key: a word ends after chars[key]), with the blank's extent.
 * `pitch` is the line's ink width per character.
 */
function inkSpaces(chars: CtcChar[], ink: LineInk, centre: (c: CtcChar) => number, boundary: (i: number) => number, pitch: number): Map<number, [number, number]> {
  const minWidth = spaceWidth(chars, ink, centre, pitch);
  const found: { at: number; gap: [number, number]; wide: boolean }[] = [];
  for (const [g0, g1] of ink.gaps) {
    if (g1 - g0 < minWidth) continue;
    const mid = (g0 + g1) / 2;
    let best = 0;
    for (let i = 1; i + 1 < chars.length; i++) if (Math.abs(boundary(i) - mid) < Math.abs(boundary(best) - mid)) best = i;
    const [a, b] = [chars[best], chars[best + 1]];
    // A blank past the characters on either side is not between them (stray ink at the line's end).
    if (mid < centre(a) - pitch / 2 || mid > centre(b) + pitch / 2) continue;
    if ((digit(a.char) && joiner(b.char)) || (joiner(a.char) && digit(b.char))) continue;
    if (digit(a.char) && digit(b.char) && centre(b) - centre(a) < DIGIT_SPACE_PITCHES * pitch) continue;
    // A whole pitch of blank is a space even beside a lone letter ("ABC D").
    found.push({ at: best, gap: [g0, g1], wide: g1 - g0 >= pitch });
  }
  // A narrow blank that would cut one letter off a word is the blank beside that letter ("SOL D",
  // "agai n": an L's thin foot, an i's side bearing). Narrowest first, so a kept cut sees the final words.
  const cutAt = new Set(found.map((f) => f.at));
  const wordEnd = (from: number, step: 1 | -1): number => {
    let i = from;
    while (chars[i + step] && chars[i + step].char.trim() !== '' && !cutAt.has(step === 1 ? i : i - 1)) i += step;
    return i;
  };
  const lone = (w: string) => w.length === 1 && /\p{L}/u.test(w) && !LONE_LETTER.test(w);
  const spaces = new Map<number, [number, number]>();
  for (const f of [...found].sort((x, y) => x.gap[1] - x.gap[0] - (y.gap[1] - y.gap[0]))) {
    const left = chars.slice(wordEnd(f.at, -1), f.at + 1).map((c) => c.char).join('');
    const right = chars.slice(f.at + 1, wordEnd(f.at + 1, 1) + 1).map((c) => c.char).join('');
    if (!f.wide && (lone(left) || lone(right))) cutAt.delete(f.at);
    else spaces.set(f.at, f.gap);
  }
  return spaces;
}

/**
 * Splits a decoded line into words at recognised spaces and at wide blank runs of its ink, each at
 * the nearest boundary between two characters. `stepPx` is line-image pixels per CTC step.
 */
export function lineWords(chars: CtcChar[], ink: LineInk | null, stepPx: number, width: number): LineWord[] {
  const centre = (c: CtcChar) => (c.step + 0.5) * stepPx;
  // breaks[i]: a word ends after chars[i]; the x where it ends and where the next one starts.
  const breaks = new Map<number, [number, number]>();
  const letters = chars.filter((c) => c.char.trim() !== '').length;
  const boundary = (i: number) => (centre(chars[i]) + centre(chars[i + 1])) / 2;
  // A label's colon glued to its value ("InvoiceNo:#BLR…", "Date:25/12/2018") ends a word; a time's
  // colon ("12:46", after a digit) and a URL's ("http://") do not.
  for (let i = 1; i + 1 < chars.length; i++) {
    const next = chars[i + 1].char;
    if (chars[i].char === ':' && /\p{L}/u.test(chars[i - 1].char) && next.trim() !== '' && next !== '/') breaks.set(i, [boundary(i), boundary(i)]);
  }
  if (ink && letters > 1) for (const [at, gap] of inkSpaces(chars, ink, centre, boundary, (ink.x1 - ink.x0 + 1) / letters)) breaks.set(at, gap);
  const words: LineWord[] = [];
  let cur: CtcChar[] = [];
  let start = ink?.x0 ?? 0;
  const flush = (end: number) => {
    if (cur.length > 0) {
      const conf = cur.reduce((s, c) => s + c.prob, 0) / cur.length;
      words.push({ text: cur.map((c) => c.char).join(''), x0: start, x1: Math.max(start + 1, end), conf });
    }
    cur = [];
  };
  chars.forEach((c, i) => {
    if (c.char.trim() === '') {
      flush(centre(c));
      start = centre(c);
    } else {
      cur.push(c);
    }
    const gap = breaks.get(i);
    if (gap) {
      flush(gap[0]);
      start = gap[1];
    }
  });
  flush(ink ? ink.x1 + 1 : width);
  return words;
}
