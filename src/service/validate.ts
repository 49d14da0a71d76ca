// Edge validation: every body, query and path id goes through zod once, here; handlers get typed values.
import { z } from 'zod';
import { describeZodError, ServiceError } from './service-error.js';
import { ErrorCodes } from '../api/error-codes.js';

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query'): z.infer<S> {
  if (where === 'body' && (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value))) {
    throw new ServiceError(400, ErrorCodes.invalidRequest, `request body: expected a JSON object, received ${describeValue(value)}`);
  }
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw new ServiceError(400, ErrorCodes.invalidRequest, describeZodError(r.error, where === 'query' ? 'query ' : ''));
  return r.data;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const uuid = () => z.string().regex(UUID_RE, { message: 'expected a UUID' });

/** Path ids are UUIDs; anything else is a malformed request (400), not an unknown resource (404). */
export function pathId(name: string, value: unknown): string {
  if (typeof value !== 'string' || !UUID_RE.test(value)) {
    throw new ServiceError(400, ErrorCodes.invalidRequest, `${name}: expected a UUID in the path, received ${describeValue(value)}`);
  }
  return value.toLowerCase();
}

export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? v.slice(0, 60) + '…' : v);
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

/** Query-string booleans: 'true'/'false' (also 1/0), as clients send them in URLs. */
export const queryBool = () =>
  z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1');

/** Query-string integers within bounds; a rejection names the allowed range and echoes what was sent. */
export const queryInt = (min: number, max: number) =>
  z.unknown().transform((v, ctx) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v) ? Number(v) : NaN;
    if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
    ctx.issues.push({ code: 'custom', input: v, message: `expected an integer from ${min} to ${max}, received ${describeValue(v)}` });
    return z.NEVER;
  });

// The spec's page-range and regex rules live with the other definition rules; routes import them from here too.
export { pageRanges, regexString } from '../api/definition-rules.js';

/** Object params for z.strictObject: unknown keys are rejected with a message naming them and a hint. */
export function rejectUnknownKeys(hint: string) {
  return {
    error: (iss: { code?: string; keys?: string[] }) =>
      iss.code === 'unrecognized_keys' ? `unexpected key(s) ${(iss.keys ?? []).map((k) => `"${k}"`).join(', ')}; ${hint}` : undefined,
  };
}
