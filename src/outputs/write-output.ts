// Writes extraction results into a destination folder, for the daemon's two output groupings:
//   per_document  writeOutputFile: one file per document, replaced atomically.
//   daily         writeGroupedOutput: one growing file per day (or any group name the caller picks).
//
// Grouped files are idempotent by request id: the daemon repeats a write after a crash, and a repeat
// must replace that document's rows, not add them twice. The group's records are kept in a hidden
// sidecar, `.<file>.records.json`, next to the file; each write updates the sidecar (atomically) and
// then regenerates the whole CSV/XLSX/JSON from it (atomically). Why a sidecar rather than reading the
// CSV/XLSX back: those lose the mapping from rows to request ids (the request id column is optional,
// and line_items spreads a document over several rows), lose types in CSV, and a person may have edited
// the file. A crash between the two steps is harmless: the daemon repeats the write, which upserts the
// same record and regenerates the file. Writes to one group file are serialised in this process and
// batched (records arriving while a write runs go out together in the next one), so concurrent workers
// lose nothing and a busy day costs far fewer regenerations.
//
// Several daemon processes (on one host or several) writing the same group file: each batch's
// read-modify-write of the sidecar runs under a cross-process lock, proper-lockfile's lock directory
// `.<file>.records.json.lock` beside it. It rests on mkdir being atomic (one server-side operation on
// NFS) and on mtimes compared with each host's clock, so it holds on local file systems and on NFS v3/v4
// between hosts whose clocks agree (NTP); not on eventually consistent object-store mounts (s3fs,
// gcsfuse...), where two writers can both "create" the folder. A holder that dies leaves the lock stale
// after LOCK_STALE_MS (its mtime is refreshed every LOCK_UPDATE_MS while held); the others take it over.
import { mkdir, readFile, rename, stat } from 'node:fs/promises';
import lockfile from 'proper-lockfile';
import path from 'node:path';
import type { FieldDefinition } from '../api/types.js';
import { sanitiseFileName, uniquePath } from '../shared/safe-paths.js';
import { inFolder } from '../shared/in-folder.js';
import { atomicWriteFile } from '../shared/atomic-write.js';
import { toCsv } from './csv.js';
import { toJson } from './json.js';
import { buildTable, type OutputRecord, type TableOptions } from './table.js';

export type OutputFormat = 'csv' | 'xlsx' | 'json';

export interface OutputSpec extends TableOptions {
  format: OutputFormat;
  /** The Workflow's template_schema.fields (column order and types). */
  fields: FieldDefinition[];
  /** Start CSV files with a UTF-8 BOM so Excel reads non-ASCII text correctly (default false). */
  csvBom?: boolean;
  /** XLSX sheet name (default 'Results'). */
  sheetName?: string;
}

export interface WriteOutputOptions extends OutputSpec {
  dir: string;
  /** File name without extension (sanitised; the format's extension is appended). */
  baseName: string;
  /** Appended to baseName and kept whole however long baseName is (e.g. "-<request id>"), so names stay unique. */
  uniqueSuffix?: string;
  records: OutputRecord[];
  /**
   * replace (default): overwrite an existing file of that name, so a repeated write is idempotent.
   * unique: never overwrite; take `name (1).csv`... (the caller should record the returned path).
   */
  onExisting?: 'replace' | 'unique';
}

/** `<baseName><suffix>.<format>`, sanitised; a long baseName is cut, the suffix and extension never are. */
export function outputFileName(baseName: string, format: OutputFormat, suffix = ''): string {
  return sanitiseFileName(baseName, { keepExtension: false, suffix: `${suffix}.${format}` });
}

/** Writes one output file atomically and returns its absolute path. */
export async function writeOutputFile(opts: WriteOutputOptions): Promise<string> {
  const name = outputFileName(opts.baseName, opts.format, opts.uniqueSuffix);
  return inFolder(opts.dir, async () => {
    const dest = opts.onExisting === 'unique' ? await uniquePath(path.resolve(opts.dir), name) : path.resolve(opts.dir, name);
    await renderOutput(opts, opts.records, dest);
    return dest;
  });
}

/** Renders records in the spec's format to dest, atomically. */
export async function renderOutput(spec: OutputSpec, records: OutputRecord[], dest: string): Promise<void> {
  if (spec.format === 'json') return atomicWriteFile(dest, toJson(records, spec.fields));
  const table = buildTable(spec.fields, records, spec);
  if (spec.format === 'csv') return atomicWriteFile(dest, toCsv(table, { bom: spec.csvBom }));
  // exceljs (~25 MB resident) is loaded on the first XLSX write only: a daemon writing CSV never carries it.
  const { writeXlsx } = await import('./xlsx.js');
  return writeXlsx([{ name: spec.sheetName ?? 'Results', table }], dest);
}

