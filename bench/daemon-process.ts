// Starts `docdrop run` or `docdrop serve` as a child process for the benches (from dist/ when built,
// else through tsx) and resolves once it is up, so figures cover the process as it is deployed.
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

/**
 * The node flags of ExecStart= and the Environment= variables of systemd/docdrop.service, read from the
 * unit itself so that a bench runs the service the way the unit does and cannot drift from it.
 */
export async function unitRuntime(): Promise<{ nodeFlags: string[]; env: Record<string, string> }> {
  const unit = await readFile(join(REPO, 'systemd/docdrop.service'), 'utf8');
  const exec = /^ExecStart=\S*node((?:\s+--\S+)*)\s/m.exec(unit);
  if (!exec) throw new Error('systemd/docdrop.service: no ExecStart=/usr/bin/node ... line');
  const env = Object.fromEntries([...unit.matchAll(/^Environment=([A-Za-z_]\w*)=(\S*)$/gm)].map((m) => [m[1]!, m[2]!]));
  return { nodeFlags: exec[1]!.trim().split(/\s+/).filter(Boolean), env };
}

export interface ServeProcess extends DaemonProcess {
  url: string;
}

/** `docdrop serve` on 127.0.0.1, any free port; resolves with its URL once it listens. */
export async function startServeProcess(
  dataDir: string,
  apiKey: string,
  opts: { tsx?: boolean; nodeFlags?: string[]; env?: Record<string, string>; /** More `docdrop serve` flags. */ args?: string[] } = {},
): Promise<ServeProcess> {
  const p = await startProcess(['serve', '--port', '0', '--data-dir', dataDir, ...(opts.args ?? [])], /"url":"([^"]+)"/, {
    ...opts,
    // The key through the environment: it stays out of `ps`.
    env: { ...opts.env, DOCDROP_API_KEYS: apiKey },
  });
  return { ...p, url: p.ready[1]! };
}

export async function startDaemonProcess(
  configPath: string,
  opts: { tsx?: boolean; nodeFlags?: string[]; env?: Record<string, string> } = {},
): Promise<DaemonProcess> {
  const { ready: _, ...p } = await startProcess(['run', '--config', configPath], /"daemon started"/, opts);
  return p;
}

async function startProcess(
  args: string[],
  readyLine: RegExp,
  opts: { tsx?: boolean; nodeFlags?: string[]; env?: Record<string, string> },
): Promise<DaemonProcess & { ready: RegExpExecArray }> {
  const cli = docdropCli(opts.tsx);
  const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), ...cli, ...args], {
    cwd: REPO,
    env: { ...process.env, ...opts.env },
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
  let ready: RegExpExecArray | null;
  while (!(ready = readyLine.exec(log()))) {
    if (child.exitCode !== null) throw new Error(`docdrop ${args[0]} exited:\n${log()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, pid: child.pid!, via: cli[0] === '--import' ? 'tsx' : 'dist', log, exited, ready };
}
