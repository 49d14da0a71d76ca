// A real node:http server on 127.0.0.1 port 0 that records every request (with its full body) and
// answers through a handler the test supplies. Used to test the client's transport on real sockets.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type Handler = (req: Recorded, res: http.ServerResponse, index: number) => unknown;

export interface RecordingServer {
  baseUrl: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<RecordingServer> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const rec: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(rec);
      Promise.resolve(handler(rec, res, requests.length - 1)).catch((err: unknown) => {
        res.statusCode = 599;
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function sendError(res: http.ServerResponse, status: number, error: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { success: false, error, message }, headers);
}

/** Parses a multipart/form-data body into its parts (test-side only; bodies are small or Buffer-held). */
export function parseMultipart(body: Buffer, contentType: string | undefined): { name: string; filename?: string; type?: string; data: Buffer }[] {
  const boundary = /boundary=(.+)$/.exec(contentType ?? '')?.[1];
  if (!boundary) throw new Error(`not multipart: ${contentType}`);
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { name: string; filename?: string; type?: string; data: Buffer }[] = [];
  let start = body.indexOf(delimiter) + delimiter.length;
  for (;;) {
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    const part = body.subarray(start + 2, next - 2); // skip CRLF after delimiter and before next
    const headerEnd = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, headerEnd).toString('latin1');
    parts.push({
      name: /name="([^"]*)"/.exec(head)?.[1] ?? '',
      filename: /filename="([^"]*)"/.exec(head)?.[1],
      type: /content-type:\s*(.+)/i.exec(head)?.[1]?.trim(),
      data: part.subarray(headerEnd + 4),
    });
    start = next + delimiter.length;
  }
  return parts;
}
