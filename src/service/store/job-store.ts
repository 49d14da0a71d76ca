// Extraction jobs (table `jobs`): the port (JobStore) and its one SQL implementation (sql.ts). One row
// per request_id; JSON columns hold the run parameters as sent and the engine's result.
import type { Chunk, RunParserParams } from '../../api/types.js';
import { specTimestamp } from '../../shared/time.js';
import { insertParserRun, type NewParserRun } from './documents-repo.js';
import type { SqlExecutor } from './sql.js';

export type JobStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'exception';
export type JobSubmission = 'run_parser' | 'extract';

export interface JobResult {
  data: Record<string, unknown>;
  missingRequired: string[];
  /** Per field 0..1, when the engine gave it (older rows and LLM engines: absent). */
  confidence?: Record<string, number>;
  /** Required fields found but with confidence under the Workflow's threshold: they count as missing. */
  doubtfulRequired?: string[];
  numPages: number;
  pagesRead: number[];
  chunks?: Chunk[];
}

export interface Job {
  request_id: string;
  account: string;
  document_id: string;
  /** The Workflow run; for classify+extract null until the Classifier has routed the document. */
  template_id: string | null;
  template_title: string | null;
  template_type: string | null;
  classifier_id: string | null;
  submitted_via: JobSubmission;
  /** Run options as sent; omitted ones are taken from the Workflow when the job runs. */
  params: RunParserParams;
  status: JobStatus;
  result: JobResult | null;
  user_error_msg: string | null;
  classification: string | null;
  confidence_scores: Record<string, number> | null;
  classify_credits: number;
  credits_used: number;
  engine: string | null;
  selected_pages_file: string | null;
  created_at: string;
  updated_at: string;
}

type Row = Omit<Job, 'params' | 'result' | 'confidence_scores'> & { params: string; result: string | null; confidence_scores: string | null };

function fromRow(r: Row): Job {
  return {
    ...r,
    params: JSON.parse(r.params) as RunParserParams,
    result: r.result === null ? null : (JSON.parse(r.result) as JobResult),
    confidence_scores: r.confidence_scores === null ? null : (JSON.parse(r.confidence_scores) as Record<string, number>),
  };
}

export interface NewJob {
  request_id: string;
  account: string;
  document_id: string;
  template_id: string | null;
  template_title?: string | null;
  template_type?: string | null;
  classifier_id: string | null;
  submitted_via: JobSubmission;
  params: RunParserParams;
}

/** Fields a finishing or routing step may set. */
export type JobUpdate = Partial<Omit<Job, 'request_id' | 'account' | 'document_id' | 'submitted_via' | 'params' | 'created_at' | 'updated_at'>>;

/** Columns JobUpdate may set: update() builds its SQL from these names only. */
const UPDATABLE = new Set<string>([
  'template_id', 'template_title', 'template_type', 'classifier_id', 'status', 'result', 'user_error_msg', 'classification',
  'confidence_scores', 'classify_credits', 'credits_used', 'engine', 'selected_pages_file',
]);

export interface JobStore {
  /**
   * Records a pending job; with `parserRun` (a Workflow target) the document's parser_runs entry is
   * written in the same transaction, so a job is never recorded without its history line or the reverse.
   */
  insert(j: NewJob, parserRun?: Omit<NewParserRun, 'request_id'>): Promise<Job>;
  get(requestId: string): Promise<Job | undefined>;
  update(requestId: string, u: JobUpdate): Promise<void>;
  /** Moves a pending job to processing in one UPDATE; false when it was not pending (deleted, or taken already). */
  claim(requestId: string): Promise<boolean>;
  /** Jobs per status, every status present (0 when none); metrics read it at each scrape. */
  countByStatus(): Promise<Record<JobStatus, number>>;
  delete(requestId: string): Promise<boolean>;
  /** Jobs a crash or restart interrupted, oldest first, put back to pending. */
  requeueUnfinished(): Promise<string[]>;
  /** Pending jobs, oldest first, left as they are (on a shared queue JobsRuntime.start queues them again). */
  pendingIds(): Promise<string[]>;
  /** Completed jobs of a Workflow in an account created at or after `since` (spec timestamp), oldest first. */
  completedForTemplate(account: string, templateId: string, since: string): Promise<Job[]>;
}

export function createJobStore(sql: SqlExecutor): JobStore {
  const get = async (requestId: string) => {
    const r = await sql.get<Row>('SELECT * FROM jobs WHERE request_id = ?', [requestId]);
    return r && fromRow(r);
  };
  return {
    async insert(j, parserRun) {
      const now = specTimestamp();
      await sql.batch([
        {
          sql: `INSERT INTO jobs (request_id, account, document_id, template_id, template_title, template_type, classifier_id,
                  submitted_via, params, status, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
          params: [j.request_id, j.account, j.document_id, j.template_id, j.template_title ?? null, j.template_type ?? null, j.classifier_id, j.submitted_via, JSON.stringify(j.params), now, now],
        },
        ...(parserRun ? [insertParserRun({ ...parserRun, request_id: j.request_id })] : []),
      ]);
      return (await get(j.request_id))!;
    },
    get,
    async update(requestId, u) {
      const cols = Object.keys(u) as (keyof JobUpdate)[];
      const unknown = cols.filter((c) => !UPDATABLE.has(c));
      if (unknown.length) throw new Error(`job update: unknown column(s) ${unknown.join(', ')}`);
      const values = cols.map((c) => {
        const v = u[c];
        return c === 'result' || c === 'confidence_scores' ? (v === null ? null : JSON.stringify(v)) : (v as unknown);
      });
      const set = [...cols.map((c) => `${c} = ?`), 'updated_at = ?'].join(', ');
      await sql.run(`UPDATE jobs SET ${set} WHERE request_id = ?`, [...values, specTimestamp(), requestId]);
    },
    async claim(requestId) {
      return (await sql.run(`UPDATE jobs SET status = 'processing', updated_at = ? WHERE request_id = ? AND status = 'pending'`, [specTimestamp(), requestId])) === 1;
    },
    async countByStatus() {
      const counts: Record<JobStatus, number> = { pending: 0, processing: 0, completed: 0, failed: 0, exception: 0 };
      for (const r of await sql.all<{ status: JobStatus; n: number }>('SELECT status, COUNT(*) AS n FROM jobs GROUP BY status')) counts[r.status] = Number(r.n);
      return counts;
    },
    async delete(requestId) {
      return (await sql.run('DELETE FROM jobs WHERE request_id = ?', [requestId])) === 1;
    },
    async requeueUnfinished() {
      const [unfinished] = await sql.batch([
        { sql: `SELECT request_id FROM jobs WHERE status IN ('pending', 'processing') ORDER BY created_at` },
        { sql: `UPDATE jobs SET status = 'pending' WHERE status = 'processing'` },
      ]);
      return (unfinished!.rows as { request_id: string }[]).map((r) => r.request_id);
    },
    async pendingIds() {
      return (await sql.all<{ request_id: string }>(`SELECT request_id FROM jobs WHERE status = 'pending' ORDER BY created_at`)).map((r) => r.request_id);
    },
    async completedForTemplate(account, templateId, since) {
      const rows = await sql.all<Row>(
        `SELECT * FROM jobs WHERE account = ? AND template_id = ? AND status = 'completed' AND created_at >= ? ORDER BY created_at, request_id`,
        [account, templateId, since],
      );
      return rows.map(fromRow);
    },
  };
}
