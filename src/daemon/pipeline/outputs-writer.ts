// Writes one extracted input into its rule's output folder through src/outputs. Idempotent by request id:
// a per_document file has a name derived from the input and its request id (a repeat after a crash
// replaces the same file), and a daily group file upserts the record by request id. The pipeline commits
// `written` only after this returns, so no output row is ever written twice. With output.include_mail,
// a file that came from a mailbox gets its mail's from, subject, date and Message-ID from the mail ledger
// (recorded there when it was dropped, so they survive restarts).
import { basename, extname } from 'node:path';
import type { FieldDefinition, Workflow } from '../../api/types.js';
import type { MailOriginCells, OutputRecord } from '../../outputs/table.js';
import { writeGroupedOutput, writeOutputFile, type OutputSpec } from '../../outputs/write-output.js';
import { DocdropError } from '../../shared/errors.js';
import { expandPlaceholders, localDate } from '../../shared/safe-paths.js';
import type { RuleConfig } from '../config/config.js';
import type { InputRecord, InputResult } from '../ledger/ledger.js';
import type { MailOrigins } from '../ledger/mail-ledger.js';
import type { OutputsPort, PipelineRule } from './ports.js';

type OutputConfig = RuleConfig['output'];

/** `origins`: where the mail intake recorded each dropped file's mail; none (one-shot runs): no mail columns' values. */
export function createOutputsWriter(outputs: ReadonlyMap<string, OutputConfig>, origins?: MailOrigins): OutputsPort {
  return {
    async write(rule, record) {
      const cfg = outputs.get(rule.name);
      if (!cfg) throw new DocdropError('programming_error', `no output settings for rule "${rule.name}"`);
      const mail = cfg.include_mail ? ((await origins?.mailOrigin(record.path, record.sha256)) ?? null) : undefined;
      return [await writeInputOutput(rule, cfg, record, mail)];
    },
  };
}

export async function writeInputOutput(
  rule: PipelineRule,
  cfg: OutputConfig,
  record: InputRecord & { result: InputResult },
  mail?: MailOriginCells | null,
): Promise<string> {
  const { result } = record;
  const workflow = pickWorkflow(rule, result.templateId);
  const fields = workflow ? workflow.template_schema.fields : inferFields(result.data);
  const isClassifier = rule.target.kind === 'classifier';
  const label = result.classification ?? 'unclassified';
  // The input's own day, not today's: a write repeated after midnight must land in the same place.
  const day = new Date(record.createdAt);
  const dir = expandPlaceholders(cfg.dir, {
    rule: rule.name,
    label,
    date: day,
    workflow: workflow?.template_title ?? (rule.target.kind === 'workflow' ? rule.target.title : rule.target.name),
  });
  const spec: OutputSpec = {
    format: cfg.format,
    fields,
    ...layoutFor(cfg, fields),
    includeFilename: cfg.include_filename,
    includeRequestId: cfg.include_request_id,
    includeClassification: isClassifier,
    includeMail: cfg.include_mail,
    includeConfidence: cfg.confidence,
  };
  const out: OutputRecord = {
    fileName: result.fileName || basename(record.path),
    requestId: record.requestId!,
    data: result.data,
    dateFormat: workflow?.parser_config?.date_format ?? null,
    ...(cfg.confidence ? { fieldConfidence: result.fieldConfidence ?? null } : {}),
    ...(isClassifier ? { classification: result.classification, confidence: result.confidence } : {}),
    ...(mail !== undefined ? { mail } : {}),
  };
  if (cfg.group === 'daily') {
    const baseName = isClassifier && !cfg.dir.includes('{label}') ? `${localDate(day)}-${label}` : localDate(day);
    return writeGroupedOutput({ ...spec, dir, baseName, record: out });
  }
  const stem = basename(record.path, extname(record.path));
  return writeOutputFile({ ...spec, dir, baseName: stem, uniqueSuffix: `-${record.requestId!.slice(0, 8)}`, records: [out] });
}

function pickWorkflow(rule: PipelineRule, templateId: string | null): Workflow | undefined {
  const all = rule.target.workflows;
  if (templateId && all.has(templateId)) return all.get(templateId);
  return rule.target.kind === 'workflow' ? all.get(rule.target.templateId) : undefined;
}

/** line_items needs the merge field to be a table of this Workflow; otherwise (e.g. a classifier routed to
 * a Workflow without it) the document is written flat rather than failed. */
function layoutFor(cfg: OutputConfig, fields: readonly FieldDefinition[]): Pick<OutputSpec, 'layout' | 'mergeField'> {
  const merge = cfg.merge_field ?? undefined;
  if (cfg.layout === 'line_items' && merge && fields.some((f) => f.name === merge && f.type === 'table')) {
    return { layout: 'line_items', mergeField: merge };
  }
  return { layout: 'flat' };
}

/** Columns for a result whose Workflow is unknown here: its keys, in order, as text. */
function inferFields(data: Record<string, unknown>): FieldDefinition[] {
  return Object.keys(data).map((name) => ({ name, type: 'text' as const }));
}
