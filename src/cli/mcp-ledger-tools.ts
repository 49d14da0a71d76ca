// The MCP tools over a daemon's ledger, added by `docdrop mcp --config`: beyond the hosted server, so an
// agent can answer "what happened to yesterday's invoices?" and retry what failed. Read beside a running
// daemon like `docdrop status` (SQLite WAL); a retry is `docdrop retry`'s (pipeline/retry-inputs.ts).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { INPUT_STATES, type Ledger } from '../daemon/ledger/ledger.js';
import { retryInput } from '../daemon/pipeline/retry-inputs.js';
import { addTool } from '../mcp/tools.js';
import { McpErrorCodes, ToolError } from '../mcp/tool-errors.js';
import { eventView, inputView } from './input-history.js';

export const LEDGER_TOOL_NAMES = ['list_inputs', 'get_input', 'retry_input'] as const;

const inputShape = z.record(z.string(), z.unknown());

export function addLedgerTools(server: McpServer, ledger: Ledger, onUnexpected?: (err: unknown, tool: string) => void, now: () => number = Date.now): void {
  const record = async (id: number) => {
    const r = await ledger.get(id);
    if (!r) throw new ToolError(McpErrorCodes.notFound, `id: no input #${id} in the ledger; list_inputs shows the ids`);
    return r;
  };

  addTool(
    server,
    'list_inputs',
    "Files the docdrop daemon has taken from its watched folders and mailboxes, newest first, with their state (queued ... done, failed, timed_out), rule, path and last error. Filter by state, rule (the config's rule name) and since_hours (changed within that many hours, e.g. 48 for yesterday's).",
    {
      state: z.enum(INPUT_STATES).optional(),
      rule: z.string().optional(),
      since_hours: z.number().positive().optional(),
      limit: z.number().int().min(1).max(500).optional().describe('default 50'),
    },
    { items: z.array(inputShape) },
    async ({ state, rule, since_hours, limit = 50 }) => {
      const all = (await ledger.list({ ...(state ? { state } : {}), ...(rule ? { rule } : {}) })).reverse();
      const since = since_hours === undefined ? -Infinity : now() - since_hours * 3_600_000;
      return { items: all.filter((r) => r.updatedAt >= since).slice(0, limit).map(inputView) };
    },
    onUnexpected,
  );

  addTool(
    server,
    'get_input',
    "One input by its ledger id: its state, the extracted data once done (result.data), the failure reason (last_error) when failed, and its history of events.",
    { id: z.number().int() },
    { input: inputShape, result: inputShape.nullable(), events: z.array(inputShape) },
    async ({ id }) => {
      const r = await record(id);
      return { input: inputView(r), result: r.result ? { data: r.result.data, template_id: r.result.templateId, classification: r.result.classification, num_pages: r.result.numPages } : null, events: (await ledger.events(id)).map(eventView) };
    },
    onUnexpected,
  );

  addTool(
    server,
    'retry_input',
    'Put a failed or timed_out input back into the flow, as `docdrop retry ID` does: a failed file is moved back into its folder and processed again by the daemon; a timed_out job is polled again.',
    { id: z.number().int() },
    { id: z.number(), ok: z.boolean(), message: z.string() },
    async ({ id }) => {
      const r = await record(id);
      if (r.state !== 'failed' && r.state !== 'timed_out') throw new ToolError(McpErrorCodes.invalidInput, `id: input #${id} is ${r.state}; only failed and timed_out inputs can be retried`);
      const outcome = await retryInput(ledger, r);
      return { id, ok: outcome.ok, message: outcome.message };
    },
    onUnexpected,
  );
}
