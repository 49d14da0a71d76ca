// What kind of document a file is (PDF, JPEG, PNG, TIFF), with its MIME type and file-name extensions.
// The one place the folder and mail intake, the API client, the service and the engine learn a file's
// kind: from its bytes, never from its name (users drop files with wrong or missing extensions).
import { open } from 'node:fs/promises';
import { extname } from 'node:path';

export type FileKind = 'pdf' | 'jpeg' | 'png' | 'tiff';

interface KindSpec {
  kind: FileKind;
  mimeType: string;
  /** Lower case with the dot; the first is the one given to a file that has none. */
  extensions: readonly string[];
  /** Whether the head of a file (its first HEAD_BYTES bytes, or all of a shorter file) is of this kind. */
  matches(head: Uint8Array): boolean;
}

/** PDF readers (Acrobat, pdf.js) accept up to 1024 bytes of junk before `%PDF-`; so does every check here. */
const PDF_HEADER_WITHIN = 1024;

/** Bytes read from the head of a file to sniff its kind: room for junk before `%PDF-`. */
export const HEAD_BYTES = PDF_HEADER_WITHIN + 5;

const startsWith = (head: Uint8Array, ...bytes: number[]) => bytes.every((b, i) => head[i] === b);

// Checked in this order: an image signature must start at byte 0, so images are tried before the
// PDF header that may start further in.
const KINDS: readonly KindSpec[] = [
  { kind: 'jpeg', mimeType: 'image/jpeg', extensions: ['.jpg', '.jpeg'], matches: (h) => startsWith(h, 0xff, 0xd8, 0xff) },
  { kind: 'png', mimeType: 'image/png', extensions: ['.png'], matches: (h) => startsWith(h, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a) },
  {
    kind: 'tiff',
    mimeType: 'image/tiff',
    extensions: ['.tif', '.tiff'],
    matches: (h) => startsWith(h, 0x49, 0x49, 0x2a, 0x00) || startsWith(h, 0x4d, 0x4d, 0x00, 0x2a), // II*. / MM.*
  },
  {
    kind: 'pdf',
    mimeType: 'application/pdf',
    extensions: ['.pdf'],
    matches: (h) => {
      const at = Buffer.from(h.buffer, h.byteOffset, h.byteLength).indexOf('%PDF-', 0, 'latin1');
      return at >= 0 && at <= PDF_HEADER_WITHIN;
    },
  },
];

const spec = (kind: FileKind): KindSpec => KINDS.find((k) => k.kind === kind)!;

export function isFileKind(value: string): value is FileKind {
  return KINDS.some((k) => k.kind === value);
}

/** The kind of a file from its head (see HEAD_BYTES); null when it is none of the four. */
export function kindFromHead(head: Uint8Array): FileKind | null {
  return KINDS.find((k) => k.matches(head))?.kind ?? null;
}

/** Reads only the head of the file, so a huge file costs one small read. */
export async function detectFileKind(path: string): Promise<FileKind | null> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    return kindFromHead(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

export function mimeTypeOf(kind: FileKind): string {
  return spec(kind).mimeType;
}

/** The extension (with its dot) for a file of this kind that has no name of its own. */
export function extensionOf(kind: FileKind): string {
  return spec(kind).extensions[0];
}

/** The kind a MIME type names (parameters and case ignored); null for any other type. */
export function kindOfMimeType(mimeType: string): FileKind | null {
  const bare = mimeType.split(';')[0].trim().toLowerCase();
  return KINDS.find((k) => k.mimeType === bare)?.kind ?? null;
}

/** The kind a file name's extension claims (case ignored); null for any other extension. */
export function kindOfFileName(name: string): FileKind | null {
  const ext = extname(name).toLowerCase();
  return KINDS.find((k) => k.extensions.includes(ext))?.kind ?? null;
}

/**
 * Content-Type to send a file as: its kind from the bytes (a mislabelled file is sent as what it is),
 * else the kind its extension claims, else application/octet-stream.
 */
export async function contentTypeOfFile(path: string): Promise<string> {
  const kind = (await detectFileKind(path)) ?? kindOfFileName(path);
  return kind ? mimeTypeOf(kind) : 'application/octet-stream';
}
