// File type from content, never from the name: users drop files with wrong or missing extensions.
import { open } from 'node:fs/promises';
import type { FileKind } from '../types.js';

/** Bytes read from the head of the file; readers accept up to 1024 bytes of junk before `%PDF-`. */
export const HEAD_BYTES = 1024 + 5;

/** Reads only the head of the file, so a huge file costs one small read. */
export async function detectFileKind(filePath: string): Promise<FileKind | null> {
  const handle = await open(filePath, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    return kindFromHead(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

export function kindFromHead(head: Buffer): FileKind | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return 'tiff';
  const pdfAt = head.indexOf('%PDF-', 0, 'latin1');
  if (pdfAt >= 0 && pdfAt <= 1024) return 'pdf';
  return null;
}
