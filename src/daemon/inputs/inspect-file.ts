// Checks the pipeline runs on a stable file before upload. A slow copier can pause longer than stable_ms,
// so "stable" does not prove "complete": each format's end marker does, and an empty file (a scanner that
// creates, then writes) is not complete either. A file that fails this check is checked again later, up
// to a bounded wait (incompleteWaitMs); bytes after a valid end (phone "motion photos", a PDF with junk
// appended) do not make a file incomplete.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { HEAD_BYTES, kindFromHead, type FileKind } from '../../shared/file-kind.js';

/** Files up to this size are read once into memory for all three checks; larger ones are streamed. */
const READ_WHOLE_MAX_BYTES = 1024 * 1024;

export interface FileInspection {
  size: number;
  mtimeMs: number;
  /** From the content; null when not a supported type. */
  kind: FileKind | null;
  /** False while the file is still being written (its format's end marker is missing). */
  complete: boolean;
  /** sha256 hex of the content; null when the file is not complete (unless asked for all the same). */
  sha256: string | null;
}

export interface InspectOptions {
  /** Hash an incomplete file too: one waited for long enough is taken as it is. */
  hashIncomplete?: boolean;
}

/** How long a stable file may stay incomplete (or empty) before it is taken as it is: 10 x stable_ms, at least a minute. */
export function incompleteWaitMs(stableMs: number): number {
  return Math.max(10 * stableMs, 60_000);
}

type ReadAt = (offset: number, len: number) => Promise<Buffer>;

/**
 * Type, completeness and sha256 of a file through one open file handle (one read for a typical
 * document), instead of opening it once per check. Null when it is gone or not a regular file.
 */
export async function inspectFile(path: string, opts: InspectOptions = {}): Promise<FileInspection | null> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch {
    return null;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return null;
    const whole = st.size <= READ_WHOLE_MAX_BYTES ? await fh.readFile() : null;
    const size = whole ? whole.length : st.size;
    const readAt: ReadAt = whole ? async (o, n) => whole.subarray(o, o + n) : (o, n) => readBytes(fh, o, n);
    const kind = kindFromHead(await readAt(0, Math.min(HEAD_BYTES, size)));
    const complete = size > 0 && (kind === null || (await completeAt(readAt, size, kind)));
    let sha256: string | null = null;
    if (complete || opts.hashIncomplete) {
      sha256 = whole
        ? createHash('sha256').update(whole).digest('hex')
        : await hashStream(fh.createReadStream({ start: 0, autoClose: false }));
    }
    // Written to while we read it: its bytes and its stat may not match, so it is not complete yet.
    const after = await fh.stat();
    if (after.size !== st.size || after.mtimeMs !== st.mtimeMs) return { size: after.size, mtimeMs: after.mtimeMs, kind, complete: false, sha256: null };
    return { size, mtimeMs: st.mtimeMs, kind, complete, sha256 };
  } finally {
    await fh.close();
  }
}

/** sha256 of a file, hex, read as a stream (memory does not grow with the file). */
export function sha256File(path: string): Promise<string> {
  return hashStream(createReadStream(path));
}

async function hashStream(stream: NodeJS.ReadableStream): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(stream, hash);
  return hash.digest('hex');
}

/**
 * Whether the file's end is written: PDF `%%EOF` with no PDF structure after it (see pdfComplete), JPEG's
 * EOI marker FF D9 after the image data (see jpegComplete), PNG's IEND chunk, TIFF's image directories
 * and strips all inside the file. Bytes after a valid end are allowed: readers ignore them.
 */
async function completeAt(readAt: ReadAt, size: number, kind: FileKind): Promise<boolean> {
  const tail = (n: number) => readAt(size - Math.min(n, size), Math.min(n, size));
  switch (kind) {
    case 'pdf':
      return pdfComplete(readAt, size);
    case 'jpeg':
      return size > 4 && ((await jpegComplete(readAt, size)) ?? indexOfPair(await tail(1024), 0xff, 0xd9) >= 0);
    case 'png':
      return (await tail(64)).includes('IEND');
    case 'tiff':
      return tiffComplete(readAt, size);
  }
  return false;
}

/** Chunk of the scans below: bounded memory whatever the file's size. */
const SCAN_CHUNK = 1024 * 1024;

/**
 * A PDF is written when it has a `%%EOF` and what follows the last one holds no PDF structure (an object,
 * an xref table): bytes appended after a finished PDF are junk readers skip, while a linearized PDF cut
 * after its first section, or an incremental update being appended, still shows objects after its %%EOF.
 */
async function pdfComplete(readAt: ReadAt, size: number): Promise<boolean> {
  let eof = -1;
  for (let end = size; end > 0 && eof < 0; end -= SCAN_CHUNK) {
    const start = Math.max(0, end - SCAN_CHUNK - 4); // overlap: a marker split across two chunks
    const at = (await readAt(start, end - start)).lastIndexOf('%%EOF', undefined, 'latin1');
    if (at >= 0) eof = start + at;
  }
  if (eof < 0) return false;
  const structure = /\d+\s+\d+\s+obj\b|\bxref\b|\bstartxref\b|\btrailer\b/;
  for (let start = eof + 5; start < size; start += SCAN_CHUNK) {
    const len = Math.min(SCAN_CHUNK + 32, size - start); // overlap: a keyword split across two chunks
    if (structure.test((await readAt(start, len)).toString('latin1'))) return false;
  }
  return true;
}

