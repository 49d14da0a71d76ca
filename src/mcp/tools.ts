// The MCP tool set, with the hosted server's tool names. Each tool is a sequence of REST calls through an
// ApiCaller, so `docdrop serve`'s /mcp and `docdrop mcp` (stdio) share this code and the REST routes stay
// the one implementation of validation, accounts, credits and limits.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ApiCaller } from './api-caller.js';
import { documentSourceShape, resolveSource, BASE64_MAX_BYTES } from './document-source.js';
import { expectOk } from './rest.js';
import { errorResult, McpErrorCodes, ToolError } from './tool-errors.js';

/** Reported in the MCP handshake; the tool set's version, raised when a tool changes shape. */
export const MCP_SERVER_VERSION = '1.0.0';

export const MCP_TOOL_NAMES = [
  'extract_document',
  'check_extraction_status',
  'list_supported_formats',
  'list_templates',
  'get_schema',
  'create_template',
  'update_template',
  'classify_document',
  'create_classifier',
  'list_classifiers',
  'get_credit_balance',
] as const;

const anyObject = z.record(z.string(), z.unknown());
const templateFields = {
  template_type: z.string().optional().describe('the Workflow type, e.g. invoice, receipt'),
  template_schema: anyObject.optional().describe('the fields to extract: {fields: [{name, type: text|number|date|table, description}]}'),
  parser_config: anyObject.optional().describe('OCR and query settings, merged into the current ones'),
  webhook_url: z.string().nullable().optional().describe('URL told when a job of this Workflow ends (null to remove)'),
};
const page = { items: z.array(anyObject), pagination_key: z.string().nullable() };

/**
 * The declared output: the tool's fields, plus the error body. Clients (the SDK's among them) check
 * structuredContent against outputSchema even when isError is set, so both shapes must fit one object schema;
 * a successful result always carries every field of `output`.
 */
function withErrorShape(output: z.ZodRawShape): z.ZodRawShape {
  return {
    ...Object.fromEntries(Object.entries(output).map(([k, v]) => [k, (v as z.ZodType).optional()])),
    error_code: z.enum(Object.values(McpErrorCodes) as [string, ...string[]]).optional().describe('set only on an error result (isError)'),
    message: z.string().optional().describe('set only on an error result (isError): what was wrong'),
  };
}

export type Handler<A> = (args: A) => Promise<Record<string, unknown>>;

/** Registers one tool: its result is the structured output (and the same as JSON text); a throw becomes an error result. */
export function addTool<S extends z.ZodRawShape, O extends z.ZodRawShape>(server: McpServer, name: string, description: string, input: S, output: O, run: Handler<z.infer<z.ZodObject<S>>>, onUnexpected?: (err: unknown, tool: string) => void): void {
  server.registerTool(name, { description, inputSchema: input, outputSchema: withErrorShape(output) }, (async (args: z.infer<z.ZodObject<S>>): Promise<CallToolResult> => {
    try {
      const structured = await run(args);
      return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
    } catch (err) {
      // A ToolError is the caller's answer; anything else is a fault of ours, told to the log only.
      if (!(err instanceof ToolError)) onUnexpected?.(err, name);
      return errorResult(err);
    }
  }) as never);
}

