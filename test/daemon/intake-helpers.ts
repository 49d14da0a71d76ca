// Shared set-up of the intake tests: a temp folder, a config parsed from YAML, a log collector, and a
// bounded wait on conditions (no fixed sleeps, no timed assertions).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { parseConfig, type DaemonConfig } from '../../src/daemon/config/config.js';
import { startIntake, type Intake, type IntakeFile, type IntakeOptions } from '../../src/daemon/intake/folder/folder-intake.js';

export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

export function collectingLogger() {
  const lines: { level: number; msg: string; [k: string]: unknown }[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines, count: (re: RegExp) => lines.filter((l) => re.test(l.msg)).length };
}

export interface Harness {
  dir: string;
  config: DaemonConfig;
  files: { rule: string; file: IntakeFile }[];
  log: ReturnType<typeof collectingLogger>;
  intake: Intake;
  reported(path: string): number;
  close(): Promise<void>;
}

/** `rules` is the YAML of the rules list, with paths relative to the temp folder. */
export async function startHarness(
  rulesYaml: string,
  opts: Partial<Omit<IntakeOptions, 'logger' | 'onFile' | 'ignorePaths'>> & { onFile?: IntakeOptions['onFile']; setup?: (dir: string) => Promise<unknown> } = {},
): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-intake-'));
  await opts.setup?.(dir);
  const config = parseConfig(`rules:\n${rulesYaml}`, { baseDir: dir, env: {} });
  const files: Harness['files'] = [];
  const log = collectingLogger();
  const intake = await startIntake(config.rules, {
    logger: log.logger,
    ignorePaths: config.ignore_paths,
    rescanIntervalMs: opts.rescanIntervalMs ?? 60_000,
    folderCheckMs: opts.folderCheckMs ?? 50,
    watch: opts.watch,
    scheduler: opts.scheduler,
    onFile: async (rule, file) => {
      files.push({ rule: rule.name, file });
      await opts.onFile?.(rule, file);
    },
  });
  return {
    dir,
    config,
    files,
    log,
    intake,
    reported: (path) => files.filter((f) => f.file.path === path).length,
    async close() {
      await intake.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
