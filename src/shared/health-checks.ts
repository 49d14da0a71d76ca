// Readiness as a list of named checks, shared by the daemon's health listener and `docdrop serve`: each
// check runs with a time limit, and the report names every check and what failed, so an operator reading
// /readyz (or the docdrop_readiness_check metric) sees why, not only that, it is unready.

export interface ReadinessCheck {
  /** Stable name, e.g. `ledger_writable`, `folder:invoices` (also the metric label). */
  name: string;
  /** Resolves when the check passes; throws (or rejects) with the reason otherwise. */
  run(): Promise<void>;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  /** Why it failed; absent when it passed. */
  error?: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: CheckResult[];
  /** Names of the failed checks, for the one-line summary. */
  failed: string[];
}

/** Runs every check at once, each bounded by `timeoutMs` (a hung check counts as failed). */
export async function runChecks(checks: readonly ReadinessCheck[], timeoutMs: number): Promise<ReadinessReport> {
  const results = await Promise.all(checks.map((c) => runOne(c, timeoutMs)));
  const failed = results.filter((r) => !r.ok).map((r) => r.name);
  return { ready: failed.length === 0, checks: results, failed };
}

async function runOne(check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([check.run(), timeout]);
    return { name: check.name, ok: true };
  } catch (err) {
    return { name: check.name, ok: false, error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Shares one run among concurrent callers (a probe and a scrape arriving together run the checks once),
 * and reuses the last report for `reuseMs`, so a tight probe loop cannot hammer the service or the disk.
 */
export function sharedReadiness(run: () => Promise<ReadinessReport>, reuseMs: number, now: () => number = Date.now): () => Promise<ReadinessReport> {
  let inFlight: Promise<ReadinessReport> | null = null;
  let last: { at: number; report: ReadinessReport } | null = null;
  return () => {
    if (last && now() - last.at < reuseMs) return Promise.resolve(last.report);
    inFlight ??= run()
      .then((report) => {
        last = { at: now(), report };
        return report;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
}

/** The /readyz body: `{status, checks: {name: "ok" | error}, failed}`; the status line is 200 or 503. */
export function readinessBody(report: ReadinessReport): { status: 'ready' | 'unready'; checks: Record<string, string>; failed: string[] } {
  return {
    status: report.ready ? 'ready' : 'unready',
    checks: Object.fromEntries(report.checks.map((c) => [c.name, c.ok ? 'ok' : `failed: ${c.error ?? 'unknown'}`])),
    failed: report.failed,
  };
}
