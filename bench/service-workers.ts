// The service spread over processes: jobs through one `docdrop serve --role api` and 1 or 2
// `--role worker` processes sharing a PostgreSQL database (pg-boss queue) and a files folder, compared
// with one SQLite process (--role all). Prints files/s for text PDFs, OCR pages/s for receipt photos
// (../shared/corpus/sroie, read in place) and CPU per file summed over every process.
//   npm run build && npx tsx bench/service-workers.ts [--text-files N] [--ocr-files M] [--job-concurrency C] [--setups sqlite,pg1,pg2]
// Needs PostgreSQL on 127.0.0.1:5432 (DOCDROP_TEST_PG_URL); each setup gets a fresh database, dropped after.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ServiceClient } from '../src/api/client.js';
import { createTestDatabase } from '../test/helpers/postgres.js';
import { invoicePdf, invoiceTemplate, writeFixture } from '../test/helpers/job-fixtures.js';
import { startServeProcess, type ServeProcess } from './daemon-process.js';

const { values: argv } = parseArgs({
  options: {
    'text-files': { type: 'string', default: '40' },
    'ocr-files': { type: 'string', default: '6' },
    'job-concurrency': { type: 'string', default: '1' },
    setups: { type: 'string', default: 'sqlite,pg1,pg2' },
  },
});
const TEXT_FILES = Number(argv['text-files']);
const OCR_FILES = Number(argv['ocr-files']);
const CONCURRENCY = argv['job-concurrency']!;
const KEY = 'bench-service-workers-key';
const SROIE = resolve(import.meta.dirname, '../../shared/corpus/sroie/data/img');
const CLK_TCK = 100;

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / CLK_TCK;
}

interface Setup {
  name: string;
  /** The process answering the API, then the processes running jobs (may be the same). */
  api: ServeProcess;
  all: ServeProcess[];
  close(): Promise<void>;
}

async function startSetup(name: string, workers: number, root: string): Promise<Setup> {
  const files = join(root, 'files');
  const common = ['--files', files, '--job-concurrency', CONCURRENCY];
  if (workers === 0) {
    const one = await startServeProcess(join(root, 'data-all'), KEY, { args: ['--role', 'all', ...common] });
    return { name, api: one, all: [one], close: () => stop([one]) };
  }
  const db = await createTestDatabase('svcqueue_bench');
  const pg = ['--database', db.url, ...common];
  const api = await startServeProcess(join(root, 'data-api'), KEY, { args: ['--role', 'api', ...pg] });
  const ws: ServeProcess[] = [];
  for (let i = 0; i < workers; i++) ws.push(await startServeProcess(join(root, `data-w${i}`), KEY, { args: ['--role', 'worker', ...pg] }));
  return {
    name,
    api,
    all: [api, ...ws],
    close: async () => {
      await stop([api, ...ws]);
      await db.drop();
    },
  };
}

async function stop(ps: ServeProcess[]): Promise<void> {
  for (const p of ps) p.child.kill('SIGTERM');
  await Promise.all(ps.map((p) => p.exited));
}

/** Submits one run per document and waits for all: wall seconds and CPU seconds over every process. */
async function runBatch(s: Setup, client: ServiceClient, templateId: string, docs: string[]): Promise<{ wall: number; cpu: number; completed: number }> {
  const cpu0 = (await Promise.all(s.all.map((p) => cpuSeconds(p.pid)))).reduce((a, b) => a + b, 0);
  const t0 = performance.now();
  const pending = new Set<string>();
  for (const d of docs) pending.add(((await client.runParser(d, { template_id: templateId })) as { request_id: string }).request_id);
  let completed = 0;
  while (pending.size) {
    await new Promise((r) => setTimeout(r, 200));
    for (const id of [...pending]) {
      const status = (await client.getJob(id)).request_status;
      if (status === 'pending' || status === 'processing') continue;
      pending.delete(id);
      if (status === 'completed') completed++;
    }
  }
  const wall = (performance.now() - t0) / 1000;
  const cpu = (await Promise.all(s.all.map((p) => cpuSeconds(p.pid)))).reduce((a, b) => a + b, 0) - cpu0;
  return { wall, cpu, completed };
}

const root = await mkdtemp(join(tmpdir(), 'docdrop-bench-workers-'));
try {
  const fixtures = join(root, 'fixtures');
  await mkdir(fixtures);
  const textPaths: string[] = [];
  for (let i = 0; i < TEXT_FILES; i++) {
    textPaths.push(await writeFixture(fixtures, `inv-${i}.pdf`, await invoicePdf({ number: `B-${i}`, total: `${10 + i}.00`, date: '2026-11-24' })));
  }
  const ocrPaths = existsSync(SROIE) ? (await import('node:fs')).readdirSync(SROIE).filter((f) => f.endsWith('.jpg')).slice(0, OCR_FILES).map((f) => join(SROIE, f)) : [];
  if (!ocrPaths.length) console.log(`no OCR figures: ${SROIE} is missing`);
  console.log(`service workers bench: ${TEXT_FILES} text PDFs, ${ocrPaths.length} receipt photos (OCR), --job-concurrency ${CONCURRENCY} per process`);

  const wanted = argv.setups!.split(',');
  const setups: [string, number][] = ([['sqlite', 0], ['pg1', 1], ['pg2', 2]] as [string, number][]).filter(([n]) => wanted.includes(n));
  for (const [name, workers] of setups) {
    const dir = join(root, name);
    const s = await startSetup(name, workers, dir);
    try {
      const client = new ServiceClient({ baseUrl: s.api.url, apiKey: KEY });
      const label = workers === 0 ? 'SQLite, 1 process (--role all)' : `PostgreSQL, api + ${workers} worker process${workers > 1 ? 'es' : ''}`;
      const text = (await client.createTemplate(invoiceTemplate(`Bench ${name}`))).template_id;
      const textDocs = [];
      for (const p of textPaths) textDocs.push((await client.uploadDocument(p)).document_id);
      const t = await runBatch(s, client, text, textDocs);
      console.log(`${label}: text PDFs ${t.completed}/${textDocs.length} completed, ${(textDocs.length / t.wall).toFixed(2)} files/s, ${((t.cpu / textDocs.length) * 1000).toFixed(0)} ms CPU/file (all processes)`);
      if (ocrPaths.length) {
        const ocr = (await client.createTemplate(invoiceTemplate(`Bench OCR ${name}`, { parser_config: { ocr_config: { use_ocr: true } } } as never))).template_id;
        const ocrDocs: string[] = [];
        let pages = 0;
        for (const p of ocrPaths) {
          const d = await client.uploadDocument(p);
          ocrDocs.push(d.document_id);
          pages += d.num_pages;
        }
        const o = await runBatch(s, client, ocr, ocrDocs);
        console.log(`${label}: OCR ${o.completed}/${ocrDocs.length} completed, ${(pages / o.wall).toFixed(2)} pages/s, ${(o.cpu / ocrDocs.length).toFixed(2)} s CPU/file (all processes)`);
      }
    } finally {
      await s.close();
    }
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