/**
 * A JPEG is written when its EOI (FF D9) follows the first scan's data. The marker segments before the
 * scan are skipped by their lengths (an EXIF thumbnail has an FF D9 of its own); in entropy-coded data an
 * FF byte is always followed by 00 or a marker, so the first FF D9 there is the image's end, whatever is
 * appended after it (a motion photo's video). Null when the segments do not parse: the caller falls back
 * to looking for FF D9 near the end.
 */
async function jpegComplete(readAt: ReadAt, size: number): Promise<boolean | null> {
  let pos = 2;
  for (let guard = 0; guard < 10_000; guard++) {
    const h = await readAt(pos, 4);
    if (h.length < 4) return false;
    if (h[0] !== 0xff) return null;
    const marker = h[1]!;
    if (marker === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) return true;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      pos += 2;
      continue;
    }
    pos += 2 + h.readUInt16BE(2);
    if (marker === 0xda) break;
  }
  for (let start = pos; start < size - 1; start += SCAN_CHUNK) {
    const chunk = await readAt(start, Math.min(SCAN_CHUNK + 1, size - start)); // overlap: FF | D9 across chunks
    for (let i = chunk.indexOf(0xff); i >= 0 && i < chunk.length - 1; i = chunk.indexOf(0xff, i + 1)) {
      if (chunk[i + 1] === 0xd9) return true;
    }
  }
  return false;
}

async function readBytes(fh: FileHandle, offset: number, len: number): Promise<Buffer> {
  const buf = Buffer.alloc(len);
  const { bytesRead } = await fh.read(buf, 0, len, offset);
  return buf.subarray(0, bytesRead);
}

function indexOfPair(buf: Buffer, a: number, b: number): number {
  for (let i = buf.length - 2; i >= 0; i--) if (buf[i] === a && buf[i + 1] === b) return i;
  return -1;
}

const TAG_STRIP_OFFSETS = 273;
const TAG_STRIP_BYTES = 279;
const TAG_TILE_OFFSETS = 324;
const TAG_TILE_BYTES = 325;
/** Byte size of each TIFF field type (1 BYTE ... 13 IFD). */
const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };

/** Classic TIFF: every IFD, every out-of-line tag value and every strip/tile lies within the file. BigTIFF: header only. */
async function tiffComplete(read: ReadAt, size: number): Promise<boolean> {
  if (size < 8) return false;
  const head = await read(0, 8);
  const le = head.toString('latin1', 0, 2) === 'II';
  const u16 = (b: Buffer, o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (b: Buffer, o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const version = u16(head, 2);
  if (version === 43) return true;
  if (version !== 42) return false;
  const readAt = async (offset: number, len: number) => (offset + len > size ? null : read(offset, len));
  const values = async (type: number, count: number, field: Buffer, at: number): Promise<number[] | null> => {
    const width = TYPE_SIZE[type];
    if (width !== 2 && width !== 4) return [];
    const inline = width * count <= 4;
    const data = inline ? field.subarray(at + 8, at + 12) : await readAt(u32(field, at + 8), width * count);
    if (!data) return null;
    return Array.from({ length: count }, (_, i) => (width === 2 ? u16(data, i * 2) : u32(data, i * 4)));
  };
  let ifd = u32(head, 4);
  for (let guard = 0; ifd !== 0 && guard < 1000; guard++) {
    const countBuf = await readAt(ifd, 2);
    if (!countBuf) return false;
    const n = u16(countBuf, 0);
    const entries = await readAt(ifd + 2, n * 12 + 4);
    if (!entries) return false;
    const tags = new Map<number, number[] | null>();
    for (let i = 0; i < n; i++) {
      const at = i * 12;
      const tag = u16(entries, at);
      const bytes = (TYPE_SIZE[u16(entries, at + 2)] ?? 1) * u32(entries, at + 4);
      if (bytes > 4 && u32(entries, at + 8) + bytes > size) return false;
      if ([TAG_STRIP_OFFSETS, TAG_STRIP_BYTES, TAG_TILE_OFFSETS, TAG_TILE_BYTES].includes(tag)) {
        const v = await values(u16(entries, at + 2), u32(entries, at + 4), entries, at);
        if (v === null) return false;
        tags.set(tag, v);
      }
    }
    for (const [offTag, lenTag] of [[TAG_STRIP_OFFSETS, TAG_STRIP_BYTES], [TAG_TILE_OFFSETS, TAG_TILE_BYTES]]) {
      const offs = tags.get(offTag);
      const lens = tags.get(lenTag);
      if (offs && lens && offs.some((o, i) => o + (lens[i] ?? 0) > size)) return false;
    }
    ifd = u32(entries, n * 12);
  }
  return true;
}
