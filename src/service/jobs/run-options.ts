// Run options of an extraction (run_parser query, or the fields of POST /v1/extract): validated once at
// submission, stored as sent, and merged with the Workflow's parser_config when the job runs (omitted
// options fall back to the Workflow).
import { z } from 'zod';
import { ErrorCodes } from '../../api/error-codes.js';
import type { ParserConfig, ParserRunParams, RunParserParams } from '../../api/types.js';
import type { EngineRunOptions } from '../../engine/index.js';
import { badRequest, describeZodError } from '../service-error.js';
import { pageRanges, queryBool, regexString } from '../validate.js';

const positiveInt = z.union([z.number(), z.string().regex(/^\d+$/, 'expected a positive integer').transform(Number)]).pipe(
  z.number().int('expected a positive integer').min(1, 'expected a positive integer'),
);

export const runParamsSchema = z.object({
  use_ocr: queryBool().optional(),
  query_model: z.string().min(1).optional(),
  detect_layout: queryBool().optional(),
  detect_tables: queryBool().optional(),
  page_ranges: pageRanges().optional(),
  chunk_by_pages: positiveInt.optional(),
  rolling_window: positiveInt.optional(),
  start_regex: regexString().optional(),
  end_regex: regexString().optional(),
  split_regex: regexString().optional(),
  use_all_matches: queryBool().optional(),
});

export type RunParams = Omit<RunParserParams, 'template_id' | 'classifier_id'>;

const OCR_BOUND = ['detect_layout', 'detect_tables', 'start_regex', 'end_regex', 'split_regex', 'use_all_matches'] as const;

/** Parses the run options out of `input` (unknown keys are ignored: they belong to the caller). */
export function parseRunParams(input: Record<string, unknown>, where: string): RunParams {
  const picked = Object.fromEntries(Object.keys(runParamsSchema.shape).filter((k) => input[k] !== undefined).map((k) => [k, input[k]]));
  const r = runParamsSchema.safeParse(picked);
  if (!r.success) throw badRequest(describeZodError(r.error, where));
  const p = r.data as RunParams;
  // The spec: use_ocr must be true when query_model is model-3.5-turbo or any OCR-related option is used.
  // It is checked on the request itself: an OCR-related option needs use_ocr=true sent alongside it.
  const needs = [...(p.query_model === 'model-3.5-turbo' ? ['query_model=model-3.5-turbo'] : []), ...OCR_BOUND.filter((k) => p[k] !== undefined)];
  if (needs.length > 0 && p.use_ocr !== true) {
    throw badRequest(
      `use_ocr: expected true because ${needs.join(', ')} ${needs.length === 1 ? 'requires' : 'require'} OCR, received ${p.use_ocr === undefined ? 'nothing' : String(p.use_ocr)}`,
      ErrorCodes.ocrRequired,
    );
  }
  return p;
}

/** Engine options and the parser_runs record of one run: the request's options over the Workflow's. */
export function resolveRunOptions(p: RunParams, cfg: ParserConfig): { engine: EngineRunOptions; recorded: ParserRunParams } {
  const ocr = cfg.ocr_config;
  const q = cfg.query_config;
  const engine: EngineRunOptions = {
    useOcr: p.use_ocr ?? ocr.use_ocr,
    pageRanges: p.page_ranges ?? (q.page_ranges || undefined),
    detectLayout: p.detect_layout ?? ocr.detect_layout,
    detectTables: p.detect_tables ?? ocr.detect_tables,
    queryModel: p.query_model ?? q.query_model,
    chunkByPages: p.chunk_by_pages,
    rollingWindow: p.rolling_window,
    startRegex: p.start_regex ?? (q.start_regex || undefined),
    endRegex: p.end_regex ?? (q.end_regex || undefined),
    splitRegex: p.split_regex ?? (q.split_regex || undefined),
    useAllMatches: p.use_all_matches ?? q.use_all_matches,
  };
  const recorded: ParserRunParams = {
    use_ocr: engine.useOcr,
    detect_layout: engine.detectLayout,
    detect_tables: engine.detectTables,
    query_model: engine.queryModel,
    start_regex: engine.startRegex ?? null,
    end_regex: engine.endRegex ?? null,
    split_regex: engine.splitRegex ?? null,
    use_all_matches: engine.useAllMatches,
    ...(engine.pageRanges ? { page_ranges: engine.pageRanges } : {}),
  };
  return { engine, recorded };
}
