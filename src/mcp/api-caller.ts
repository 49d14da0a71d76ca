// The one port the MCP tools talk through: a request to a server of the interface, answered with status
// and body. In `docdrop serve` it is an in-process inject into the same REST routes (routes/mcp.ts), so a
// tool runs exactly the REST validation, accounts and usecases; for `docdrop mcp` it is HTTP (http-caller.ts).
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A path under the service ('/v1/templates'), or an absolute pre-signed URL of that service. */
  path: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  /** Raw request bytes (a pre-signed PUT). */
  raw?: Buffer;
}

export interface ApiResponse {
  status: number;
  /** Parsed JSON when the response is JSON, else undefined. */
  body: unknown;
  bytes: Buffer;
}

export interface ApiCaller {
  call(req: ApiRequest): Promise<ApiResponse>;
  /** True when url is one of this service's own pre-signed URLs: read through call(), never fetched by the service. */
  isOwnUrl(url: string): boolean;
}

export function toQueryString(query: ApiRequest['query']): string {
  const entries = Object.entries(query ?? {}).filter((e): e is [string, string | number] => e[1] !== undefined);
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString()}` : '';
}

export function parseBody(bytes: Buffer, contentType: string | undefined): unknown {
  if (!contentType?.includes('json')) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}
