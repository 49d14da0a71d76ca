// Optional engine that asks an OpenAI-compatible chat-completions endpoint, with the answer
// constrained by a JSON schema built from the Workflow fields (or the classifier labels). When the
// endpoint is down, slow, or answers something that does not fit the schema, the built-in engine
// answers instead; the first such fallback is logged (without the key), later ones only at debug.
import { fetch } from 'undici';
import { z } from 'zod';
import type { FieldDefinition } from '../api/types.js';
import type { Logger } from '../shared/logger.js';
import { redactUrl } from '../shared/redact-url.js';
import { pageTextOf } from './layout/lines.js';
import type { ClassifyInput, ClassifyOutput, ExtractInput, ExtractOutput, ExtractionEngine } from './types.js';

export const llmConfigSchema = z.object({
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:8080/v1 (…/chat/completions is appended). */
  baseUrl: z.string().url(),
  apiKey: z.string().optional(),
  /** query_model -> the endpoint's model name, e.g. { 'model-4o-mini': 'gpt-4o-mini' }. */
  models: z.record(z.string(), z.string()).default({}),
  /** Model used when the run names no query_model or one missing from `models`. */
  defaultModel: z.string().optional(),
  timeoutMs: z.number().int().positive().default(60_000),
  /** Characters of document text sent at most (long documents are cut at the end). */
  maxChars: z.number().int().positive().default(60_000),
});
export type LlmConfig = z.input<typeof llmConfigSchema>;

const ENGINE_VERSION = '1.0.0';

function fieldSchema(f: FieldDefinition): Record<string, unknown> {
  const desc = f.description ? { description: f.description } : {};
  if (f.type === 'table') {
    const props = Object.fromEntries((f.subFields ?? []).map((s) => [s.name, fieldSchema(s as FieldDefinition)]));
    return { type: 'array', ...desc, items: { type: 'object', properties: props, required: Object.keys(props), additionalProperties: false } };
  }
  if (f.type === 'number') return { type: ['number', 'null'], ...desc };
  return { type: ['string', 'null'], ...desc };
}

export function extractionSchema(fields: FieldDefinition[]): Record<string, unknown> {
  const properties = Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f)]));
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

function classificationSchema(labels: string[]): Record<string, unknown> {
  const scores = Object.fromEntries(labels.map((l) => [l, { type: 'number', minimum: 0, maximum: 1 }]));
  return {
    type: 'object',
    properties: { label: { type: 'string', enum: labels }, scores: { type: 'object', properties: scores, required: labels, additionalProperties: false } },
    required: ['label', 'scores'],
    additionalProperties: false,
  };
}

const completionSchema = z.object({ choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1) });

export interface EngineId {
  name: string;
  version: string;
}

/** An engine that says which engine answered each call (the LLM, or the fallback when the LLM failed). */
export interface ReportingEngine extends ExtractionEngine {
  extractReporting(input: ExtractInput): Promise<{ out: ExtractOutput; by: EngineId }>;
  classifyReporting(input: ClassifyInput): Promise<{ out: ClassifyOutput; by: EngineId }>;
}

export function createLlmEngine(config: LlmConfig, fallback: ExtractionEngine, logger: Logger): ReportingEngine {
  const cfg = llmConfigSchema.parse(config);
  let warned = false;
  const url = `${cfg.baseUrl.replace(/\/+$/, '')}/chat/completions`;

  const modelFor = (queryModel?: string): string => (queryModel && cfg.models[queryModel]) || cfg.defaultModel || Object.values(cfg.models)[0] || queryModel || 'default';

  async function ask(model: string, system: string, user: string, name: string, schema: Record<string, unknown>): Promise<unknown> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {}) },
      body: JSON.stringify({
        model,
        temperature: 0,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } },
      }),
      signal: AbortSignal.timeout(cfg.timeoutMs),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status} from the LLM endpoint`);
    const body = completionSchema.parse(await res.json());
    return JSON.parse(body.choices[0].message.content);
  }

  function fellBack(what: string, err: unknown): void {
    const msg = { endpoint: redactUrl(cfg.baseUrl), reason: (err as Error).message };
    if (!warned) logger.warn(msg, `LLM endpoint failed during ${what}; the built-in engine answers instead (logged once)`);
    else logger.debug(msg, `LLM ${what} fell back to the built-in engine`);
    warned = true;
  }

  const documentText = (pages: ExtractInput['pages']): string => pages.map((p) => `--- page ${p.page} ---\n${pageTextOf(p)}`).join('\n').slice(0, cfg.maxChars);

  const self: EngineId = { name: 'docdrop-llm', version: ENGINE_VERSION };
  const fallbackId: EngineId = { name: fallback.name, version: fallback.version };

  return {
    ...self,
    extract: async (input) => (await extractReporting(input)).out,
    classify: async (input) => (await classifyReporting(input)).out,
    extractReporting,
    classifyReporting,
  };

  async function extractReporting(input: ExtractInput): Promise<{ out: ExtractOutput; by: EngineId }> {
      try {
        const answer = await ask(
          modelFor(input.queryModel),
          `Extract the requested fields from the document text. Use null when a field is not present. Numbers as plain numbers. Dates as ${input.dateFormat ? `strftime pattern ${input.dateFormat}` : 'YYYY-MM-DD'}.`,
          documentText(input.pages),
          'extraction',
          extractionSchema(input.fields),
        );
        const data = z.record(z.string(), z.unknown()).parse(answer);
        const out: Record<string, unknown> = {};
        const missingRequired: string[] = [];
        for (const f of input.fields) {
          const v = data[f.name] ?? (f.type === 'table' ? [] : null);
          if (f.type === 'table' && !Array.isArray(v)) throw new Error(`field ${f.name}: expected an array, got ${typeof v}`);
          out[f.name] = v;
          if (f.required && (v === null || v === '' || (Array.isArray(v) && v.length === 0))) missingRequired.push(f.name);
        }
        return { out: { data: out, missingRequired }, by: self };
      } catch (err) {
        fellBack('extraction', err);
        return { out: await fallback.extract(input), by: fallbackId };
      }
  }

  async function classifyReporting(input: ClassifyInput): Promise<{ out: ClassifyOutput; by: EngineId }> {
      const labels = input.classes.map((c) => c.label);
      try {
        const answer = await ask(
          modelFor(input.queryModel),
          `Classify the document into one of these labels. Give each label a probability; they must sum to 1. Labels:\n${input.classes.map((c) => `- ${c.label}: ${c.description ?? ''}`).join('\n')}`,
          documentText(input.pages),
          'classification',
          classificationSchema(labels),
        );
        const parsed = z.object({ label: z.string(), scores: z.record(z.string(), z.number().min(0)) }).parse(answer);
        if (!labels.includes(parsed.label)) throw new Error(`label '${parsed.label}' is not one of the labels`);
        const raw = labels.map((l) => parsed.scores[l] ?? 0);
        const sum = raw.reduce((a, b) => a + b, 0);
        if (!(sum > 0)) throw new Error('the scores sum to 0');
        const scores = Object.fromEntries(labels.map((l, i) => [l, raw[i] / sum]));
        return { out: { label: parsed.label, scores }, by: self };
      } catch (err) {
        fellBack('classification', err);
        return { out: await fallback.classify(input), by: fallbackId };
      }
  }
}
