// The facade the service calls: read the selected pages, segment them when asked, run the engine on
// each segment, and report which engine (name and version) produced the result.
//
// data rule for segmented runs: `data` is the result of the whole selection of pages (as without
// segmentation), so a Workflow's columns stay filled; `chunks` holds one result per segment.
import type { Chunk } from '../api/types.js';
import type { FileKind } from '../shared/file-kind.js';
import { silentLogger, type Logger } from '../shared/logger.js';
import { createBuiltinEngine } from './builtin/builtin-engine.js';
import { createLlmEngine, type EngineId, type LlmConfig, type ReportingEngine } from './llm-engine.js';
import { closeReaders, countPages, parsePageRanges, readDocument, readPages } from './read/index.js';
import { parseCii } from './einvoice/cii.js';
import { einvoiceValues } from './einvoice/einvoice-fields.js';
import { segmentPages, wantsSegmentation } from './segment.js';
import { pageTextOf } from './layout/lines.js';
import {
  DocumentError,
  type DocumentEngine,
  type EngineClassifyRequest,
  type EngineClassifyResult,
  type EngineExtractRequest,
  type EngineExtractResult,
  type ClassifyInput,
  type ClassifyOutput,
  type ExtractInput,
  type ExtractOutput,
  type PageText,
} from './types.js';

// Besides createDocumentEngine(), what the service needs of the engine: its types and error, page counting
// and selection, reader pools. src/service imports nothing else from src/engine (file kinds: src/shared).
export type { LlmConfig } from './llm-engine.js';
export { DocumentError, type DocumentEngine, type EngineRunOptions } from './types.js';
export { countPages, writeSelectedPages, configureReaders, type ReaderPoolOptions } from './read/index.js';

export interface DocumentEngineOptions {
  /** An OpenAI-compatible endpoint; when absent the built-in engine does everything. */
  llm?: LlmConfig;
  logger?: Logger;
}

async function selectedPages(filePath: string, kind: FileKind, spec: string | undefined): Promise<{ numPages: number; pages?: number[] }> {
  const numPages = await countPages(filePath, kind);
  // page_ranges does not apply to single images.
  if (!spec || (kind !== 'pdf' && numPages === 1)) return { numPages };
  try {
    return { numPages, pages: parsePageRanges(spec, numPages) };
  } catch (err) {
    throw new DocumentError((err as Error).message);
  }
}

const plainText = (pages: PageText[]): string => pages.map((p) => pageTextOf(p)).join('\n\f\n');

/** Reported as the engine when the embedded e-invoice XML answered every field. */
export const EINVOICE_READER: EngineId = { name: 'docdrop-einvoice', version: '1.0.0' };

export function createDocumentEngine(opts: DocumentEngineOptions = {}): DocumentEngine {
  const logger = opts.logger ?? silentLogger;
  const builtin = createBuiltinEngine();
  const builtinId: EngineId = { name: builtin.name, version: builtin.version };
  // Every call reports the engine that answered it: with an LLM configured, the built-in engine
  // answers whenever the endpoint fails, and the job records that.
  const llm: ReportingEngine | null = opts.llm ? createLlmEngine(opts.llm, builtin, logger) : null;
  const extractOne = (input: ExtractInput): Promise<{ out: ExtractOutput; by: EngineId }> =>
    llm ? llm.extractReporting(input) : builtin.extract(input).then((out) => ({ out, by: builtinId }));
  const classifyOne = (input: ClassifyInput): Promise<{ out: ClassifyOutput; by: EngineId }> =>
    llm ? llm.classifyReporting(input) : builtin.classify(input).then((out) => ({ out, by: builtinId }));

  return {
    async extract(req: EngineExtractRequest): Promise<EngineExtractResult> {
      const o = req.options;
      const { numPages, pages } = await selectedPages(req.filePath, req.kind, o.pageRanges);
      const { pages: read, einvoiceXml } = await readDocument(req.filePath, req.kind, { useOcr: o.useOcr, pages });
      const base = { fields: req.fields, dateFormat: req.dateFormat, detectTables: o.detectTables, detectLayout: o.detectLayout, queryModel: o.queryModel };
      // A hybrid e-invoice's XML answers the fields it can exactly; the engine reads the page for the
      // rest, and is not called at all when nothing is left (no LLM tokens spent on a ZUGFeRD invoice).
      const invoice = einvoiceXml ? parseCii(einvoiceXml) : null;
      if (einvoiceXml && !invoice) logger.warn({ file: req.filePath }, 'the invoice XML attached to the PDF could not be parsed; reading the page instead');
      const exact = invoice ? einvoiceValues(invoice, req.fields, req.dateFormat) : {};
      const rest = req.fields.filter((f) => !(f.name in exact));
      const { out, by } =
        rest.length > 0 || !invoice ? await extractOne({ ...base, fields: rest, pages: read }) : { out: { data: {}, missingRequired: [] }, by: EINVOICE_READER };
      const whole = { data: Object.fromEntries(req.fields.map((f) => [f.name, f.name in exact ? exact[f.name] : out.data[f.name]])), missingRequired: out.missingRequired };
      // Values from the embedded XML are exact; an engine that gives no confidence (an LLM) leaves it absent.
      const confidence = out.confidence || rest.length === 0 ? Object.fromEntries(req.fields.map((f) => [f.name, f.name in exact ? 1 : (out.confidence?.[f.name] ?? 0)])) : undefined;
      const engine = Object.keys(exact).length === 0 || by === EINVOICE_READER ? by : { name: `${by.name}+einvoice`, version: by.version };
      let chunks: Chunk[] | undefined;
      if (wantsSegmentation(o)) {
        const segments = segmentPages(read, o);
        chunks = [];
        for (const [index, segment] of segments.entries()) {
          const { out: r } = await extractOne({ ...base, pages: segment });
          chunks.push({ index, pages: segment.map((p) => p.page), data: r.data, has_missing_required_fields: r.missingRequired.length > 0 });
        }
      }
      return {
        data: whole.data,
        missingRequired: whole.missingRequired,
        ...(confidence ? { confidence } : {}),
        numPages,
        pagesRead: read.map((p) => p.page),
        chunks,
        text: plainText(read),
        engine,
        reading: {
          textPages: read.filter((p) => p.source === 'text').length,
          ocrPageSeconds: read.filter((p) => p.source === 'ocr').map((p) => (p.ocrMs ?? 0) / 1000),
        },
      };
    },

    async classify(req: EngineClassifyRequest): Promise<EngineClassifyResult> {
      const { numPages, pages } = await selectedPages(req.filePath, req.kind, req.pageRange);
      const read = await readPages(req.filePath, req.kind, { useOcr: req.useOcr, pages });
      const { out: r, by } = await classifyOne({ pages: read, classes: req.classes, queryModel: req.queryModel });
      return { label: r.label, scores: r.scores, numPages: pages ? pages.length : numPages, engine: by };
    },

    async close(): Promise<void> {
      await closeReaders();
    },
  };
}
