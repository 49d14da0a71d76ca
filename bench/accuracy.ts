// Accuracy of `docdrop serve` on the real documents of ../shared/corpus, measured over HTTP:
// upload (multipart, or the pre-signed flow over 6 MB), run a Workflow (run_parser), poll, classify; then per source and field the share of exact
// matches after normalisation (dates ISO, amounts as numbers, names case/space/punctuation folded),
// line items (row count and amounts), classification accuracy and seconds per page. Confidence quality
// per field kind (the job's field_confidence extension): at each threshold T, the share of WRONG values
// among those scored under T and the share of RIGHT values among those at or above T, and the mean
// confidence of right and of wrong values.
// The service is `docdrop serve` in a child process started with the node flags and Environment= of
// systemd/docdrop.service (from dist/ when built, so build first), and its peak RSS is its VmHWM.
//   npm run build && npx tsx bench/accuracy.ts [corpus-dir] [--only=substring,...] [--text-only] [--thresholds=0.3,0.5,0.7]
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fetch, FormData } from 'undici';
import { LINE_ITEMS_FIELD, loadTruth, type Truth } from './corpus-truth.js';
import { startServeProcess, unitRuntime, vmHwmKb } from './daemon-process.js';
import { MULTIPART_MAX_BYTES } from '../src/service/serve-options.js';

const args = process.argv.slice(2);
const root = resolve(args.find((a) => !a.startsWith('--')) ?? join(import.meta.dirname, '../../shared/corpus'));
const only = args.find((a) => a.startsWith('--only='))?.slice(7);
// --text-only: born-digital PDFs only (no OCR), a quick run.
const textOnly = args.includes('--text-only');
const thresholds = (args.find((a) => a.startsWith('--thresholds='))?.slice(13) ?? '0.3,0.5,0.7').split(',').map(Number);
if (!existsSync(join(root, 'INDEX.csv'))) {
  console.log(`bench/accuracy: skipped, no corpus at ${root} (expects ../shared/corpus with INDEX.csv)`);
  process.exit(0);
}

const KEY = 'bench-key';
/** Poll interval: short, so that seconds per page measure the service rather than the polling. */
const POLL_MS = 20;
const INVOICE_FIELDS = [
  { name: 'invoice_number', type: 'text', description: 'Invoice number' },
  { name: 'date', type: 'date', description: 'Invoice date' },
  { name: 'total', type: 'number', description: 'Total amount to pay, including tax' },
  { name: 'vendor', type: 'text', description: 'Name of the seller issuing the invoice' },
  LINE_ITEMS_FIELD,
];
const RECEIPT_FIELDS = [
  { name: 'company', type: 'text', description: 'Name of the shop or business' },
  { name: 'date', type: 'date', description: 'Date of purchase' },
  { name: 'address', type: 'text', description: 'Address of the shop' },
  { name: 'total', type: 'number', description: 'Total amount paid' },
];
const CLASSES = [
  { label: 'invoice', description: 'An invoice or bill from a seller asking for payment, with invoice number, due date and tax' },
  { label: 'receipt', description: 'A receipt from a shop, restaurant or ticket machine for a purchase already paid by cash or card' },
  { label: 'other', description: 'Any other document: letters, forms, shipping papers, tables, reports' },
];

const dataDir = await mkdtemp(join(tmpdir(), 'docdrop-bench-'));
const runtime = await unitRuntime();
const service = await startServeProcess(dataDir, KEY, runtime);
const api = async (method: string, path: string, body?: unknown): Promise<any> => {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { 'x-api-key': KEY, ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}) },
    body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
};

const fold = (s: unknown): string =>
  String(s ?? '')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '');
/** The words of a name or address, spacing counted but not punctuation ("FLR,AEON" = "FLR, AEON" = flr aeon). */
const words = (s: unknown): string =>
  String(s ?? '')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ');
function same(field: string, want: string | number, got: unknown): boolean {
  if (typeof want === 'number') return typeof got === 'number' && Math.abs(got - want) < 0.005;
  if (field === 'date') return got === want;
  return fold(want) !== '' && fold(want) === fold(got);
}
function linesMatch(want: (number | null)[], got: unknown): boolean {
  if (!Array.isArray(got) || got.length !== want.length) return false;
  return want.every((w, i) => w === null || [got[i]?.amount, got[i]?.unit_price].some((g) => typeof g === 'number' && Math.abs(g - w) < 0.005));
}

/** Multipart up to the 6 MB limit, the pre-signed flow above it (large scans), as the daemon does. */
async function upload(path: string): Promise<any> {
  const bytes = await readFile(path);
  if (bytes.length <= MULTIPART_MAX_BYTES) {
    const form = new FormData();
    form.append('file', new Blob([bytes]), basename(path));
    return api('POST', '/v1/documents', form);
  }
  const { upload_url, document_id } = await api('GET', `/v1/documents/upload_url?file_name=${encodeURIComponent(basename(path))}`);
  const put = await fetch(upload_url, { method: 'PUT', body: bytes });
  if (!put.ok) throw new Error(`PUT ${upload_url}: ${put.status}`);
  return api('POST', '/v1/documents', { document_id, file_name: basename(path) });
}

