// Content-Type of a document file for the pre-signed PUT and multipart parts: the magic bytes decide
// (a mislabelled file is sent as what it is), the extension is the fallback.
import { open } from 'node:fs/promises';
import { extname } from 'node:path';

const BY_EXTENSION: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
};

export function sniffContentType(head: Uint8Array): string | undefined {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x25, 0x50, 0x44, 0x46)) return 'application/pdf'; // %PDF
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return 'image/tiff'; // II*. / MM.*
  return undefined;
}

export async function detectContentType(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(8);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const sniffed = sniffContentType(head.subarray(0, bytesRead));
    if (sniffed) return sniffed;
  } finally {
    await handle.close();
  }
  return BY_EXTENSION[extname(path).toLowerCase()] ?? 'application/octet-stream';
}
