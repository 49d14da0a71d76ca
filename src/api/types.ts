// Wire types of the document service interface (../shared/spec/interface.md, version 1.0.0).
// Shared by the client (src/api) and the self-hosted service (src/service): one definition of the
// contract, so the two sides cannot drift apart.

/** ISO 8601 date-time, microsecond precision, no zone suffix (UTC), e.g. 2026-11-21T23:48:34.123456 */
export type Timestamp = string;

export type FileExtension = 'pdf' | 'jpeg' | 'png' | 'tiff';

export interface ParserRunParams {
  end_regex?: string | null;
  page_ranges?: string;
  use_ocr?: boolean;
  detect_tables?: boolean;
  start_regex?: string | null;
  query_model?: string;
  use_all_matches?: boolean;
  detect_layout?: boolean;
  split_regex?: string | null;
}

export interface ParserRun {
  template_id: string;
  template_title: string;
  request_id: string;
  params: ParserRunParams;
  datetime: Timestamp;
}

export interface Document {
  document_id: string;
  user_id: string;
  source_name: string;
  /** Temporary pre-signed URL; absent from the multipart upload response. */
  storage_key?: string;
  file_name: string;
  file_extension: string;
  num_pages: number;
  meta_tags: Record<string, unknown>;
  parser_runs: ParserRun[];
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DocumentsPageKey {
  document_id: string;
  created_at: Timestamp;
}

export interface DocumentList {
  files: Document[];
  pagination_key?: DocumentsPageKey;
}

export interface UploadUrl {
  upload_url: string;
  document_id: string;
}

// Statuses as the spec writes them, synonyms included; see normaliseStatus in src/api/job-status.ts.
export type RequestStatus =
  | 'pending'
  | 'processing'
  | 'completed'
  | 'complete'
  | 'failed'
  | 'failure'
  | 'exception';

export type HumanVerificationStatus = 'pending' | 'approved' | 'rejected';

/** One segment of a segmented run (chunk_by_pages, rolling_window, start/end regex, split regex). */
export interface Chunk {
  index: number;
  /** 1-based page numbers of the original document covered by this segment. */
  pages: number[];
  data: Record<string, unknown>;
  has_missing_required_fields: boolean;
}

export interface ResponseBody {
  file_name: string;
  file_presigned_url: string | null;
  user_error_msg: string | null;
  template_id: string;
  template_type: string;
  template_title: string;
  num_pages: number;
  human_verification_status: HumanVerificationStatus;
  has_missing_required_fields: boolean;
  result_json_data: Record<string, unknown> | null;
  chunks?: Chunk[];
}

export interface ExtractResults {
  num_pages: number;
  data: Record<string, unknown> | null;
  /** docdrop extension: the spec gives POST /v1/extract jobs no place for the failure message. */
  user_error_msg?: string | null;
}

export interface ExtractionJob {
  request_id: string;
  request_status: RequestStatus;
  /** Jobs created by run_parser. */
  response_body?: ResponseBody;
  /** Jobs created by POST /v1/extract. */
  results?: ExtractResults;
  classification: string | null;
  confidence_scores: Record<string, number> | null;
  classify_credits: number;
  credits_used: number;
  total_credits: number;
  /**
   * docdrop extension (additive, per the spec's versioning rule 3): how sure the engine is of each
   * field's value, 0..1 (0 = not found), once completed. null while running, on failure, and from an
   * engine that gives none; absent from the hosted service. See docs/service.md.
   */
  field_confidence?: Record<string, number> | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * POST /files/upload/{template_id} (docdrop extension): the pending job as run_parser answers it, plus
 * the id of the document stored from the upload.
 */
export interface UploadAndRunResponse extends ExtractionJob {
  document_id: string;
}

export type FieldType = 'text' | 'number' | 'date' | 'table';

export interface FieldDefinition {
  name: string;
  description?: string;
  type: FieldType;
  required?: boolean;
  subFields?: SubFieldDefinition[];
}

export interface SubFieldDefinition {
  name: string;
  description?: string;
  type: Exclude<FieldType, 'table'>;
  required?: boolean;
}

export interface TemplateSchema {
  fields: FieldDefinition[];
}

export interface OcrConfig {
  engine: string;
  use_ocr: boolean;
  detect_layout: boolean;
  detect_tables: boolean;
  remove_headers: boolean;
  remove_footers: boolean;
  remove_tables: boolean;
}

export interface QueryConfig {
  query_model: string;
  page_ranges?: string;
  start_regex?: string | null;
  end_regex?: string | null;
  split_regex?: string | null;
  use_all_matches: boolean;
  set_max_output_tokens: boolean;
  include_example: boolean;
  minimize_tokens: boolean;
  selected_language: string | null;
}

export interface ParserConfig {
  parse_email_attachments: boolean;
  parse_email_body: boolean;
  date_format: string | null;
  outbound_integration: Record<string, unknown> | null;
  ocr_config: OcrConfig;
  query_config: QueryConfig;
  /**
   * docdrop extension: a required field whose confidence (field_confidence) is below this counts as
   * missing for has_missing_required_fields. Absent = the service's default (0.5); 0 turns it off.
   */
  confidence_threshold?: number;
}

/** Partial parser_config as accepted by create and update (nested keys may be a subset). */
export interface ParserConfigInput {
  parse_email_attachments?: boolean;
  parse_email_body?: boolean;
  date_format?: string | null;
  outbound_integration?: Record<string, unknown> | null;
  ocr_config?: Partial<OcrConfig>;
  query_config?: Partial<QueryConfig>;
  confidence_threshold?: number;
}

export interface Workflow {
  template_id: string;
  template_title: string;
  template_type: string;
  template_category: string;
  template_schema: TemplateSchema;
  email_id: string;
  webhook_url: string | null;
  parser_config: ParserConfig;
  created_at: Timestamp;
}

export interface CreateTemplateRequest {
  template_title: string;
  template_type: string;
  template_schema: TemplateSchema;
  webhook_url?: string | null;
  parser_config?: ParserConfigInput;
}

export interface UpdateTemplateRequest {
  template_type?: string;
  template_schema?: TemplateSchema;
  webhook_url?: string | null;
  parser_config?: ParserConfigInput;
}

export interface TemplateList {
  success: boolean;
  items: Workflow[];
  pagination_key: string | null;
}

export interface ClassDefinition {
  label: string;
  description: string;
  template_id?: string;
}

export type QueryModel = 'model-4o-mini' | 'model-4o';

export interface ClassifierConfigs {
  classifier_type: 'document';
  classes: ClassDefinition[];
  default_template_id?: string | null;
  min_confidence?: number | null;
  query_model: QueryModel;
  page_range?: string | null;
  use_ocr: boolean;
}

export interface Classifier {
  classifier_id: string;
  name: string;
  user_id: string;
  configs: ClassifierConfigs;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Flat body of create (name and classes required) and update (all optional). */
export interface ClassifierInput {
  name?: string;
  classes?: ClassDefinition[];
  default_template_id?: string | null;
  min_confidence?: number | null;
  classifier_type?: 'document';
  query_model?: QueryModel;
  use_ocr?: boolean;
  page_range?: string | null;
}

export interface ClassifierList {
  success: boolean;
  items: Classifier[];
  pagination_key: string | null;
}

export interface ClassificationResult {
  request_id: string;
  document_id: string;
  classifier_id: string | null;
  classification: string;
  confidence_scores: Record<string, number>;
  request_status: 'completed' | 'failed' | 'exception';
  credits_used: number;
  num_pages: number;
  duration: number;
}

export interface ClassifyRequest {
  document_id: string;
  classification_schema: { label: string; description: string }[];
  page_range?: string;
  query_model?: QueryModel;
}

export interface ClassifierClassifyRequest {
  document_id: string;
  page_range?: string;
  query_model?: QueryModel;
}

export interface RunParserParams {
  template_id?: string;
  classifier_id?: string;
  use_ocr?: boolean;
  query_model?: string;
  detect_layout?: boolean;
  detect_tables?: boolean;
  page_ranges?: string;
  chunk_by_pages?: number;
  rolling_window?: number;
  start_regex?: string;
  end_regex?: string;
  split_regex?: string;
  use_all_matches?: boolean;
}

export type ExportFormat = 'csv' | 'xlsx';
export type DataLayout = 'flat' | 'line_items';
export type DateRange = 'today' | '7_days' | '30_days' | '90_days';

export interface ExportCommon {
  file_format: ExportFormat;
  data_layout: DataLayout;
  merge_field?: string;
  include_filename?: boolean;
  include_request_id?: boolean;
}

export interface ExportSingleRequest extends ExportCommon {
  request_id: string;
}

export interface ExportRangeRequest extends ExportCommon {
  template_id: string;
  date_range: DateRange;
  excel_format?: 'single_sheet' | 'multi_sheet';
}

export interface ExportSingleResponse {
  success: boolean;
  file_presigned_url: string;
}

export interface SuccessResponse {
  success: boolean;
  message?: string;
}

export interface ErrorBody {
  success: false;
  error: string;
  message: string;
}
