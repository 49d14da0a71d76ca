// What `docdrop process` shows while files finish: a progress bar on a terminal (cli-progress, on
// stderr so stdout stays clean), one line per file as it finishes otherwise, or JSON lines for scripts.
// Every mode ends with one line per failed file (or its JSON) so the exit code has its reasons beside it.
import cliProgress from 'cli-progress';
import type { OneShotResult } from '../daemon/pipeline/oneshot.js';

export type ProgressMode = 'bar' | 'lines' | 'json';

export interface ProgressReporter {
  fileDone(r: OneShotResult): void;
  /** Ends the display; returns the number of failed files. */
  finish(results: readonly OneShotResult[]): number;
}

export interface ProgressStreams {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream & { isTTY?: boolean };
}

/** The bar only when stderr is a terminal; --json wins over both. */
export function progressModeFor(json: boolean, err: { isTTY?: boolean }): ProgressMode {
  if (json) return 'json';
  return err.isTTY ? 'bar' : 'lines';
}

export function createProgressReporter(mode: ProgressMode, total: number, streams: ProgressStreams, now: () => number = Date.now): ProgressReporter {
  const started = now();
  const seconds = () => (now() - started) / 1000;
  const failedLine = (r: OneShotResult) => `failed  ${r.path}: ${r.error}\n`;
  const summary = (failed: number) => (failed > 0 ? `${failed} of ${total} file(s) failed\n` : '');

  if (mode === 'json') {
    return {
      fileDone: (r) => streams.out.write(`${JSON.stringify({ type: 'file', path: r.path, ok: r.ok, outputs: r.outputs, error: r.error, request_id: r.requestId })}\n`),
      finish: (results) => {
        const failed = results.filter((r) => !r.ok).length;
        streams.out.write(`${JSON.stringify({ type: 'summary', total, ok: total - failed, failed, seconds: Math.round(seconds() * 1000) / 1000 })}\n`);
        return failed;
      },
    };
  }

  if (mode === 'lines') {
    return {
      fileDone: (r) => (r.ok ? streams.out.write(`ok      ${r.path} -> ${r.outputs.join(', ')}\n`) : streams.err.write(failedLine(r))),
      finish: (results) => {
        const failed = results.filter((r) => !r.ok).length;
        streams.err.write(summary(failed));
        return failed;
      },
    };
  }

  const bar = new cliProgress.SingleBar(
    {
      stream: streams.err,
      format: 'processing {bar} {value}/{total} | ok {ok} failed {failed} | {rate}/s | ETA {eta_formatted}',
      hideCursor: true,
      etaBuffer: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  let ok = 0;
  let failed = 0;
  const payload = () => {
    const s = seconds();
    return { ok, failed, rate: s > 0 ? ((ok + failed) / s).toFixed(2) : '0.00' };
  };
  bar.start(total, 0, payload());
  return {
    fileDone: (r) => {
      if (r.ok) ok++;
      else failed++;
      bar.update(ok + failed, payload());
    },
    finish: (results) => {
      bar.update(ok + failed, payload());
      bar.stop();
      const failures = results.filter((r) => !r.ok);
      for (const r of failures) streams.err.write(failedLine(r));
      streams.err.write(`${results.length - failures.length} ok, ${failures.length} failed in ${seconds().toFixed(1)} s\n`);
      return failures.length;
    },
  };
}
