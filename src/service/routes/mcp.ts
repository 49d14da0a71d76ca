// POST /mcp: the MCP server (streamable HTTP, stateless, JSON responses) for agents. The x-api-key hook
// (http/auth.ts) answers 401 before the MCP layer. Each tool call is injected in-process into the REST
// routes with the caller's key, so tools share their validation, accounts and usecases; this server's
// own pre-signed URLs are read the same way, never fetched over the network.
import type { FastifyInstance } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { parseBody, toQueryString, type ApiCaller } from '../../mcp/api-caller.js';
import { BASE64_MAX_BYTES } from '../../mcp/document-source.js';
import { buildMcpServer } from '../../mcp/tools.js';
import { PUBLIC_PREFIX } from '../http/auth.js';

export interface McpRoutesDeps {
  /** Base of this server's URLs (known once it listens). */
  publicUrl(): string;
}

/** Room for a 7 MB file as base64 (4/3 of it) inside a JSON-RPC request. */
const MCP_BODY_LIMIT = Math.ceil((BASE64_MAX_BYTES * 4) / 3) + 1024 * 1024;

export function mcpRoutes(app: FastifyInstance, deps: McpRoutesDeps): void {
  app.post('/mcp', { bodyLimit: MCP_BODY_LIMIT }, async (req, reply) => {
    const key = String(req.headers['x-api-key']);
    const server = buildMcpServer(injectCaller(app, key, deps.publicUrl), (err, tool) => req.log.error({ err, tool }, 'MCP tool failed'));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req.raw, reply.raw, req.body);
    } catch (err) {
      req.log.error({ err }, 'MCP request failed');
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null }));
    }
  });
  // Stateless: no server-sent stream to open and no session to end.
  const notAllowed = async (_req: unknown, reply: import('fastify').FastifyReply) =>
    reply.code(405).header('allow', 'POST').send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST JSON-RPC requests' }, id: null });
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
}

function injectCaller(app: FastifyInstance, key: string, publicUrl: () => string): ApiCaller {
  const own = (url: string) => url.startsWith(`${publicUrl()}${PUBLIC_PREFIX}`);
  return {
    isOwnUrl: own,
    async call(req) {
      let url: string;
      if (/^https?:\/\//.test(req.path)) {
        // Only this server's own pre-signed URLs are read here; nothing is fetched from elsewhere.
        if (!own(req.path)) throw new Error('not a pre-signed URL of this server');
        const u = new URL(req.path);
        url = u.pathname + u.search;
      } else url = req.path + toQueryString(req.query);
      const headers: Record<string, string> = { 'x-api-key': key };
      if (req.json !== undefined) headers['content-type'] = 'application/json';
      if (req.raw) headers['content-type'] = 'application/octet-stream';
      const res = await app.inject({
        method: req.method,
        url,
        headers,
        ...(req.json !== undefined ? { payload: JSON.stringify(req.json) } : req.raw ? { payload: req.raw } : {}),
      });
      const bytes = res.rawPayload;
      return { status: res.statusCode, bytes, body: parseBody(bytes, res.headers['content-type'] as string | undefined) };
    },
  };
}
