// The field_confidence job extension and the Workflow's confidence_threshold: a required field found
// with a confidence under the threshold makes has_missing_required_fields true.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client.js';
import { jobOutcome } from '../../src/api/job-status.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { invoicePdf, pdfOf, writeFixture } from '../helpers/job-fixtures.js';

let svc: TestService;
let client: ServiceClient;
let clearDoc: string;
let vagueDoc: string;
const idle = () => svc.service.context.jobs.idle();

const FIELDS = [
  { name: 'invoice_number', type: 'text' as const, required: true },
  { name: 'invoice_date', type: 'date' as const, required: true },
  { name: 'total_due', description: 'total amount due', type: 'number' as const },
  { name: 'purchase_order', type: 'text' as const },
];

before(async () => {
  svc = await startTestService();
  // The first upload starts the PDF workers, slow on a loaded machine.
  client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false, timeoutMs: 120_000 });
  clearDoc = (await client.uploadDocument(await writeFixture(svc.dataDir, 'clear.pdf', await invoicePdf({ number: 'INV-2001', total: '99.00', date: '2026-10-01' })))).document_id;
  // No "date" label: the date is found by the layout rule only, a weaker choice.
  const vague = await pdfOf([[[50, 60, 'Wren & Sons Ltd'], [50, 80, '3/4/2026'], [50, 120, 'Invoice Number: W-77'], [50, 160, 'Total Due: 12.00']]]);
  vagueDoc = (await client.uploadDocument(await writeFixture(svc.dataDir, 'vague.pdf', vague))).document_id;
});
after(() => svc.close());

async function run(documentId: string, threshold?: number) {
  const t = await client.createTemplate({
    template_title: `conf ${documentId.slice(0, 6)} ${threshold ?? 'default'}`,
    template_type: 'invoice',
    template_schema: { fields: FIELDS },
    ...(threshold !== undefined ? { parser_config: { confidence_threshold: threshold } } : {}),
  });
  const job = await client.runParser(documentId, { template_id: t.template_id });
  assert.equal(job.field_confidence, null, 'null while the job is pending');
  await idle();
  return client.getJob(job.request_id);
}

test('a completed job carries field_confidence per field: clear labelled values score high, a field not found scores 0', async () => {
  const done = await run(clearDoc);
  assert.equal(done.request_status, 'completed');
  const c = done.field_confidence!;
  assert.deepEqual(Object.keys(c).sort(), ['invoice_date', 'invoice_number', 'purchase_order', 'total_due']);
  assert.ok(c.invoice_number >= 0.7 && c.invoice_date >= 0.7 && c.total_due >= 0.7, JSON.stringify(c));
  assert.equal(c.purchase_order, 0);
  assert.equal(done.response_body?.has_missing_required_fields, false);
  // The client reads it for the daemon's outputs.
  assert.deepEqual(jobOutcome(done).fieldConfidence, c);
});

test('a required field found only by a weak rule counts as missing under the default threshold, not with threshold 0', async () => {
  const weak = await run(vagueDoc);
  assert.equal(weak.response_body?.result_json_data?.invoice_date, '2026-04-03');
  assert.ok(weak.field_confidence!.invoice_date < 0.5, JSON.stringify(weak.field_confidence));
  assert.equal(weak.response_body?.has_missing_required_fields, true);
  const off = await run(vagueDoc, 0);
  assert.equal(off.response_body?.has_missing_required_fields, false);
  // A strict threshold flags even clear values.
  const strict = await run(clearDoc, 0.99);
  assert.equal(strict.response_body?.has_missing_required_fields, true);
});

test('confidence_threshold outside 0..1 is refused with a message naming the range', async () => {
  await assert.rejects(
    client.createTemplate({ template_title: 'bad threshold', template_type: 'invoice', template_schema: { fields: FIELDS }, parser_config: { confidence_threshold: 2 } }),
    (err: Error) => /0\.0 to 1\.0/.test(err.message),
  );
});
