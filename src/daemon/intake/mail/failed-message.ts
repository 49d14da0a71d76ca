// A message docdrop will not process is kept as <name>.eml in the rule's failed folder, with the reason
// beside it like any failed input.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RuleConfig } from '../../config/config.js';
import { moveToFailed } from '../../inputs/disposition.js';
import { sha256File } from '../../inputs/inspect-file.js';
import type { DocdropCode } from '../../../shared/errors.js';
import type { Logger } from '../../../shared/logger.js';

export interface FailedMessageTarget {
  rule: Pick<RuleConfig, 'name' | 'watch' | 'after'>;
  /** The daemon's own folder where the .eml is written on its way to the failed folder. */
  workDir: string;
  log: Logger;
}

export async function keepMessageAsFailed(
  o: FailedMessageTarget,
  source: Buffer,
  name: string,
  message: string,
  reason: DocdropCode,
  meta: Record<string, unknown>,
): Promise<void> {
  await mkdir(o.workDir, { recursive: true });
  const path = join(o.workDir, name);
  await writeFile(path, source);
  try {
    const dest = await moveToFailed(o.rule, { path, size: source.length, sha256: await sha256File(path) }, { message, reason });
    o.log.warn({ ...meta, path: dest }, `mail not processed: ${message}`);
  } finally {
    await rm(path, { force: true });
  }
}
