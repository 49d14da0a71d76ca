// Per-document output names are `<input stem>-<request id>.<format>`: the request id is what keeps two
// inputs of the same name apart, so a long name must lose bytes of its stem, never of that suffix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeInputOutput } from '../../src/daemon/pipeline/outputs-writer.js';
import type { PipelineRule } from '../../src/daemon/pipeline/ports.js';
import type { InputRecord, InputResult } from '../../src/daemon/ledger/ledger.js';
import { configYaml, tempTree, writeConfig } from './pipeline-fixtures.js';

const rule: PipelineRule = {
  name: 'invoices',
  target: { kind: 'workflow', templateId: 't1', title: 'Invoices', workflows: new Map() },
  duplicates: 'process',
  afterSuccess: 'move',
};

function input(id: number, path: string, requestId: string): InputRecord & { result: InputResult } {
  return {
    id, rule: 'invoices', path, size: 1, mtimeMs: 0, sha256: String(id), state: 'extracted', documentId: 'd', requestId,
    result: { data: { total: String(id) }, fileName: basename(path), numPages: 1, templateId: null, classification: null, confidence: null },
    attempts: 0, nextAttemptAt: 0, lastError: null, finalPath: null, createdAt: Date.parse('2026-11-02T10:00:00Z'), updatedAt: 0,
  };
}

test('two inputs with the same long name get two outputs, each named with its request id and within 255 bytes', async () => {
  const tree = await tempTree();
  try {
    const { config } = await writeConfig(tree.root, configYaml({ root: tree.root, baseUrl: 'http://127.0.0.1:1', apiKey: 'k', rules: [{ layout: 'flat' }] }));
    const cfg = config.rules[0]!.output;
    // 196 bytes is where the suffix used to be cut off; 250 ASCII bytes and multi-byte names go past it.
    for (const stem of ['a'.repeat(196), 'b'.repeat(250), 'é'.repeat(120), '😀'.repeat(60)]) {
      const written = [
        await writeInputOutput(rule, cfg, input(1, join(tree.root, 'inbox', 'x', `${stem}.pdf`), 'aaaaaaaa-1111-4000-8000-000000000001')),
        await writeInputOutput(rule, cfg, input(2, join(tree.root, 'inbox', 'y', `${stem}.pdf`), 'bbbbbbbb-2222-4000-8000-000000000002')),
      ];
      assert.notEqual(written[0], written[1], `the second ${stem.slice(0, 3)}... input did not overwrite the first one's output`);
      assert.ok(basename(written[0]!).endsWith('-aaaaaaaa.csv'), basename(written[0]!));
      assert.ok(basename(written[1]!).endsWith('-bbbbbbbb.csv'), basename(written[1]!));
      for (const w of written) {
        assert.ok(Buffer.byteLength(basename(w)) <= 255, `${Buffer.byteLength(basename(w))} bytes`);
        assert.doesNotMatch(basename(w), /\uFFFD/, 'no character is split');
      }
    }
    assert.equal((await readdir(join(tree.root, 'outbox', 'invoices'))).length, 8);
  } finally {
    await tree.cleanup();
  }
});
