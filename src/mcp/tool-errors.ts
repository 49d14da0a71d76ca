// Tool failures as the hosted MCP server reports them: a tool result with isError and a structured
// {error_code, message}, mapped from the REST answer the tool got (status first, spec code second).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCodes } from '../api/error-codes.js';
import type { ApiResponse } from './api-caller.js';

export const McpErrorCodes = {
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  invalidInput: 'INVALID_INPUT',
  documentNotReady: 'DOCUMENT_NOT_READY',
  internal: 'INTERNAL_ERROR',
} as const;
export type McpErrorCode = (typeof McpErrorCodes)[keyof typeof McpErrorCodes];

/** Thrown inside a tool; the tool wrapper turns it into an isError result. */
export class ToolError extends Error {
  constructor(
    readonly errorCode: McpErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function errorFromResponse(res: ApiResponse): ToolError {
  const body = (res.body ?? {}) as { error?: unknown; message?: unknown };
  const message = typeof body.message === 'string' ? body.message : `the service answered HTTP ${res.status}`;
  const code = body.error;
  if (res.status === 401) return new ToolError(McpErrorCodes.unauthorized, message);
  if (res.status === 403) return new ToolError(McpErrorCodes.forbidden, message);
  if (res.status === 404) return new ToolError(McpErrorCodes.notFound, message);
  if (res.status === 400 && code === ErrorCodes.documentNotProcessed) return new ToolError(McpErrorCodes.documentNotReady, message);
  if (res.status >= 400 && res.status < 500 && res.status !== 429) return new ToolError(McpErrorCodes.invalidInput, message);
  return new ToolError(McpErrorCodes.internal, message);
}

export function errorResult(err: unknown): CallToolResult {
  const e = err instanceof ToolError ? err : new ToolError(McpErrorCodes.internal, 'the tool failed inside the server; see the server log');
  const structured = { error_code: e.errorCode, message: e.message };
  return { isError: true, structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
}
