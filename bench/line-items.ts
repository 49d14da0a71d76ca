// Line items of ../shared/corpus read from the page by the built-in table rules, in-process: every
// invoice with line-item truth (ZUGFeRD ones too, whose embedded XML is ignored here so that the table
// rules are what is measured), plus the receipts with the invoice line_items field to count junk rows.
// Prints per document the rows found against the truth (count and amounts), the table confidence, the
// share of exact tables, and milliseconds of table extraction per page.
//   npx tsx bench/line-items.ts [corpus-dir] [--only=substring,...] [--ocr] [--verbose]
// --ocr adds image documents and scanned PDFs (slow: OCR).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { documentLines } from '../src/engine/layout/lines.js';
import { readTable } from '../src/engine/builtin/extract-table.js';
import { closeReaders, readPages } from '../src/engine/read/index.js';
import { detectFileKind } from '../src/shared/file-kind.js';
import { LINE_ITEMS_FIELD, loadTruth } from './corpus-truth.js';

const args = process.argv.slice(2);
const root = resolve(args.find((a) => !a.startsWith('--')) ?? join(import.meta.dirname, '../../shared/corpus'));
const only = args.find((a) => a.startsWith('--only='))?.slice(7);
const withOcr = args.includes('--ocr');
const verbose = args.includes('--verbose');
if (!existsSync(join(root, 'INDEX.csv'))) {
  console.log(`bench/line-items: skipped, no corpus at ${root}`);
  process.exit(0);
}


const near = (a: unknown, b: number) => typeof a === 'number' && Math.abs(a - b) < 0.005;
const truths = (await loadTruth(root)).filter(
  (t) => (!only || only.split(',').some((o) => t.file.includes(o))) && (withOcr || t.reading === 'text') && (t.lines !== undefined || t.kind === 'receipt'),
);
let exact = 0;
let scored = 0;
let junk = 0;
let ms = 0;
let pages = 0;
try {
  for (const t of truths) {
    const path = join(root, t.file);
    const kind = await detectFileKind(path);
    if (!kind) continue;
    const read = await readPages(path, kind, { useOcr: false });
    const lines = documentLines(read, { detectLayout: true });
    const started = performance.now();
    const { rows, confidence } = readTable(lines, LINE_ITEMS_FIELD, { ctx: { monthFirst: false }, dateFormat: null, strict: false });
    ms += performance.now() - started;
    pages += read.length;
    const got = rows.map((r) => r.amount ?? r.unit_price ?? null);
    let verdict: string;
    if (t.lines && t.kind === 'invoice') {
      const want = t.lines;
      const ok = rows.length === want.length && want.every((w, i) => w === null || near(rows[i].amount, w) || near(rows[i].unit_price, w));
      scored++;
      if (ok) exact++;
      verdict = `${ok ? 'ok  ' : 'MISS'} want ${JSON.stringify(want)}`;
    } else {
      junk += rows.length;
      verdict = `receipt rows ${rows.length}`;
    }
    console.log(`${verdict} got ${JSON.stringify(got)} conf ${confidence.toFixed(2)}  ${t.file}`);
    if (verbose) for (const r of rows) console.log(`      ${JSON.stringify(r)}`);
  }
} finally {
  await closeReaders();
}
console.log(`\nline items exact (count and amounts): ${(exact / Math.max(1, scored)).toFixed(2)} over ${scored} invoices`);
console.log(`rows found on receipts (line_items field of an invoice Workflow): ${junk}`);
console.log(`table extraction: ${(ms / Math.max(1, pages)).toFixed(2)} ms per page (readTable on the lines, ${pages} pages)`);
