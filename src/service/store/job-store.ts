// SQLite store of extraction jobs (table `jobs`, migration 'jobs' in src/service/store/migrations.ts). One row per request_id;
// JSON columns hold the run parameters as sent and the engine's result.
import type { Database, Statement } from 'better-sqlite3';
import type { Chunk, RunParserParams } from '../../api/types.js';
import { specTimestamp } from '../../shared/time.js';


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

export class JobStore {
  // Prepared once per SQL text: preparing a statement cost more than running it on every poll.
  private readonly statements = new Map<string, Statement>();
  constructor(private readonly db: Database) {}

  private sql(text: string): Statement {
    let s = this.statements.get(text);
    if (!s) this.statements.set(text, (s = this.db.prepare(text)));
    return s;
  }

  insert(j: NewJob): Job {
    const now = specTimestamp();
    this.sql(
      `INSERT INTO jobs (request_id, account, document_id, template_id, template_title, template_type, classifier_id,
         submitted_via, params, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
    ).run(j.request_id, j.account, j.document_id, j.template_id, j.template_title ?? null, j.template_type ?? null, j.classifier_id, j.submitted_via, JSON.stringify(j.params), now, now);
    return this.get(j.request_id)!;
  }

  get(requestId: string): Job | undefined {
    const r = this.sql('SELECT * FROM jobs WHERE request_id = ?').get(requestId) as Row | undefined;
    return r && fromRow(r);
  }

  update(requestId: string, u: JobUpdate): void {
    const cols = Object.keys(u) as (keyof JobUpdate)[];
    const values = cols.map((c) => {
      const v = u[c];
      return c === 'result' || c === 'confidence_scores' ? (v === null ? null : JSON.stringify(v)) : (v as unknown);
    });
    const set = [...cols.map((c) => `${c} = ?`), 'updated_at = ?'].join(', ');
    this.sql(`UPDATE jobs SET ${set} WHERE request_id = ?`).run(...values, specTimestamp(), requestId);
  }

  /** Moves a pending job to processing; false when it was not pending (deleted, or taken already). */
  claim(requestId: string): boolean {
    const r = this.sql(`UPDATE jobs SET status = 'processing', updated_at = ? WHERE request_id = ? AND status = 'pending'`).run(specTimestamp(), requestId);
    return r.changes === 1;
  }

  /** Jobs per status, every status present (0 when none); metrics read it at each scrape. */
  countByStatus(): Record<JobStatus, number> {
    const counts: Record<JobStatus, number> = { pending: 0, processing: 0, completed: 0, failed: 0, exception: 0 };
    for (const r of this.sql('SELECT status, COUNT(*) AS n FROM jobs GROUP BY status').all() as { status: JobStatus; n: number }[]) counts[r.status] = r.n;
    return counts;
  }

  delete(requestId: string): boolean {
    return this.sql('DELETE FROM jobs WHERE request_id = ?').run(requestId).changes === 1;
  }

  /** Jobs a crash or restart interrupted, oldest first, put back to pending. */
  requeueUnfinished(): string[] {
    const ids = (this.sql(`SELECT request_id FROM jobs WHERE status IN ('pending', 'processing') ORDER BY created_at`).all() as { request_id: string }[]).map((r) => r.request_id);
    this.sql(`UPDATE jobs SET status = 'pending' WHERE status = 'processing'`).run();
    return ids;
  }

  /** Completed jobs of a Workflow in an account created at or after `since` (spec timestamp), oldest first. */
  completedForTemplate(account: string, templateId: string, since: string): Job[] {
    const rows = this.sql(`SELECT * FROM jobs WHERE account = ? AND template_id = ? AND status = 'completed' AND created_at >= ? ORDER BY created_at, request_id`)
      .all(account, templateId, since) as Row[];
    return rows.map(fromRow);
  }
}
