// A real webhook receiver on loopback, as an automation trigger of the hosted service would run it: it
// records every POST and parses the body with the envelope's schema (issue 13 §1), every key and type.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:<port> */
  base: string;
  port: number;
  received: Received[];
  /** Status codes to answer per path, in order; 200 once exhausted. */
  plan: Map<string, number[]>;
  to(path: string): Received[];
  close(): Promise<void>;
}

/** Starts a receiver; `port` reuses a known port (a receiver coming back up). */
export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const plan = new Map<string, number[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(plan.get(path)?.shift() ?? 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const bound = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${bound}`,
    port: bound,
    received,
    plan,
    to: (path) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The spec's timestamp format: microseconds, no zone. */
const timestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
const status = z.enum(['pending', 'processing', 'completed', 'failed', 'exception']);
const jobFields = {
  request_id: z.string().min(1),
  request_status: status,
  classification: z.string().nullable(),
  confidence_scores: z.record(z.string(), z.number()).nullable(),
  classify_credits: z.number(),
  credits_used: z.number(),
  total_credits: z.number(),
  // docdrop extension (docs/service.md, Field confidence).
  field_confidence: z.record(z.string(), z.number()).nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  document_id: z.string().min(1),
  template_id: z.string().nullable(),
};
const runParserData = z
  .object({
    ...jobFields,
    response_body: z
      .object({
        file_name: z.string(),
        file_presigned_url: z.string().url().nullable(),
        user_error_msg: z.string().nullable(),
        template_id: z.string(),
        template_type: z.string(),
        template_title: z.string(),
        num_pages: z.number().int(),
        human_verification_status: z.string(),
        has_missing_required_fields: z.boolean(),
        result_json_data: z.record(z.string(), z.unknown()).nullable(),
      })
      .strict(),
  })
  .strict();
const extractData = z
  .object({
    ...jobFields,
    results: z.object({ num_pages: z.number().int(), data: z.record(z.string(), z.unknown()).nullable(), user_error_msg: z.string().nullable() }).strict(),
  })
  .strict();
const envelope = <T extends z.ZodTypeAny>(data: T) => z.object({ event: z.literal('file_request_status_change'), timestamp, data }).strict();

/** The body of a run_parser (or inbound e-mail) job's webhook; throws naming the first key that differs. */
export const parseRunParserEnvelope = (raw: string) => envelope(runParserData).parse(JSON.parse(raw));
/** The body of a POST /v1/extract job's webhook. */
export const parseExtractEnvelope = (raw: string) => envelope(extractData).parse(JSON.parse(raw));
