// GET /files/export. request_id selects single mode: the file is written at once and a pre-signed URL
// (valid 1 h) returned. template_id + date_range selects range mode: the completed jobs of that Workflow
// created in the window (today = since 00:00 UTC; N_days = the last N x 24 h) go into one file whose
// link (valid 1 h) is e-mailed to the account's address; the answer is { success: true } once sent.
// Tables come from src/outputs (buildTable/toCsv/writeXlsx): one builder for the daemon and the service.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ErrorCodes } from '../../api/error-codes.js';
import type { ExportSingleResponse, ParserConfig, SuccessResponse, TemplateSchema } from '../../api/types.js';
import { buildTable, OutputOptionsError, type OutputRecord, type TableOptions } from '../../outputs/table.js';
import { renderOutput } from '../../outputs/write-output.js';
import { sheetNames, writeXlsx } from '../../outputs/xlsx.js';
import { specTimestamp } from '../../shared/time.js';
import type { ExportMailer } from '../mail/export-mailer.js';
import { PresignTtl, type Presigner } from '../presign.js';
import { ServiceError } from '../service-error.js';
import type { DocumentsRepo } from '../store/documents-repo.js';
import type { FileStore } from '../store/file-store.js';
import type { Job, JobStore } from '../store/job-store.js';
import type { TemplateRow, TemplatesRepo } from '../store/templates-repo.js';
import { requireJob, requireTemplate } from '../usecases/owned-rows.js';
import { parseInput, uuid } from '../validate.js';

export interface ExportRoutesDeps {
  jobStore: JobStore;
  templates: TemplatesRepo;
  documents: DocumentsRepo;
  files: FileStore;
  presign: Presigner;
  exportMailer: ExportMailer;
  /** Where range-export links go (--account-email); default <account id>@<inboundDomain>. */
  accountEmail?: string;
  inboundDomain: string;
}

const flag = z.enum(['true', 'false'], { message: "expected 'true' or 'false'" }).transform((v) => v === 'true');

const exportQuery = z
  .object({
    request_id: uuid().optional(),
    template_id: uuid().optional(),
    date_range: z.enum(['today', '7_days', '30_days', '90_days'], { message: "expected 'today', '7_days', '30_days' or '90_days'" }).optional(),
    file_format: z.enum(['csv', 'xlsx'], { message: "expected 'csv' or 'xlsx'" }),
    data_layout: z.enum(['flat', 'line_items'], { message: "expected 'flat' or 'line_items'" }),
    merge_field: z.string().min(1).optional(),
    include_filename: flag.optional(),
    include_request_id: flag.optional(),
    excel_format: z.enum(['single_sheet', 'multi_sheet'], { message: "expected 'single_sheet' or 'multi_sheet'" }).optional(),
  })
  .superRefine((q, c) => {
    if ((q.request_id === undefined) === (q.template_id === undefined)) {
      c.addIssue({ code: 'custom', path: ['request_id'], message: 'expected exactly one of request_id (single mode) or template_id (range mode)' });
    }
    if (q.template_id !== undefined && q.date_range === undefined) c.addIssue({ code: 'custom', path: ['date_range'], message: 'required in range mode (with template_id)' });
    if (q.data_layout === 'line_items' && q.merge_field === undefined) {
      c.addIssue({ code: 'custom', path: ['merge_field'], message: 'required when data_layout is line_items (the name of a table field of the Workflow)' });
    }
  });

type ExportQuery = z.infer<typeof exportQuery>;

const RANGE_DAYS = { today: 0, '7_days': 7, '30_days': 30, '90_days': 90 } as const;

export function exportRoutes(app: FastifyInstance, deps: ExportRoutesDeps): void {
  app.get('/files/export', async (req): Promise<ExportSingleResponse | SuccessResponse> => {
    const q = parseInput(exportQuery, req.query, 'query');
    if (q.request_id) {
      const id = q.request_id.toLowerCase();
      const job = await requireJob(deps, req.account, id);
      if (job.status !== 'completed' || !job.template_id) {
        throw new ServiceError(400, ErrorCodes.invalidRequest, `request_id: job ${id} is ${job.status}; only completed jobs can be exported`);
      }
      const template = (await deps.templates.getAny(job.template_id))!;
      const rel = await writeExport(deps, template, [job], q);
      return { success: true, file_presigned_url: deps.presign.url('GET', `/presigned/files/${rel}`, PresignTtl.export) };
    }
    const templateId = q.template_id!.toLowerCase();
    const template = await requireTemplate(deps, req.account, templateId);
    const jobs = await deps.jobStore.completedForTemplate(req.account.id, templateId, rangeStart(q.date_range!));
    const rel = await writeExport(deps, template, jobs, q);
    const url = deps.presign.url('GET', `/presigned/files/${rel}`, PresignTtl.export);
    await deps.exportMailer.send({
      to: deps.accountEmail ?? `${req.account.id}@${deps.inboundDomain}`,
      subject: `docdrop export: ${template.template_title} (${q.date_range})`,
      text: `Your export of ${jobs.length} result(s) of "${template.template_title}" (${q.date_range}) is ready.\n\nDownload (valid 1 hour):\n${url}\n`,
      url,
    });
    return { success: true };
  });
}

function rangeStart(range: keyof typeof RANGE_DAYS): string {
  const now = new Date();
  const days = RANGE_DAYS[range];
  const start = days === 0 ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())) : new Date(now.getTime() - days * 86_400_000);
  return specTimestamp(start);
}

/** Writes the export file under artifacts/exports/ and returns its relative path. */
async function writeExport(deps: ExportRoutesDeps, template: TemplateRow, jobs: Job[], q: ExportQuery): Promise<string> {
  const fields = (JSON.parse(template.template_schema) as TemplateSchema).fields;
  const dateFormat = (JSON.parse(template.parser_config) as ParserConfig).date_format;
  const records: OutputRecord[] = await Promise.all(
    jobs.map(async (j) => ({
      fileName: (await deps.documents.get(j.document_id))?.file_name ?? '',
      requestId: j.request_id,
      data: j.result?.data ?? {},
      dateFormat,
    })),
  );
  const opts: TableOptions = {
    layout: q.data_layout,
    mergeField: q.merge_field,
    includeFilename: q.include_filename ?? false,
    includeRequestId: q.include_request_id ?? false,
  };
  const rel = `exports/${randomUUID()}/${safeName(template.template_title)}.${q.file_format}`;
  const dest = deps.files.artifactPath(rel);
  await mkdir(dirname(dest), { recursive: true });
  try {
    if (q.file_format === 'xlsx' && q.excel_format === 'multi_sheet' && q.template_id) {
      // One sheet per result, named after its file (made unique and valid by sheetNames).
      const names = sheetNames(records.map((r) => r.fileName || r.requestId));
      const sheets = records.map((r, i) => ({ name: names[i], table: buildTable(fields, [r], opts) }));
      await writeXlsx(sheets.length ? sheets : [{ name: 'Results', table: buildTable(fields, [], opts) }], dest);
    } else {
      await renderOutput({ ...opts, format: q.file_format, fields }, records, dest);
    }
  } catch (err) {
    if (err instanceof OutputOptionsError) throw new ServiceError(400, ErrorCodes.invalidRequest, err.message);
    throw err;
  }
  return rel;
}

const safeName = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'export';