export interface GroupedOutputOptions extends OutputSpec {
  dir: string;
  /** Group file name without extension, e.g. the day: '2026-11-21' or 'invoices-2026-11-21'. */
  baseName: string;
  record: OutputRecord;
}

interface Pending {
  spec: OutputSpec;
  record: OutputRecord;
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface Group {
  pending: Pending[];
  running: boolean;
}

const groups = new Map<string, Group>();

/**
 * Adds (or replaces, by requestId) one record in a group file and regenerates it; resolves with the
 * file's absolute path once the record is durably in both the sidecar and the file.
 */
export async function writeGroupedOutput(opts: GroupedOutputOptions): Promise<string> {
  await mkdir(opts.dir, { recursive: true });
  const dest = path.resolve(opts.dir, outputFileName(opts.baseName, opts.format));
  const group = groups.get(dest) ?? { pending: [], running: false };
  groups.set(dest, group);
  const done = new Promise<void>((resolve, reject) => group.pending.push({ spec: opts, record: opts.record, resolve, reject }));
  if (!group.running) void drain(dest, group);
  await done;
  return dest;
}

async function drain(dest: string, group: Group): Promise<void> {
  group.running = true;
  while (group.pending.length) {
    const batch = group.pending.splice(0);
    try {
      await writeBatch(dest, batch);
      batch.forEach((p) => p.resolve());
    } catch (err) {
      batch.forEach((p) => p.reject(err));
    }
  }
  group.running = false;
  groups.delete(dest);
}

export function sidecarPath(dest: string): string {
  return path.join(path.dirname(dest), `.${path.basename(dest)}.records.json`);
}

interface Sidecar {
  version: 1;
  records: OutputRecord[];
}

/** A dead holder's lock is taken over after this; a live holder refreshes its lock far more often. */
const LOCK_STALE_MS = 20_000;
const LOCK_UPDATE_MS = 2_000;

/**
 * Runs fn holding the group file's cross-process lock, waiting for it as long as other writers keep it.
 * A lock found compromised (its mtime went stale under us: a paused process) fails the write, which the
 * pipeline repeats: the upsert by request id makes the repeat harmless.
 */
async function withGroupLock(dest: string, fn: () => Promise<void>): Promise<void> {
  let lost: Error | null = null;
  const release = await lockfile.lock(dest, {
    realpath: false,
    lockfilePath: `${sidecarPath(dest)}.lock`,
    stale: LOCK_STALE_MS,
    update: LOCK_UPDATE_MS,
    retries: { retries: 2000, factor: 1.3, minTimeout: 10, maxTimeout: 250, randomize: true },
    onCompromised: (err) => {
      lost = err;
    },
  });
  try {
    await fn();
  } finally {
    await release().catch(() => undefined);
  }
  if (lost) throw new Error(`the lock on group file ${dest} was lost while writing (${(lost as Error).message}); the write is repeated`);
}

async function writeBatch(dest: string, batch: Pending[]): Promise<void> {
  await withGroupLock(dest, () => writeBatchLocked(dest, batch));
}

async function writeBatchLocked(dest: string, batch: Pending[]): Promise<void> {
  const side = sidecarPath(dest);
  const records = await readSidecar(side, dest);
  for (const { record } of batch) {
    const i = records.findIndex((r) => r.requestId === record.requestId);
    if (i >= 0) records[i] = record;
    else records.push(record);
  }
  const body: Sidecar = { version: 1, records };
  await atomicWriteFile(side, JSON.stringify(body));
  await renderOutput(batch[batch.length - 1]!.spec, records, dest);
}

async function readSidecar(side: string, dest: string): Promise<OutputRecord[]> {
  let text: string;
  try {
    text = await readFile(side, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await keepOrphan(dest);
    return [];
  }
  let parsed: Partial<Sidecar>;
  try {
    parsed = JSON.parse(text) as Partial<Sidecar>;
  } catch (err) {
    throw new Error(`group record list ${side} is not valid JSON (${(err as Error).message}); move it away to start the group afresh`);
  }
  if (parsed.version !== 1 || !Array.isArray(parsed.records)) {
    throw new Error(`group record list ${side} has an unknown shape (expected {"version":1,"records":[...]})`);
  }
  return parsed.records;
}

// A group file without its record list was made or edited by something else; regenerating it would
// drop its rows, so it is renamed aside ("name (1).csv") and the group starts afresh.
async function keepOrphan(dest: string): Promise<void> {
  try {
    await stat(dest);
  } catch {
    return;
  }
  const aside = await uniquePath(path.dirname(dest), path.basename(dest));
  await rename(dest, aside);
}
