// page_ranges as the spec sends it: '1-3,5,7-9', 1-based, inclusive.

const FORM = "expected page numbers and ranges like '1-3,5,7-9'";

/**
 * Sorted unique 1-based pages of `spec` that exist in a document of `numPages` pages.
 * Pages past the end are dropped; a malformed spec or one that selects no page throws.
 */
export function parsePageRanges(spec: string, numPages: number): number[] {
  const parts = spec.split(',').map((p) => p.trim());
  const pages = new Set<number>();
  for (const part of parts) {
    const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!m) throw new Error(`invalid page_ranges '${spec}': ${FORM}, got '${part}'`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to < from) {
      throw new Error(`invalid page_ranges '${spec}': ${FORM} (pages start at 1, ranges go upwards), got '${part}'`);
    }
    for (let p = from; p <= Math.min(to, numPages); p++) pages.add(p);
  }
  if (pages.size === 0) {
    throw new Error(`page_ranges '${spec}' selects no page: the document has ${numPages} page(s)`);
  }
  return [...pages].sort((a, b) => a - b);
}
