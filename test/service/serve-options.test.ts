// `docdrop serve`'s options are written once, in SERVE_OPTIONS: the CLI's flags and help, the defaults
// of a service started in-process, and README's option table all come out of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import yargs from 'yargs';
import { serveOptions, toServiceOptions } from '../../src/cli/serve-command.js';
import { resolveOptions, SERVE_OPTIONS, type ServeOptionSpec } from '../../src/service/serve-options.js';

const options = Object.entries(SERVE_OPTIONS) as [string, ServeOptionSpec][];

/** Each flag's block of `docdrop serve --help`: from its line to the next flag's. */
function helpBlocks(): Map<string, string> {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--help'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '200' } });
  assert.equal(r.status, 0, r.stderr);
  const blocks = new Map<string, string>();
  for (const block of r.stdout.split(/\n(?= {2}--)/)) {
    const m = /^ {2}--([a-z0-9-]+)/.exec(block);
    if (m) blocks.set(m[1], block.replace(/\s+/g, ' '));
  }
  return blocks;
}

test('`docdrop serve --help` lists every schema option with its type, default or required mark, and help text', () => {
  const blocks = helpBlocks();
  for (const [flag, o] of options) {
    const block = blocks.get(flag);
    assert.ok(block, `--${flag} is missing from the help`);
    assert.ok(block.includes(`[${o.array ? 'array' : o.type}]`), `--${flag}: ${block}`);
    if (o.default !== undefined) assert.ok(block.includes(`[default: ${JSON.stringify(o.default)}]`), `--${flag} should show its default: ${block}`);
    else assert.doesNotMatch(block, /\[default:/, `--${flag} has no default`);
    if (o.required) assert.match(block, /\[required\]/);
    assert.ok(block.includes(o.describe.split(' ').slice(0, 3).join(' ')), `--${flag} help text: ${block}`);
  }
  const extra = [...blocks.keys()].filter((f) => !(f in SERVE_OPTIONS) && f !== 'help' && f !== 'version');
  assert.deepEqual(extra, [], 'every serve flag comes from SERVE_OPTIONS');
});

test('a service started in-process gets the same defaults as `docdrop serve` without flags', async () => {
  const argv = await yargs(['--data-dir', '/tmp/unused', '--api-key', 'k']).options(serveOptions).parse();
  const fromCli = resolveOptions(toServiceOptions(argv as never, undefined));
  const inProcess = resolveOptions({ port: SERVE_OPTIONS.port.default, dataDir: '/tmp/unused', apiKeys: ['k'] });
  for (const key of ['host', 'port', 'presignTtlSeconds', 'maxUploadBytes', 'inboundDomain', 'jobConcurrency', 'headersTimeoutMs', 'idleTimeoutMs', 'bodyTimeoutMs', 'maxConnectionsPerIp'] as const) {
    assert.equal(inProcess[key], fromCli[key], key);
  }
  assert.equal(inProcess.host, SERVE_OPTIONS.host.default);
  assert.equal(inProcess.maxUploadBytes, SERVE_OPTIONS['max-upload-mb'].default * 1024 * 1024);
});

test("README's `docdrop serve` table names every schema option with its default", () => {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('### `docdrop serve`'), readme.indexOf('## Configuration'));
  const rows = section.split('\n').filter((l) => l.startsWith('| `--'));
  for (const [flag, o] of options) {
    const flagRe = new RegExp('`--' + flag + '(?![a-z0-9-])[^`]*`');
    const row = rows.find((r) => flagRe.test(r));
    assert.ok(row, `README has no row for --${flag}`);
    if (o.default === undefined || o.default === false) continue;
    const [names, shown] = row.split(' | ').map((c) => c.replace(/^\| /, '').trim());
    // One flag per row: the default column; several: "(default)" after the flag.
    const ok = names.includes('`, `') ? new RegExp(flagRe.source + ' \\(' + String(o.default) + '\\)').test(names) : shown.replace(/`/g, '') === String(o.default);
    assert.ok(ok, `README shows another default for --${flag} than ${String(o.default)}: ${row}`);
  }
});
