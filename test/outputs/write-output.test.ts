import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sidecarPath, writeGroupedOutput, writeOutputFile, type OutputSpec } from '../../src/outputs/write-output.js';
import { readXlsxTable } from '../../src/outputs/xlsx.js';
import { invoiceFields, invoiceRecord } from './fixtures-workflow.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docdrop-write-output-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lineItemsCsv: OutputSpec = {
  format: 'csv',
  fields: invoiceFields,
  layout: 'line_items',
  mergeField: 'line_items',
  includeRequestId: true,
};

test('writes one document per file with a sanitised name and the format extension', async () => {
  const out = path.join(dir, 'per-doc', 'nested');
  const file = await writeOutputFile({ ...lineItemsCsv, dir: out, baseName: '../inv 001', records: [invoiceRecord()] });
  assert.equal(file, path.join(out, 'inv 001.csv'));
  const lines = (await readFile(file, 'utf8')).trimEnd().split('\r\n');
  assert.equal(lines.length, 3, 'header and two line items');
  assert.match(lines[1]!, /^11111111-1111-4111-8111-111111111111,INV-001,2024-03-05,"ACME, Inc.",Widget,2,1234.5,1244.5$/);
});

test('per-document replace is idempotent and unique never overwrites', async () => {
  const out = path.join(dir, 'per-doc-2');
  const opts = { ...lineItemsCsv, dir: out, baseName: 'inv', records: [invoiceRecord()] };
  const a = await writeOutputFile(opts);
  const b = await writeOutputFile(opts);
  assert.equal(a, b);
  const c = await writeOutputFile({ ...opts, onExisting: 'unique' });
  assert.equal(c, path.join(out, 'inv (1).csv'));
  assert.deepEqual((await readdir(out)).sort(), ['inv (1).csv', 'inv.csv']);
});

test('an output folder deleted while the daemon runs is made again on the next write', async () => {
  const out = path.join(dir, 'deleted-later');
  const opts = { ...lineItemsCsv, dir: out, baseName: 'inv', records: [invoiceRecord()] };
  await writeOutputFile(opts);
  await rm(out, { recursive: true });
  assert.equal(await writeOutputFile({ ...opts, onExisting: 'unique' }), path.join(out, 'inv.csv'));
  assert.deepEqual(await readdir(out), ['inv.csv']);
});

test('writes JSON records in a stable key order', async () => {
  const file = await writeOutputFile({
    ...lineItemsCsv,
    format: 'json',
    dir: path.join(dir, 'json'),
    baseName: 'inv',
    records: [invoiceRecord({ data: { total: 1, zeta: true, alpha: { b: 1, a: 2 }, invoice_number: 'X' } })],
  });
  const text = await readFile(file, 'utf8');
  assert.deepEqual(Object.keys(JSON.parse(text)[0].data), ['invoice_number', 'total', 'alpha', 'zeta']);
  assert.ok(text.indexOf('"a": 2') < text.indexOf('"b": 1'));
});

test('a daily group written twice for the same request id holds its rows once', async () => {
  const out = path.join(dir, 'daily');
  const spec = { ...lineItemsCsv, dir: out, baseName: '2024-03-05' };
  const first = invoiceRecord();
  const second = invoiceRecord({ requestId: 'r-2', fileName: 'inv-002.pdf', data: { invoice_number: 'INV-002' } });
  await writeGroupedOutput({ ...spec, record: first });
  await writeGroupedOutput({ ...spec, record: second });
  const file = await writeGroupedOutput({ ...spec, record: first }); // the daemon repeating after a crash
  const lines = (await readFile(file, 'utf8')).trimEnd().split('\r\n');
  assert.equal(lines.length, 1 + 2 + 1, 'header, two line items of INV-001, one row of INV-002');
  assert.equal(lines.filter((l) => l.includes('INV-001')).length, 2);
  assert.deepEqual(await readdir(out).then((f) => f.sort()), ['.2024-03-05.csv.records.json', '2024-03-05.csv']);

  // A corrected result for the same request replaces its rows in place.
  await writeGroupedOutput({ ...spec, record: invoiceRecord({ data: { invoice_number: 'INV-001-FIXED' } }) });
  const fixed = (await readFile(file, 'utf8')).trimEnd().split('\r\n');
  assert.equal(fixed.length, 3);
  assert.match(fixed[1]!, /INV-001-FIXED/);
  assert.match(fixed[2]!, /INV-002/);
});

