// The extraction engine's seams. The service (src/service) only talks to src/engine/index.ts; readers
// turn files into positioned words, interpreters turn words into field values and labels. Engines are
// swappable behind ExtractionEngine (built-in rules engine, optional LLM engine).
import type { Chunk, ClassDefinition, FieldDefinition } from '../api/types.js';
import type { FileKind } from '../shared/file-kind.js';

/** A word with its box in page units (PDF points for PDFs, pixels scaled to 72 dpi for images); origin top-left. */
export interface Word {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** OCR confidence 0..100; absent for text-layer words. */
  conf?: number;
}

export interface PageText {
  /** 1-based page number in the original document. */
  page: number;
  width: number;
  height: number;
  words: Word[];
  /** Where the words came from. */
  source: 'text' | 'ocr';
  /** OCR'd pages: milliseconds from rendering (or decoding) the page to its words. */
  ocrMs?: number;
}

export interface ReadOptions {
  /** true: OCR every page even when it has a text layer. false: text layer, OCR only pages without one. */
  useOcr: boolean;
  /** 1-based pages to read (after page_ranges); undefined = all. Ignored for single images. */
  pages?: number[];
}

export interface ExtractInput {
  pages: PageText[];
  fields: FieldDefinition[];
  /** strftime-style pattern from parser_config.date_format; null = ISO yyyy-mm-dd. */
  dateFormat: string | null;
  detectTables: boolean;
  detectLayout: boolean;
  queryModel?: string;
}

export interface ExtractOutput {
  /** One key per field name; null when not found; tables are arrays of { subField: value }. */
  data: Record<string, unknown>;
  /** Names of required fields that were not found. */
  missingRequired: string[];
  /** How sure the engine is of each field's value, 0..1 (0 for a value not found); absent when the engine gives none. */
  confidence?: Record<string, number>;
}

export interface ClassifyInput {
  pages: PageText[];
  classes: Pick<ClassDefinition, 'label' | 'description'>[];
  queryModel?: string;
}

export interface ClassifyOutput {
  label: string;
  /** One score per label in 0..1, summing to 1. */
  scores: Record<string, number>;
}

export interface ExtractionEngine {
  readonly name: string;
  readonly version: string;
  extract(input: ExtractInput): Promise<ExtractOutput>;
  classify(input: ClassifyInput): Promise<ClassifyOutput>;
}

/** Thrown by readers and engines for a job-level failure: the job ends 'failed' with this message. */
export class DocumentError extends Error {
  override readonly name = 'DocumentError';
}

/** Run options of one extraction, already merged from the run_parser query and the Workflow's parser_config. */
export interface EngineRunOptions {
  useOcr: boolean;
  /** page_ranges as sent (e.g. '1-3,5'); ignored for single-image files. */
  pageRanges?: string;
  detectLayout: boolean;
  detectTables: boolean;
  queryModel?: string;
  chunkByPages?: number;
  rollingWindow?: number;
  startRegex?: string;
  endRegex?: string;
  splitRegex?: string;
  useAllMatches?: boolean;
}

export interface EngineExtractRequest {
  filePath: string;
  kind: FileKind;
  fields: FieldDefinition[];
  dateFormat: string | null;
  options: EngineRunOptions;
}

export interface EngineExtractResult {
  data: Record<string, unknown>;
  missingRequired: string[];
  /** Per field, 0..1: see ExtractOutput.confidence. Fields answered by embedded e-invoice XML count 1. */
  confidence?: Record<string, number>;
  /** Pages in the document. */
  numPages: number;
  /** 1-based pages that were read (after page_ranges). */
  pagesRead: number[];
  /** Present when a segmentation option was used: one entry per segment (shape: Chunk in src/api/types.ts). */
  chunks?: Chunk[];
  /** Plain text of the pages read, in reading order; the service stores it for search_term. */
  text?: string;
  engine: { name: string; version: string };
  /** How the pages were read: how many from the text layer, and the seconds each OCR'd page took (metrics). */
  reading?: { textPages: number; ocrPageSeconds: number[] };
}

export interface EngineClassifyRequest {
  filePath: string;
  kind: FileKind;
  classes: Pick<ClassDefinition, 'label' | 'description'>[];
  pageRange?: string;
  useOcr: boolean;
  queryModel?: string;
}

export interface EngineClassifyResult {
  label: string;
  scores: Record<string, number>;
  /** Pages in the document, or in page_range if given. */
  numPages: number;
  engine: { name: string; version: string };
}

/** What the service calls (src/engine/index.ts: createDocumentEngine). Reads files, runs the engine. */
export interface DocumentEngine {
  extract(req: EngineExtractRequest): Promise<EngineExtractResult>;
  classify(req: EngineClassifyRequest): Promise<EngineClassifyResult>;
  /** Ends worker pools (pdf.js, OCR); the service calls it on shutdown. */
  close(): Promise<void>;
}
