// Words -> lines -> phrases. Every interpreter (fields, tables, classification) works on these, so the
// geometry rules live here once. A phrase is a run of words on one line with no wide gap between them:
// "Invoice No:" and "12345" printed in two columns become two phrases of one line.
import type { PageText, Word } from '../types.js';

export interface Phrase {
  words: Word[];
  text: string;
  x0: number;
  x1: number;
}

export interface Line {
  page: number;
  /** Index of the line in reading order over the whole document. */
  index: number;
  words: Word[];
  phrases: Phrase[];
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Median word height: a proxy for font size. */
  height: number;
  /** Page size, for "near the bottom/top" reasoning. */
  pageWidth: number;
  pageHeight: number;
}

export interface LayoutOptions {
  /** Split pages into text columns before building lines (two-column letters, side-by-side address blocks). */
  detectLayout: boolean;
}

const median = (xs: number[]): number => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** Gap (in units of line height) above which two words on a line belong to different phrases. */
const PHRASE_GAP = 0.9;

function toPhrases(words: Word[], height: number, gutter: number | null): Phrase[] {
  const phrases: Phrase[] = [];
  let current: Word[] = [];
  for (const w of words) {
    const prev = current[current.length - 1];
    const crossesGutter = prev !== undefined && gutter !== null && prev.x1 <= gutter && w.x0 >= gutter;
    if (prev && (w.x0 - prev.x1 > PHRASE_GAP * height || crossesGutter)) {
      phrases.push(makePhrase(current));
      current = [];
    }
    current.push(w);
  }
  if (current.length) phrases.push(makePhrase(current));
  return phrases;
}

function makePhrase(words: Word[]): Phrase {
  return { words, text: words.map((w) => w.text).join(' '), x0: words[0].x0, x1: words[words.length - 1].x1 };
}

/** A word of marks alone (`*`, `**`, `†`, `®`): a footnote sign or superscript, not content. */
export const isMark = (w: Word): boolean => !/[\p{L}\p{N}]/u.test(w.text);

/**
 * Groups words whose vertical centres lie within half a line height of each other. A mark joins the
 * row whose height spans its centre: OCR boxes a superscript `**` apart from `VAT`, and as a line of
 * its own it cut an item table in two.
 */
function groupRows(words: Word[]): Word[][] {
  const cyOf = (w: Word) => (w.y0 + w.y1) / 2;
  const present = words.filter((w) => w.text.trim() !== '');
  const sorted = present.filter((w) => !isMark(w)).sort((a, b) => cyOf(a) - cyOf(b));
  const rows: { words: Word[]; cy: number; h: number; y0: number; y1: number }[] = [];
  for (const w of sorted) {
    const cy = cyOf(w);
    const h = Math.max(1, w.y1 - w.y0);
    const row = rows[rows.length - 1];
    if (row && Math.abs(cy - row.cy) <= 0.5 * Math.min(h, row.h)) {
      row.words.push(w);
      row.cy = (row.cy * (row.words.length - 1) + cy) / row.words.length;
      row.y0 = Math.min(row.y0, w.y0);
      row.y1 = Math.max(row.y1, w.y1);
    } else {
      rows.push({ words: [w], cy, h, y0: w.y0, y1: w.y1 });
    }
  }
  const contentRows = [...rows];
  for (const m of present.filter(isMark).sort((a, b) => cyOf(a) - cyOf(b))) {
    const cy = cyOf(m);
    const host = contentRows.filter((r) => r.y0 <= cy && cy <= r.y1).sort((a, b) => Math.abs(a.cy - cy) - Math.abs(b.cy - cy))[0];
    const last = rows[rows.length - 1];
    if (host) host.words.push(m);
    else if (last && !contentRows.includes(last) && Math.abs(cy - last.cy) <= 0.5 * Math.min(Math.max(1, m.y1 - m.y0), last.h)) last.words.push(m);
    else rows.push({ words: [m], cy, h: Math.max(1, m.y1 - m.y0), y0: m.y0, y1: m.y1 });
  }
  return rows.sort((a, b) => a.cy - b.cy).map((r) => r.words.sort((a, b) => a.x0 - b.x0));
}

/**
 * Finds a vertical gutter that splits the page into two text columns: an x band, away from the page
 * edges, that no word crosses on most lines, with text on both sides. Returns its x or null.
 */
export function findGutter(words: Word[], pageWidth: number): number | null {
  if (words.length < 20 || pageWidth <= 0) return null;
  const bins = 100;
  const cover = new Array<number>(bins).fill(0);
  for (const w of words) {
    const a = Math.max(0, Math.floor((w.x0 / pageWidth) * bins));
    const b = Math.min(bins - 1, Math.floor((w.x1 / pageWidth) * bins));
    for (let i = a; i <= b; i++) cover[i]++;
  }
  // Search the middle band only: gutters near the margins are just margins.
  let best: { at: number; width: number } | null = null;
  let start = -1;
  for (let i = 25; i <= 75; i++) {
    if (cover[i] === 0) {
      if (start < 0) start = i;
      const width = i - start + 1;
      if (!best || width > best.width) best = { at: (start + i + 1) / 2, width };
    } else start = -1;
  }
  if (!best || best.width < 2) return null;
  const x = (best.at / bins) * pageWidth;
  const left = words.filter((w) => w.x1 <= x).length;
  const right = words.filter((w) => w.x0 >= x).length;
  return left >= 8 && right >= 8 ? x : null;
}

