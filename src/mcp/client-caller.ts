// The ApiCaller of `docdrop mcp`: the tools' REST calls go through ServiceClient (its retries, rate limit
// and timeouts) to any server of the interface; an ApiError becomes the status and Error body the tools map.
import { ApiError } from '../api/api-error.js';
import type { ServiceClient } from '../api/client.js';
import { parseBody, type ApiCaller } from './api-caller.js';

export function clientCaller(client: ServiceClient, baseUrl: string): ApiCaller {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    // The server's own pre-signed URLs are read by this process with the client, as any client would.
    isOwnUrl: (url) => url.startsWith(`${base}/`) && /[?&]signature=/.test(url),
    async call(req) {
      const presigned = /^https?:\/\//.test(req.path);
      try {
        const res = await client.send({
          method: req.method,
          path: req.path,
          presigned,
          ...(req.query ? { query: req.query } : {}),
          ...(req.json !== undefined ? { json: req.json } : {}),
          ...(req.raw ? { bytes: req.raw } : {}),
        });
        return { status: 200, bytes: res.bytes, body: parseBody(res.bytes, res.contentType) };
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return { status: err.status, bytes: Buffer.alloc(0), body: { error: err.code, message: err.detail } };
      }
    },
  };
}
