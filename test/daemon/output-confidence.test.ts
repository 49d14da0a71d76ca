// rules[].output.confidence: the daemon writes a <field>_confidence column after each field from the
// job's field_confidence; off by default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
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

function input(path: string, fieldConfidence: Record<string, number> | null): InputRecord & { result: InputResult } {
  return {
    id: 1, rule: 'invoices', path, size: 1, mtimeMs: 0, sha256: '1', state: 'extracted', documentId: 'd', requestId: 'aaaaaaaa-1111-4000-8000-000000000001',
    result: { data: { invoice_number: 'N-1', total: 12.5 }, fileName: basename(path), numPages: 1, templateId: null, classification: null, confidence: null, fieldConfidence },
    attempts: 0, nextAttemptAt: 0, lastError: null, finalPath: null, createdAt: Date.parse('2026-11-02T10:00:00Z'), updatedAt: 0,
  };
}

test('output.confidence: true adds <field>_confidence columns; the default has none', async () => {
  const tree = await tempTree();
  try {
    const yaml = configYaml({ root: tree.root, baseUrl: 'http://127.0.0.1:1', apiKey: 'k', rules: [{ layout: 'flat' }] });
    const off = (await writeConfig(tree.root, yaml)).config.rules[0]!.output;
    assert.equal(off.confidence, false);
    const on = (await writeConfig(tree.root, yaml.replace('group: per_document', 'group: per_document\n      confidence: true'))).config.rules[0]!.output;
    assert.equal(on.confidence, true);
    const scored = await writeInputOutput(rule, on, input(join(tree.root, 'inbox', 'a.pdf'), { invoice_number: 0.9, total: 0.35 }));
    assert.deepEqual((await readFile(scored, 'utf8')).trimEnd().split('\r\n'), [
      'file_name,request_id,invoice_number,invoice_number_confidence,total,total_confidence',
      'a.pdf,aaaaaaaa-1111-4000-8000-000000000001,N-1,0.9,12.5,0.35',
    ]);
    const plain = await writeInputOutput(rule, off, input(join(tree.root, 'inbox', 'b.pdf'), { invoice_number: 0.9, total: 0.35 }));
    assert.doesNotMatch(await readFile(plain, 'utf8'), /_confidence/);
  } finally {
    await tree.cleanup();
  }
});