/** Gap (in units of line height) below which two words touch: one word the PDF wrote in pieces ("RE-20" "201121"). */
const TOUCHING_GAP = 0.03;

function joinTouching(words: Word[], height: number): Word[] {
  const out: Word[] = [];
  for (const w of words) {
    const prev = out[out.length - 1];
    // OCR draws its own word boundaries; only a text layer writes words in pieces.
    if (prev && prev.conf === undefined && w.conf === undefined && w.x0 - prev.x1 < TOUCHING_GAP * height && w.x0 >= prev.x0) {
      out[out.length - 1] = { text: prev.text + w.text, x0: prev.x0, y0: Math.min(prev.y0, w.y0), x1: Math.max(prev.x1, w.x1), y1: Math.max(prev.y1, w.y1) };
    } else out.push(w);
  }
  return out;
}

/** A letter or a joining mark printed alone, as a text layer writes letter-spaced titles ("F A C T U U R"). */
const SPACED_CHAR = /^(?:\p{L}|[&/·.'’-])$/u;

/**
 * Letter-spaced text of a text layer ("I N V O I C E   N U M B E R", "V A N  D A M M E & P E E T E R S")
 * is written as one word per letter: the letters are joined into words, the wider gaps being the
 * spaces, so labels, cues, titles and names read as printed.
 */
function joinLetterSpaced(words: Word[], height: number): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < words.length; ) {
    let j = i;
    while (j < words.length && words[j].conf === undefined && SPACED_CHAR.test(words[j].text) && (j === i || words[j].x0 - words[j - 1].x1 < PHRASE_GAP * height)) j++;
    const run = words.slice(i, j);
    if (run.filter((w) => /\p{L}/u.test(w.text)).length < 4) {
      out.push(words[i]);
      i++;
      continue;
    }
    const gaps = run.slice(1).map((w, k) => w.x0 - run[k].x1);
    const narrow = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 3)];
    let word = run[0];
    run.slice(1).forEach((w, k) => {
      if (gaps[k] > Math.max(2 * narrow, narrow + 0.15 * height)) {
        out.push(word);
        word = w;
      } else word = { text: word.text + w.text, x0: word.x0, y0: Math.min(word.y0, w.y0), x1: w.x1, y1: Math.max(word.y1, w.y1) };
    });
    out.push(word);
    i = j;
  }
  return out;
}

function buildLine(page: PageText, rowWords: Word[], gutter: number | null): Omit<Line, 'index'> {
  // Font size from the words themselves: a superscript mark beside them is smaller.
  const content = rowWords.filter((w) => !isMark(w));
  const height = median((content.length ? content : rowWords).map((w) => w.y1 - w.y0)) || 1;
  const words = joinLetterSpaced(joinTouching(rowWords, height), height);
  return {
    page: page.page,
    words,
    phrases: toPhrases(words, height, gutter),
    text: words.map((w) => w.text).join(' '),
    x0: Math.min(...words.map((w) => w.x0)),
    y0: Math.min(...words.map((w) => w.y0)),
    x1: Math.max(...words.map((w) => w.x1)),
    y1: Math.max(...words.map((w) => w.y1)),
    height,
    pageWidth: page.width,
    pageHeight: page.height,
  };
}

/**
 * Lines of one page as full-width rows (tables and label/value pairs need whole rows). With
 * detectLayout, a phrase never crosses a column gutter, so text of two columns is not run together.
 */
/** The line was read by OCR (its words carry a read confidence), not taken from a text layer. */
export function readByOcr(line: Pick<Line, 'words'>): boolean {
  return line.words.some((w) => w.conf !== undefined);
}

export function pageLines(page: PageText, opts: LayoutOptions): Omit<Line, 'index'>[] {
  const gutter = opts.detectLayout ? findGutter(page.words, page.width) : null;
  return groupRows(page.words).map((words) => buildLine(page, words, gutter));
}

/** All lines of the document (page by page, top to bottom). */
export function documentLines(pages: PageText[], opts: LayoutOptions): Line[] {
  return pages.flatMap((p) => pageLines(p, opts)).map((l, index) => ({ ...l, index }));
}

/**
 * Plain text of a page, one line per row. With detectLayout a two-column page is read column by
 * column (left column first), which is what regexes (segmentation), classification and an LLM see.
 */
export function pageTextOf(page: PageText, detectLayout = true): string {
  const gutter = detectLayout ? findGutter(page.words, page.width) : null;
  const regions = gutter === null ? [page.words] : [page.words.filter((w) => (w.x0 + w.x1) / 2 < gutter), page.words.filter((w) => (w.x0 + w.x1) / 2 >= gutter)];
  return regions
    .flatMap((r) => groupRows(r))
    .map((ws) => ws.map((w) => w.text).join(' '))
    .join('\n');
}
