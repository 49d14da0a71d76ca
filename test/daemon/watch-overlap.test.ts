// Rules whose folders overlap are refused at start, naming both rules, unless their globs split the files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../src/daemon/config/config.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { findWatchOverlaps } from '../../src/daemon/intake/folder/overlap.js';
import { silentLogger } from '../../src/shared/logger.js';

const BASE = '/srv/docdrop';

function overlaps(...rules: string[]): string[] {
  const config = parseConfig(`rules:\n${rules.map((r, i) => `  - { name: r${i + 1}, workflow: W, ${r} }`).join('\n')}`, { baseDir: BASE, env: {} });
  return findWatchOverlaps(config.rules, config.ignore_paths);
}

test('two rules on the same folder are refused, naming both', () => {
  const problems = overlaps('watch: ./in', 'watch: ./in/');
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /rules "r1" and "r2" would both take files .*both watch \/srv\/docdrop\/in.*processed twice/);
});

test('a folder nested in a recursive rule\'s folder is refused, with the exclude that would fix it', () => {
  const problems = overlaps('watch: ./in', 'watch: ./in/scans/new');
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /"r1" and "r2".*\/srv\/docdrop\/in\/scans\/new is inside \/srv\/docdrop\/in.*exclude: \["scans\/new\/\*\*"\]/);
});

test('globs that split the files, an excluded inner folder or a non-recursive outer rule are accepted', () => {
  assert.deepEqual(overlaps('watch: ./in, include: ["**/*.pdf"]', 'watch: ./in, include: ["**/*.jpg", "**/*.png"]'), []);
  assert.deepEqual(overlaps('watch: ./in, exclude: ["**/*.pdf"]', 'watch: ./in, include: ["**/*.pdf"]'), []);
  assert.deepEqual(overlaps('watch: ./in, include: ["invoices/**"]', 'watch: ./in, include: ["receipts/**"]'), []);
  assert.deepEqual(overlaps('watch: ./in, exclude: ["scans/**"]', 'watch: ./in/scans'), []);
  assert.deepEqual(overlaps('watch: ./in, recursive: false', 'watch: ./in/scans'), []);
  assert.deepEqual(overlaps('watch: ./in', 'watch: ./inbox'), [], 'a sibling with a longer name is not inside');
});

test('globs that still share some files are refused', () => {
  assert.equal(overlaps('watch: ./in, include: ["**/*.pdf"]', 'watch: ./in, include: ["**/*"]').length, 1);
  assert.equal(overlaps('watch: ./in, include: ["scans/**/*.pdf"]', 'watch: ./in/scans').length, 1);
  assert.equal(overlaps('watch: ./in, exclude: ["other/**"]', 'watch: ./in/scans').length, 1);
});

test('the daemon refuses to start with overlapping rules before it touches the service or the ledger', async () => {
  const config = parseConfig(
    'service: { base_url: "http://127.0.0.1:9", api_key: k }\nstate: { path: /nonexistent/docdrop/state.db }\n' +
      'rules:\n  - { name: a, watch: /nonexistent/in, workflow: W }\n  - { name: b, watch: /nonexistent/in, workflow: W }',
    { baseDir: BASE, env: {} },
  );
  await assert.rejects(startDaemon(config, { logger: silentLogger }), /overlapping watched folders:\n {2}- rules "a" and "b"/);
});
