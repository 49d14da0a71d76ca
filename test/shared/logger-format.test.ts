// Logs as JSON lines (journald) or human-readable (a terminal, or --log-format pretty); secrets are
// redacted in both, since pino redacts before a line reaches either format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createLogger, logFormatFor, parseLogFormat } from '../../src/shared/logger.js';
import { REPO } from '../helpers/cli.js';

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString()));
  return { stream, text: () => text };
}

test('both formats redact secrets; pretty lines are not JSON', () => {
  for (const format of ['json', 'pretty'] as const) {
    const out = capture();
    const logger = createLogger({ level: 'info', destination: out.stream, format });
    logger.info({ api_key: 'sk-secret-1', mailbox: { password: 'pw-secret-2' }, headers: { 'x-api-key': 'sk-secret-3' }, path: '/in/a.pdf' }, 'uploaded');
    logger.flush();
    const text = out.text();
    assert.match(text, /uploaded/, format);
    assert.match(text, /\/in\/a\.pdf/, format);
    for (const secret of ['sk-secret-1', 'pw-secret-2', 'sk-secret-3']) assert.ok(!text.includes(secret), `${format} leaks ${secret}: ${text}`);
    assert.match(text, /\[redacted\]/);
    if (format === 'json') assert.doesNotThrow(() => JSON.parse(text.trim()));
    else assert.throws(() => JSON.parse(text.trim().split('\n')[0]!), SyntaxError);
  }
});

test('the format defaults to pretty on a terminal and JSON lines elsewhere; a bad --log-format is named', () => {
  assert.equal(logFormatFor(undefined, { isTTY: true }), 'pretty');
  assert.equal(logFormatFor(undefined, {}), 'json');
  assert.equal(logFormatFor('json', { isTTY: true }), 'json');
  assert.equal(parseLogFormat(undefined), undefined);
  assert.equal(parseLogFormat('pretty'), 'pretty');
  assert.throws(() => parseLogFormat('xml'), /--log-format: expected one of json, pretty, received "xml"/);
});

test('`docdrop serve --log-format pretty` logs readable lines, without its key', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-pretty-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--data-dir', dir, '--log-format', 'pretty'], {
    cwd: REPO,
    env: { ...process.env, DOCDROP_API_KEYS: 'serve-secret-key' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (c: Buffer) => {
        stderr += c.toString();
        if (/docdrop serve listening at/.test(stderr)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
    const line = stderr.split('\n').find((l) => l.includes('docdrop serve listening at'))!;
    assert.match(line, /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] INFO \(docdrop-serve\): docdrop serve listening at http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(!stderr.includes('serve-secret-key'));
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  }
});
