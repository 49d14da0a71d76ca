// Starts `docdrop run` as a child process for the benches (from dist/ when built, else through tsx)
// and resolves once it logged "daemon started", so figures cover the daemon as it is deployed.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '..');

export interface DaemonProcess {
  child: ChildProcess;
  pid: number;
  via: 'tsx' | 'dist';
  /** The tail of the daemon's stderr (JSON log lines). */
  log(): string;
  exited: Promise<void>;
}

/** Node arguments that run the docdrop CLI: the built one, or the sources through tsx. */
export function docdropCli(tsx = false): string[] {
  const dist = join(REPO, 'dist/src/cli/main.js');
  return tsx || !existsSync(dist) ? ['--import', 'tsx', join(REPO, 'src/cli/main.ts')] : [dist];
}

/** Peak resident set size of a process in kB (VmHWM), NaN when it is gone. */
export async function vmHwmKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

export async function startDaemonProcess(configPath: string, opts: { tsx?: boolean; nodeFlags?: string[] } = {}): Promise<DaemonProcess> {
  const cli = docdropCli(opts.tsx);
  const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), ...cli, 'run', '--config', configPath], {
    cwd: REPO,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // The last ~200 KB of stderr as chunks: re-slicing one string per chunk cost the bench process
  // (which also runs the service) half a millisecond per file.
  const chunks: string[] = [];
  let kept = 0;
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (c: string) => {
    chunks.push(c);
    kept += c.length;
    while (kept - chunks[0]!.length > 200_000) kept -= chunks.shift()!.length;
  });
  const log = () => chunks.join('');
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  while (!log().includes('"daemon started"')) {
    if (child.exitCode !== null) throw new Error(`daemon exited:\n${log()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, pid: child.pid!, via: cli[0] === '--import' ? 'tsx' : 'dist', log, exited };
}