test('concurrent grouped writes to one file lose nothing', async () => {
  const out = path.join(dir, 'daily-concurrent');
  const spec = { ...lineItemsCsv, format: 'xlsx' as const, layout: 'flat' as const, dir: out, baseName: 'day' };
  const ids = Array.from({ length: 25 }, (_, i) => `req-${i}`);
  await Promise.all(ids.map((requestId) => writeGroupedOutput({ ...spec, record: invoiceRecord({ requestId }) })));
  const [sheet] = await readXlsxTable(path.join(out, 'day.xlsx'));
  assert.deepEqual(sheet!.rows.map((r) => r[0]).sort(), [...ids].sort());
  const side = JSON.parse(await readFile(sidecarPath(path.join(out, 'day.xlsx')), 'utf8'));
  assert.equal(side.records.length, 25);
});

test('a group file found without its record list is kept aside, not overwritten', async () => {
  const out = path.join(dir, 'daily-orphan');
  await writeOutputFile({ ...lineItemsCsv, dir: out, baseName: 'day', records: [] });
  await writeFile(path.join(out, 'day.csv'), 'made by hand\r\n');
  await writeGroupedOutput({ ...lineItemsCsv, dir: out, baseName: 'day', record: invoiceRecord() });
  assert.equal(await readFile(path.join(out, 'day (1).csv'), 'utf8'), 'made by hand\r\n');
  assert.match(await readFile(path.join(out, 'day.csv'), 'utf8'), /INV-001/);
});

test('a group file that lags its record list (crash between the two writes) is regenerated whole', async () => {
  const out = path.join(dir, 'daily-crash');
  const spec = { ...lineItemsCsv, dir: out, baseName: 'day' };
  const file = await writeGroupedOutput({ ...spec, record: invoiceRecord() });
  const before = await readFile(file, 'utf8');
  // Simulate the crash: the record list already holds a second record, the CSV does not.
  const side = JSON.parse(await readFile(sidecarPath(file), 'utf8'));
  side.records.push(invoiceRecord({ requestId: 'r-crash', data: { invoice_number: 'INV-CRASH' } }));
  await writeFile(sidecarPath(file), JSON.stringify(side));
  assert.equal(await readFile(file, 'utf8'), before);
  // The daemon repeats the interrupted write.
  await writeGroupedOutput({ ...spec, record: invoiceRecord({ requestId: 'r-crash', data: { invoice_number: 'INV-CRASH' } }) });
  const lines = (await readFile(file, 'utf8')).trimEnd().split('\r\n');
  assert.equal(lines.filter((l) => l.includes('INV-CRASH')).length, 1);
  assert.equal(lines.filter((l) => l.includes('INV-001')).length, 2);
});

test('a damaged record list stops the write with a message naming the file', async () => {
  const out = path.join(dir, 'daily-damaged');
  const spec = { ...lineItemsCsv, dir: out, baseName: 'day' };
  const file = await writeGroupedOutput({ ...spec, record: invoiceRecord() });
  await writeFile(sidecarPath(file), '{"version":1,"rec');
  await assert.rejects(
    writeGroupedOutput({ ...spec, record: invoiceRecord({ requestId: 'r-x' }) }),
    (err: Error) => err.message.includes(sidecarPath(file)) && /not valid JSON/.test(err.message),
  );
});
