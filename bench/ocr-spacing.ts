// How well PP-OCR's words keep the spaces of the print, on the SROIE receipts of ../shared/corpus:
//   npx tsx bench/ocr-spacing.ts [corpus-dir] [--verbose]
// The truth is each receipt's line boxes (sroie/data/box/*.csv, the printed text of every line). Only
// lines whose letters the recogniser got right are compared (the same letters once spaces are dropped),
// so misread letters do not count; on those, the spaces between two letters or digits found (recall)
// and the share of the spaces given that are printed (precision). Spaces next to punctuation are left
// out: the truth spaces them inconsistently ("TEL : 03", "TEL: 03"). --verbose lists every line with a
// spacing error.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pageTextOf } from '../src/engine/layout/lines.js';
import { closeReaders, readPages } from '../src/engine/read/index.js';

const args = process.argv.slice(2);
const corpus = resolve(args.find((a) => !a.startsWith('--')) ?? resolve(import.meta.dirname, '../../shared/corpus'));
const verbose = args.includes('--verbose');
const dir = join(corpus, 'sroie/data');
if (!existsSync(join(dir, 'box'))) {
  console.log(`skipped: no SROIE line boxes at ${join(dir, 'box')}`);
  process.exit(0);
}

const letters = (s: string) => s.toLowerCase().replace(/\s+/g, '');
/** Positions (in letters, spaces dropped) of the spaces between two letters or digits. */
function spaces(s: string): Set<number> {
  const out = new Set<number>();
  const t = s.trim().replace(/\s+/g, ' ');
  let n = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i] !== ' ') n++;
    else if (/[\p{L}\p{N}]/u.test(t[i - 1] ?? '') && /[\p{L}\p{N}]/u.test(t[i + 1] ?? '')) out.add(n);
  }
  return out;
}

let found = 0, extra = 0, missed = 0, compared = 0, lines = 0;
const wrong: string[] = [];
const started = performance.now();
try {
  for (const image of readdirSync(join(dir, 'img')).filter((f) => f.endsWith('.jpg')).sort()) {
    const boxes = await readFile(join(dir, 'box', image.replace(/\.jpg$/, '.csv')), 'utf8').catch(() => '');
    // x1,y1,...,x4,y4,text: the text may hold commas.
    const truth = boxes.split(/\r?\n/).filter(Boolean).map((l) => l.split(',').slice(8).join(','));
    lines += truth.length;
    const read = (await readPages(join(dir, 'img', image), 'jpeg', { useOcr: false })).flatMap((p) => pageTextOf(p, false).split('\n'));
    const byLetters = new Map<string, string[]>();
    for (const l of read) byLetters.set(letters(l), [...(byLetters.get(letters(l)) ?? []), l]);
    for (const want of truth) {
      const got = byLetters.get(letters(want))?.shift();
      if (got === undefined || letters(want).length < 3) continue;
      compared++;
      const [a, b] = [spaces(want), spaces(got)];
      const ok = [...b].filter((p) => a.has(p)).length;
      found += ok;
      extra += b.size - ok;
      missed += a.size - ok;
      if (ok !== a.size || ok !== b.size) wrong.push(`${image}: printed "${want}" read "${got}"`);
    }
  }
} finally {
  await closeReaders();
}
console.log(`lines compared: ${compared} of ${lines} (the others were misread)`);
console.log(`spaces: recall ${(found / (found + missed)).toFixed(3)}, precision ${(found / (found + extra)).toFixed(3)} (${found} found, ${missed} missed, ${extra} not printed)`);
console.log(`lines with a spacing error: ${wrong.length}; ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (verbose) console.log(wrong.join('\n'));
