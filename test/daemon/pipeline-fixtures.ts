// Shared set-up of the daemon's pipeline, e2e, crash and CLI tests: a temp folder tree, a config written
// as YAML (parsed by the real loader), small text-PDF invoices, waiting on the ledger, reading CSV back.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PDFDocument } from '@cantoo/pdf-lib';
import { parseConfig, type DaemonConfig } from '../../src/daemon/config/config.js';
import { invoicePdf } from '../helpers/job-fixtures.js';

export { invoicePdf, contractPdf, invoiceTemplate, invoiceFields } from '../helpers/job-fixtures.js';

export interface TempTree {
  root: string;
  cleanup(): Promise<void>;
}

export async function tempTree(prefix = 'docdrop-daemon-'): Promise<TempTree> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

export interface RuleYaml {
  name?: string;
  workflow?: string;
  classifier?: string;
  format?: 'csv' | 'xlsx' | 'json';
  layout?: 'flat' | 'line_items';
  group?: 'per_document' | 'daily';
  duplicates?: 'skip' | 'process';
  success?: 'move' | 'delete' | 'keep';
}

/** Config YAML for a daemon rooted at `root`: inbox/, outbox/, processed/, failed/, duplicates/, state.db. */
export function configYaml(opts: {
  root: string;
  baseUrl: string;
  apiKey: string;
  rules?: RuleYaml[];
  requestsPerSecond?: number;
  giveUpAfterS?: number;
  pollInitialS?: number;
  uploadConcurrency?: number;
  pollConcurrency?: number;
  logLevel?: string;
}): string {
  const rules = (opts.rules ?? [{}]).map((r) => {
    const name = r.name ?? 'invoices';
    const target = r.classifier ? `classifier: "${r.classifier}"` : `workflow: "${r.workflow ?? 'Invoices'}"`;
    return `
  - name: ${name}
    watch: ${join(opts.root, 'inbox', name)}
    stable_ms: 150
    ${target}
    duplicates: ${r.duplicates ?? 'skip'}
    output:
      dir: ${join(opts.root, 'outbox', '{rule}')}
      format: ${r.format ?? 'csv'}
      layout: ${r.layout ?? 'line_items'}
      group: ${r.group ?? 'per_document'}
    after:
      success: ${r.success ?? 'move'}
      processed_dir: ${join(opts.root, 'processed', '{rule}')}
      failed_dir: ${join(opts.root, 'failed', '{rule}')}
      duplicates_dir: ${join(opts.root, 'duplicates', '{rule}')}`;
  });
  return `
log_level: ${opts.logLevel ?? process.env.DOCDROP_TEST_LOG ?? 'silent'}
rescan_interval_s: 5
service:
  base_url: ${opts.baseUrl}
  api_key: ${opts.apiKey}
  requests_per_second: ${opts.requestsPerSecond ?? 200}
  upload_concurrency: ${opts.uploadConcurrency ?? 4}
  poll_concurrency: ${opts.pollConcurrency ?? 16}
  polling: { initial_s: ${opts.pollInitialS ?? 0.2}, max_s: 1, give_up_after_s: ${opts.giveUpAfterS ?? 120} }
state:
  path: ${join(opts.root, 'state.db')}
rules:${rules.join('')}
`;
}

export async function writeConfig(root: string, yaml: string): Promise<{ path: string; config: DaemonConfig }> {
  const path = join(root, 'docdrop.yaml');
  await writeFile(path, yaml);
  return { path, config: parseConfig(yaml, { baseDir: root, source: path }) };
}

/** Polls `check` until it returns a value other than undefined/false; fails with `what` after timeoutMs. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** RFC 4180 CSV back into rows of strings. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const s = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\r' && s[i + 1] === '\n') {
      row.push(field), rows.push(row), (row = []), (field = ''), i++;
    } else field += c;
  }
  if (field !== '' || row.length) row.push(field), rows.push(row);
  return rows;
}

export async function readCsvFile(path: string): Promise<{ header: string[]; rows: Record<string, string>[] }> {
  const [header = [], ...rest] = parseCsv(await readFile(path, 'utf8'));
  return { header, rows: rest.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? '']))) };
}

/** Files (not hidden) directly in a folder, or [] when it does not exist. */
export async function listFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && !e.name.startsWith('.')).map((e) => e.name).sort();
  } catch {
    return [];
  }
}

/** A text PDF invoice numbered `n`, with two line items. */
export function numberedInvoice(n: number): Promise<Buffer> {
  return invoicePdf({
    number: `INV-${String(n).padStart(5, '0')}`,
    date: '2026-11-02',
    total: '25.50',
    items: [
      { description: 'Widget A', amount: '20.00' },
      { description: 'Widget B', amount: '5.50' },
    ],
  });
}

/** A PDF over the 6 MB multipart limit: an invoice page plus a random attachment that does not compress. */
export async function largeInvoicePdf(bytes = 7 * 1024 * 1024): Promise<Buffer> {
  const doc = await PDFDocument.load(await numberedInvoice(99_999));
  await doc.attach(randomBytes(bytes), 'padding.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
