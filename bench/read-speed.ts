// Reading-layer speed and OCR ceiling on ../shared/corpus:
//   node --import tsx bench/read-speed.ts [--only-sroie | --only-text | --skip-sroie] [--limit N] [--verbose]
// Prints seconds per text-layer page and per OCR page (wall and CPU; CPU counts every thread of
// this process, so it stays meaningful when other work shares the machine), peak RSS while OCR
// runs, and for the SROIE receipts the share whose truth company/date/total strings appear in the
// OCR text with spaces removed, ignoring case (an extractor normalises "05 Mar 2018" anyway), and
// whose address does with only letters and digits kept (its commas and line breaks are not
// printed): the ceiling for field extraction on them. OCR documents are read
// two at a time, as the service's jobs would, so s/page is throughput.
// Under tsx every worker thread compiles the sources too, which adds ~400 MB of RSS; for the RSS the
// service would have, run the compiled build:
//   npx tsc -p . --outDir .bench-dist && DOCDROP_CORPUS=../shared/corpus node .bench-dist/bench/read-speed.js
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { closeReaders, countPages, readPages } from '../src/engine/read/index.js';
import { detectFileKind } from '../src/shared/file-kind.js';
import type { PageText } from '../src/engine/types.js';

const corpus = resolve(process.env.DOCDROP_CORPUS ?? resolve(import.meta.dirname, '../../shared/corpus'));
const args = process.argv.slice(2);
const onlySroie = args.includes('--only-sroie');
const onlyText = args.includes('--only-text');
const skipSroie = args.includes('--skip-sroie');
const verbose = args.includes('--verbose');
const limit = args.includes('--limit') ? Number(args[args.indexOf('--limit') + 1]) : Infinity;

if (!existsSync(join(corpus, 'INDEX.csv'))) {
  console.log(`skipped: no corpus at ${corpus} (INDEX.csv missing)`);
  process.exit(0);
}

/** INDEX.csv rows as objects (quoted cells may hold commas). */
async function index(): Promise<Record<string, string>[]> {
  const lines = (await readFile(join(corpus, 'INDEX.csv'), 'utf8')).split(/\r?\n/).filter(Boolean);
  const cells = (line: string) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1].replace(/^"|"$/g, '').replace(/""/g, '"'));
  const [head, ...rows] = lines.map(cells);
  return rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ''])));
}

interface Run {
  pages: number;
  wall: number;
  cpu: number;
}

async function timed(file: string, useOcr: boolean): Promise<{ run: Run; pages: PageText[] }> {
  const kind = await detectFileKind(file);
  if (!kind) throw new Error(`${file}: not a supported file`);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await countPages(file, kind);
  const pages = await readPages(file, kind, { useOcr });
  const cpu = process.cpuUsage(cpu0);
  if (verbose) console.log(`  ${file}: ${pages.length} page(s), ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU, RSS ${Math.round(process.memoryUsage.rss() / 2 ** 20)} MB`);
  return { run: { pages: pages.length, wall: (performance.now() - t0) / 1000, cpu: (cpu.user + cpu.system) / 1e6 }, pages };
}

function summary(label: string, runs: Run[]): void {
  const pages = runs.reduce((s, r) => s + r.pages, 0);
  const wall = runs.reduce((s, r) => s + r.wall, 0);
  const cpu = runs.reduce((s, r) => s + r.cpu, 0);
  console.log(`${label}: ${runs.length} documents, ${pages} pages, ${(wall / pages).toFixed(3)} s/page wall, ${(cpu / pages).toFixed(3)} s/page CPU`);
}

const rows = await index();
const squash = (s: string) => s.replace(/\s+/g, '').toUpperCase();
const alnum = (s: string) => s.replace(/[^\p{L}\p{N}]+/gu, '').toUpperCase();

// Warm-up: worker start, pdf.js and tesseract model load are one-off costs, not per page.
const firstText = rows.find((r) => r.format === 'pdf' && r.text_layer === 'yes');
const firstImage = rows.find((r) => r.format === 'jpg');
if (firstText) await timed(join(corpus, firstText.file), false);
if (firstImage) await timed(join(corpus, firstImage.file), false);

if (!onlySroie) {
  const textRuns: Run[] = [];
  for (const r of rows.filter((r) => r.format === 'pdf' && r.text_layer === 'yes').slice(0, limit)) {
    textRuns.push((await timed(join(corpus, r.file), false)).run);
  }
  summary('text-layer PDF pages', textRuns);
}

if (onlyText) {
  await closeReaders();
  process.exit(0);
}

let peakRss = process.memoryUsage.rss();
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);

const ocrRows = rows.filter((r) => (r.format !== 'pdf' || r.text_layer === 'no') && (!onlySroie || r.source === 'sroie') && (!skipSroie || r.source !== 'sroie'));
const ocrRuns: Run[] = [];
const hits = { date: 0, total: 0, company: 0, address: 0 };
let receipts = 0;
const todo = ocrRows.slice(0, limit);
const ocrStart = performance.now();
const ocrCpu = process.cpuUsage();
async function ocrNext(): Promise<void> {
  for (let r = todo.shift(); r; r = todo.shift()) await ocrOne(r);
}
async function ocrOne(r: Record<string, string>): Promise<void> {
  const { run, pages } = await timed(join(corpus, r.file), false);
  ocrRuns.push(run);
  if (r.source !== 'sroie') return;
  const key = JSON.parse(await readFile(join(corpus, 'sroie/data/key', basename(r.file).replace(/\.jpg$/, '.json')), 'utf8'));
  const raw = pages.flatMap((p) => p.words.map((w) => w.text)).join('');
  receipts++;
  for (const field of ['date', 'total', 'company'] as const) {
    if (key[field] && squash(raw).includes(squash(key[field]))) hits[field]++;
  }
  if (key.address && alnum(raw).includes(alnum(key.address))) hits.address++;
}
await Promise.all([ocrNext(), ocrNext()]);
clearInterval(sampler);
const ocrPages = ocrRuns.reduce((s, r) => s + r.pages, 0);
const cpu = process.cpuUsage(ocrCpu);
console.log(
  `OCR pages (images and image-only PDFs), 2 documents at a time: ${ocrRuns.length} documents, ${ocrPages} pages, ` +
    `${((performance.now() - ocrStart) / 1000 / ocrPages).toFixed(2)} s/page wall (throughput), ${((cpu.user + cpu.system) / 1e6 / ocrPages).toFixed(2)} s/page CPU`,
);
console.log(`peak RSS while OCR ran: ${Math.round(peakRss / 2 ** 20)} MB`);
if (receipts > 0) {
  const share = (n: number) => (n / receipts).toFixed(2);
  console.log(`SROIE OCR ceiling over ${receipts} receipts (truth string in the OCR text, spaces removed):`);
  console.log(`  ${Object.entries(hits).map(([field, n]) => `${field} ${share(n)}`).join('  ')}`);
}
await closeReaders();
