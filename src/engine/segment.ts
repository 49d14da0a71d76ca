// Segmentation of run_parser: splits the pages read into segments that are extracted on their own.
//   chunk_by_pages n   -> consecutive groups of n pages
//   rolling_window n   -> windows of n pages moving by one page
//   start_regex/end_regex -> from a page matching start to the next page matching end (inclusive);
//                         first segment only unless use_all_matches
//   split_regex        -> a new segment begins at each page that matches; with use_all_matches every
//                         match splits, otherwise only the first (giving at most two segments)
// Regexes are tested against each page's text (lines joined by newlines), case-insensitively.
import { pageTextOf } from './layout/lines.js';
import { DocumentError, type EngineRunOptions, type PageText } from './types.js';

export type SegmentOptions = Pick<EngineRunOptions, 'chunkByPages' | 'rollingWindow' | 'startRegex' | 'endRegex' | 'splitRegex' | 'useAllMatches'>;

export function wantsSegmentation(o: SegmentOptions): boolean {
  return Boolean(o.chunkByPages || o.rollingWindow || o.startRegex || o.endRegex || o.splitRegex);
}

function compile(name: string, source: string): RegExp {
  try {
    return new RegExp(source, 'im');
  } catch (err) {
    throw new DocumentError(`${name} is not a valid regular expression: ${(err as Error).message}`);
  }
}

function positiveInt(name: string, n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new DocumentError(`${name} must be a whole number of pages >= 1, got ${n}`);
  return n;
}

/** Segments as lists of pages; pages keep their order. Returns [pages] when no option applies. */
export function segmentPages(pages: PageText[], o: SegmentOptions): PageText[][] {
  if (o.chunkByPages) {
    const n = positiveInt('chunk_by_pages', o.chunkByPages);
    const out: PageText[][] = [];
    for (let i = 0; i < pages.length; i += n) out.push(pages.slice(i, i + n));
    return out;
  }
  if (o.rollingWindow) {
    const n = positiveInt('rolling_window', o.rollingWindow);
    if (pages.length <= n) return [pages];
    const out: PageText[][] = [];
    for (let i = 0; i + n <= pages.length; i++) out.push(pages.slice(i, i + n));
    return out;
  }
  const texts = pages.map((p) => pageTextOf(p));
  if (o.startRegex || o.endRegex) {
    const start = o.startRegex ? compile('start_regex', o.startRegex) : null;
    const end = o.endRegex ? compile('end_regex', o.endRegex) : null;
    const out: PageText[][] = [];
    let i = 0;
    while (i < pages.length) {
      const s = start ? texts.findIndex((t, k) => k >= i && start.test(t)) : i;
      if (s < 0) break;
      let e = end ? texts.findIndex((t, k) => k >= s && end.test(t)) : -1;
      if (e < 0) {
        // No end: the segment runs to the page before the next start, or to the end of the document.
        const nextStart = start ? texts.findIndex((t, k) => k > s && start.test(t)) : -1;
        e = nextStart > 0 ? nextStart - 1 : pages.length - 1;
      }
      out.push(pages.slice(s, e + 1));
      if (!o.useAllMatches) break;
      i = e + 1;
    }
    return out;
  }
  if (o.splitRegex) {
    const re = compile('split_regex', o.splitRegex);
    const starts = texts.map((t, k) => (k > 0 && re.test(t) ? k : -1)).filter((k) => k > 0);
    const cuts = o.useAllMatches ? starts : starts.slice(0, 1);
    const bounds = [0, ...cuts, pages.length];
    return bounds.slice(0, -1).map((b, k) => pages.slice(b, bounds[k + 1]));
  }
  return [pages];
}