async function poll(requestId: string): Promise<any> {
  for (;;) {
    const job = await api('GET', `/files?request_id=${requestId}`);
    if (!['pending', 'processing'].includes(job.request_status)) return job;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

try {
  const invoiceWf = await api('POST', '/v1/templates', { template_title: 'bench invoice', template_type: 'invoice', template_schema: { fields: INVOICE_FIELDS } });
  const receiptWf = await api('POST', '/v1/templates', { template_title: 'bench receipt', template_type: 'receipt', template_schema: { fields: RECEIPT_FIELDS } });
  const truths = (await loadTruth(root)).filter((t) => (!only || only.split(',').some((o) => t.file.includes(o))) && (!textOnly || t.reading === 'text'));
  const score = new Map<string, { ok: number; n: number; words: number }>();
  const add = (key: string, ok: boolean, wordsOk?: boolean) => {
    const s = score.get(key) ?? { ok: 0, n: 0, words: 0 };
    s.n++;
    if (ok) s.ok++;
    if (wordsOk) s.words++;
    score.set(key, s);
  };
  const pageTime = { text: { s: 0, pages: 0 }, ocr: { s: 0, pages: 0 } };
  /** Per field kind: was each value right, and the confidence the service gave it. */
  const scored = new Map<string, { ok: boolean; c: number }[]>();
  const addScored = (field: string, ok: boolean, c: unknown) => {
    if (typeof c !== 'number') return;
    scored.set(field, [...(scored.get(field) ?? []), { ok, c }]);
  };
  const misses: string[] = [];
  /** Right but for spaces: the same letters, other words. */
  const spacing: string[] = [];
  /** Right values scored under the middle threshold: what a reviewer would look at for nothing. */
  const doubtedRight: string[] = [];
  const failures: string[] = [];
  for (const t of truths) {
    try {
      await runOne(t);
    } catch (err) {
      // A service error on one document is reported and counted as a miss of every field.
      failures.push(`${t.file}: ${(err as Error).message}`);
      for (const field of Object.keys(t.fields)) add(`${t.source}/${t.reading}|${field}`, false);
      add(`classification|${t.docClass}`, false);
    }
  }
  async function runOne(t: Truth): Promise<void> {
    const doc = await upload(join(root, t.file));
    const wf = t.kind === 'receipt' ? receiptWf : invoiceWf;
    const started = performance.now();
    const run = await api('GET', `/v1/documents/${doc.document_id}/run_parser?template_id=${wf.template_id}`);
    const job = await poll(run.request_id);
    const seconds = (performance.now() - started) / 1000;
    pageTime[t.reading].s += seconds;
    pageTime[t.reading].pages += doc.num_pages;
    const data = job.response_body?.result_json_data ?? {};
    if (process.env.BENCH_VERBOSE) console.log(`${t.file}: ${job.request_status} in ${seconds.toFixed(1)} s ${JSON.stringify(data).slice(0, 160)}`);
    if (job.request_status !== 'completed') misses.push(`${t.file}: job ${job.request_status} ${job.response_body?.user_error_msg ?? ''}`);
    const group = `${t.source}/${t.reading}`;
    // The goal groups: born-digital invoices across sources, and the SROIE receipts.
    const goal = t.reading === 'text' && t.kind === 'invoice' ? 'GOAL born-digital invoices' : t.source === 'sroie' ? 'GOAL sroie receipts' : null;
    for (const [field, want] of Object.entries(t.fields)) {
      const ok = same(field, want as string | number, data[field]);
      // Text values also compared word for word: the spaces OCR lost or added count here.
      const wordsOk = typeof want === 'string' && field !== 'date' ? words(want) === words(data[field]) : undefined;
      add(`${group}|${field}`, ok, wordsOk);
      addScored(field, ok, job.field_confidence?.[field]);
      if (goal) add(`${goal}|${field}`, ok, wordsOk);
      if (!ok) misses.push(`${t.file} ${field}: want ${JSON.stringify(want)} got ${JSON.stringify(data[field])} (confidence ${job.field_confidence?.[field]})`);
      else if (wordsOk === false) spacing.push(`${t.file} ${field}: want ${JSON.stringify(want)} got ${JSON.stringify(data[field])}`);
      else if (job.field_confidence?.[field] < thresholds[Math.floor(thresholds.length / 2)]) doubtedRight.push(`${t.file} ${field}: ${JSON.stringify(data[field])} (confidence ${job.field_confidence[field]})`);
    }
    if (t.lines && t.kind === 'invoice') {
      const ok = linesMatch(t.lines, data.line_items);
      add(`${group}|line_items`, ok);
      addScored('line_items', ok, job.field_confidence?.line_items);
      if (goal) add(`${goal}|line_items`, ok);
      if (!ok) misses.push(`${t.file} line_items: want ${JSON.stringify(t.lines)} got ${JSON.stringify((data.line_items ?? []).map((r: any) => r.amount))}`);
    }
    // Classification needs a completed extraction first (spec); a failed job counts as a miss.
    const cls = job.request_status === 'completed' ? await api('POST', '/v1/classify', { document_id: doc.document_id, classification_schema: CLASSES }) : {};
    add(`classification|${t.docClass}`, cls.classification === t.docClass);
    if (cls.classification !== t.docClass) misses.push(`${t.file} class: want ${t.docClass} got ${cls.classification} ${JSON.stringify(cls.confidence_scores)}`);
  }

  // exact: after folding case, spaces and punctuation; words: the same words, so lost or added spaces count.
  console.log('\nsource/reading                 field            exact   n  words');
  for (const [key, s] of [...score.entries()].sort()) {
    const [group, field] = key.split('|');
    const wordsCell = ['vendor', 'company', 'address', 'invoice_number'].includes(field) ? (s.words / s.n).toFixed(2).padStart(6) : '';
    console.log(`${group.padEnd(30)} ${field.padEnd(16)} ${(s.ok / s.n).toFixed(2).padStart(5)} ${String(s.n).padStart(3)}${wordsCell}`);
  }
  printConfidenceQuality(scored, thresholds);
  const cls = [...score.entries()].filter(([k]) => k.startsWith('classification|')).reduce((a, [, s]) => ({ ok: a.ok + s.ok, n: a.n + s.n }), { ok: 0, n: 0 });
  console.log(`\nclassification accuracy (invoice/receipt/other): ${(cls.ok / Math.max(1, cls.n)).toFixed(2)} over ${cls.n}`);
  for (const k of ['text', 'ocr'] as const) {
    const p = pageTime[k];
    if (p.pages) console.log(`seconds per ${k} page: ${(p.s / p.pages).toFixed(3)} (${p.pages} pages, jobs run one at a time, polling every ${POLL_MS} ms)`);
  }
  const env = Object.entries(runtime.env).map(([k, v]) => `${k}=${v}`);
  console.log(`service peak RSS: ${((await vmHwmKb(service.pid)) / 1024).toFixed(0)} MB (VmHWM; docdrop serve via ${service.via}, ${[...runtime.nodeFlags, ...env].join(' ')})`);
  if (failures.length) console.log(`\ndocuments the service failed on (${failures.length}):\n${failures.join('\n')}`);
  if (process.env.BENCH_VERBOSE) console.log(`\nmisses:\n${misses.join('\n')}`);
  if (process.env.BENCH_VERBOSE) console.log(`\nright but for spaces:\n${spacing.join('\n')}`);
  if (process.env.BENCH_VERBOSE) console.log(`\nright values under T=${thresholds[Math.floor(thresholds.length / 2)]}:\n${doubtedRight.join('\n')}`);
} finally {
  service.child.kill('SIGTERM');
  await service.exited;
  await rm(dataDir, { recursive: true, force: true });
}


/** At each threshold: wrong share under it, right share at or above it, per field kind and over all. */
function printConfidenceQuality(scored: Map<string, { ok: boolean; c: number }[]>, ts: number[]): void {
  if (scored.size === 0) return console.log('\nconfidence: the service gave no field_confidence');
  const share = (xs: { ok: boolean }[], ok: boolean) => (xs.length ? (xs.filter((x) => x.ok === ok).length / xs.length).toFixed(2) : '  - ');
  const mean = (xs: { c: number }[]) => (xs.length ? (xs.reduce((a, x) => a + x.c, 0) / xs.length).toFixed(2) : '  - ');
  console.log(`\nconfidence quality (field_confidence): mean of right / wrong values; at T: wrong share under T (n), right share at or above T (n)`);
  const all = [...scored.values()].flat();
  for (const [kind, xs] of [...[...scored.entries()].sort(), ['ALL', all] as const]) {
    const cells = ts.map((t) => {
      const under = xs.filter((x) => x.c < t);
      const over = xs.filter((x) => x.c >= t);
      return `T=${t}: ${share(under, false)} (${String(under.length).padStart(3)}) ${share(over, true)} (${String(over.length).padStart(3)})`;
    });
    console.log(`${String(kind).padEnd(16)} right ${mean(xs.filter((x) => x.ok))} wrong ${mean(xs.filter((x) => !x.ok))} n=${String(xs.length).padStart(3)} | ${cells.join(' | ')}`);
  }
}