/** One McpServer with every tool bound to `api` (a stateless server builds one per request). */
export function buildMcpServer(api: ApiCaller, onUnexpected?: (err: unknown, tool: string) => void): McpServer {
  const server = new McpServer({ name: 'docdrop', version: MCP_SERVER_VERSION });
  const tool = <S extends z.ZodRawShape, O extends z.ZodRawShape>(name: (typeof MCP_TOOL_NAMES)[number], description: string, input: S, output: O, run: Handler<z.infer<z.ZodObject<S>>>) =>
    addTool(server, name, description, input, output, run, onUnexpected);
  const get = <T>(path: string, query?: Record<string, string | number | undefined>) => api.call({ method: 'GET', path, ...(query ? { query } : {}) }).then((r) => expectOk<T>(r));
  const send = <T>(method: 'POST' | 'PUT', path: string, json: unknown) => api.call({ method, path, json }).then((r) => expectOk<T>(r));

  tool(
    'extract_document',
    'Start extracting structured data from a document with a Workflow (template_id) or a Classifier (classifier_id, which picks the Workflow). Give the document as exactly one of file_url, file_base64 or document_id. Returns request_id at once; poll check_extraction_status with it until status is completed or failed.',
    {
      ...documentSourceShape,
      template_id: z.string().optional().describe('the Workflow to extract with (list_templates)'),
      classifier_id: z.string().optional().describe('a Classifier that chooses the Workflow (list_classifiers)'),
    },
    { request_id: z.string(), document_id: z.string().nullable() },
    async ({ template_id, classifier_id, ...source }) => {
      if ((template_id === undefined) === (classifier_id === undefined)) {
        throw new ToolError(McpErrorCodes.invalidInput, 'template_id, classifier_id: expected exactly one of them');
      }
      const doc = await resolveSource(api, source);
      const target = template_id !== undefined ? { template_id } : { classifier_id };
      const { request_id } = await send<{ request_id: string }>('POST', '/v1/extract', { ...doc, ...target });
      return { request_id, document_id: 'document_id' in doc ? doc.document_id : null };
    },
  );

  tool(
    'check_extraction_status',
    'The state of an extraction started by extract_document: status is pending or processing (ask again in a few seconds), completed (results.data holds the extracted fields) or failed/exception (error says why).',
    { request_id: z.string().describe('the request_id extract_document returned') },
    { request_id: z.string(), status: z.string(), results: anyObject.nullable(), error: z.string().nullable(), job: anyObject },
    async ({ request_id }) => {
      const job = await get<Record<string, unknown>>('/v1/extract', { request_id });
      const status = String(job.request_status);
      const results = status === 'completed' ? ((job.results as Record<string, unknown> | undefined) ?? { data: (job.response_body as { result_json_data?: unknown } | undefined)?.result_json_data ?? null }) : null;
      const error = typeof job.user_error_msg === 'string' ? job.user_error_msg : null;
      return { request_id, status, results, error, job };
    },
  );

  tool(
    'list_supported_formats',
    'The document formats and sizes this server accepts.',
    {},
    { formats: z.array(z.object({ extension: z.string(), mime_type: z.string() })), max_base64_bytes: z.number() },
    async () => ({
      formats: [
        { extension: 'pdf', mime_type: 'application/pdf' },
        { extension: 'jpeg', mime_type: 'image/jpeg' },
        { extension: 'png', mime_type: 'image/png' },
        { extension: 'tiff', mime_type: 'image/tiff' },
      ],
      max_base64_bytes: BASE64_MAX_BYTES,
    }),
  );

  tool(
    'list_templates',
    'The Workflows (extraction templates) of this account, 50 a page: pass the returned pagination_key to get the next page. search keeps those whose title or type contains the text (case-insensitive), reading pages until it has a page of matches.',
    { pagination_key: z.string().optional(), search: z.string().optional(), limit: z.number().int().min(1).max(50).optional() },
    page,
    async ({ pagination_key, search, limit = 50 }) => {
      const needle = search?.toLowerCase();
      const items: Record<string, unknown>[] = [];
      let key: string | null | undefined = pagination_key;
      do {
        const res: { items: Record<string, unknown>[]; pagination_key: string | null } = await get('/v1/templates', { limit, pagination_key: key ?? undefined });
        items.push(...res.items.filter((t) => !needle || `${String(t.template_title)} ${String(t.template_type)}`.toLowerCase().includes(needle)));
        key = res.pagination_key;
      } while (needle && key && items.length < limit);
      return { items, pagination_key: key ?? null };
    },
  );

  tool(
    'get_schema',
    'The fields a Workflow extracts (its template_schema) and its settings, by template_id.',
    { template_id: z.string() },
    { template_id: z.string(), template_title: z.string(), template_type: z.string(), template_schema: anyObject, workflow: anyObject },
    async ({ template_id }) => {
      const w = await get<Record<string, unknown>>(`/v1/templates/${encodeURIComponent(template_id)}`);
      return { template_id: String(w.template_id), template_title: String(w.template_title), template_type: String(w.template_type), template_schema: w.template_schema as Record<string, unknown>, workflow: w };
    },
  );

  tool(
    'create_template',
    'Create a Workflow: a title (unique in the account), a type and the fields to extract. Returns the Workflow with its template_id.',
    { template_title: z.string(), ...templateFields },
    { workflow: anyObject },
    async (args) => ({ workflow: await send('POST', '/v1/templates', args) }),
  );

  tool(
    'update_template',
    'Change a Workflow: only the keys given change (parser_config is merged; template_schema replaces the fields).',
    { template_id: z.string(), ...templateFields },
    { workflow: anyObject },
    async ({ template_id, ...changes }) => ({ workflow: await send('PUT', `/v1/templates/${encodeURIComponent(template_id)}`, changes) }),
  );

  tool(
    'classify_document',
    'Classify a document into one of some labels: give classification_schema (at least 2 {label, description}) or a saved classifier_id, and the document as document_id, file_url or file_base64. The document must have been read by an extraction first (else DOCUMENT_NOT_READY: run extract_document on it and wait until it completes). Costs 1 credit.',
    {
      ...documentSourceShape,
      classification_schema: z.array(z.object({ label: z.string(), description: z.string() })).optional(),
      classifier_id: z.string().optional(),
      page_range: z.string().optional().describe('pages to read, e.g. "1-2"'),
    },
    { classification: z.string(), confidence_scores: z.record(z.string(), z.number()), request_status: z.string(), result: anyObject },
    async ({ classification_schema, classifier_id, page_range, ...source }) => {
      if ((classification_schema === undefined) === (classifier_id === undefined)) {
        throw new ToolError(McpErrorCodes.invalidInput, 'classification_schema, classifier_id: expected exactly one of them');
      }
      const doc = await resolveSource(api, source);
      if (!('document_id' in doc)) throw new ToolError(McpErrorCodes.documentNotReady, 'file_url: a fetched document has not been read by an extraction yet; run extract_document on it first and classify its document_id');
      const body = { document_id: doc.document_id, ...(page_range ? { page_range } : {}) };
      const r = await (classifier_id !== undefined
        ? send<Record<string, unknown>>('POST', `/v1/classifiers/${encodeURIComponent(classifier_id)}/classify`, body)
        : send<Record<string, unknown>>('POST', '/v1/classify', { ...body, classification_schema }));
      return { classification: String(r.classification), confidence_scores: r.confidence_scores as Record<string, number>, request_status: String(r.request_status), result: r };
    },
  );

  tool(
    'create_classifier',
    'Save a Classifier: a name and classes [{label, description, template_id?}] (at least 2); a class with a template_id routes extract_document to that Workflow.',
    {
      name: z.string(),
      classes: z.array(z.object({ label: z.string(), description: z.string(), template_id: z.string().optional() })),
      default_template_id: z.string().nullable().optional(),
      min_confidence: z.number().nullable().optional(),
      page_range: z.string().nullable().optional(),
    },
    { classifier: anyObject },
    async (args) => ({ classifier: await send('POST', '/v1/classifiers', args) }),
  );

  tool(
    'list_classifiers',
    'The saved Classifiers of this account, 50 a page (pass pagination_key for the next).',
    { pagination_key: z.string().optional() },
    page,
    async ({ pagination_key }) => {
      const res = await get<{ items: Record<string, unknown>[]; pagination_key: string | null }>('/v1/classifiers', { pagination_key });
      return { items: res.items, pagination_key: res.pagination_key ?? null };
    },
  );

  tool(
    'get_credit_balance',
    'Credits left on this account. docdrop serve is self-hosted and does not meter credits: unlimited is true and credits_remaining null.',
    {},
    { unlimited: z.boolean(), credits_remaining: z.number().nullable() },
    async () => {
      // Proves the key still names an account, as the hosted tool does, before answering.
      await get('/v1/classifiers');
      return { unlimited: true, credits_remaining: null };
    },
  );
  return server;
}
