// The problems a config text is refused with (parseConfig under a fixed base folder); fails when it is accepted.
import assert from 'node:assert/strict';
import { ConfigError, parseConfig } from '../../src/daemon/config/config.js';

export const BASE = '/srv/docdrop/config';

export function problems(yaml: string, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    parseConfig(yaml, { baseDir: BASE, env });
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected ConfigError, got ${String(err)}`);
    return err.problems;
  }
  assert.fail('expected the config to be rejected');
}
