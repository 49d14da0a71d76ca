import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/api-error.js';
import { isFinal, jobOutcome, normaliseStatus } from '../../src/api/job-status.js';
import type { ExtractionJob, ResponseBody } from '../../src/api/types.js';

const base: ExtractionJob = {
  request_id: 'r1',
  request_status: 'pending',
  classification: null,
  confidence_scores: null,
  classify_credits: 0,
  credits_used: 0,
  total_credits: 0,
  created_at: '2026-01-01T00:00:00.000000',
  updated_at: '2026-01-01T00:00:00.000000',
};

const responseBody: ResponseBody = {
  file_name: 'inv.pdf',
  file_presigned_url: null,
  user_error_msg: null,
  template_id: 'tpl-1',
  template_type: 'invoice',
  template_title: 'Invoices',
  num_pages: 3,
  human_verification_status: 'pending',
  has_missing_required_fields: false,
  result_json_data: null,
};

test('normaliseStatus maps every synonym of the spec', () => {
  assert.equal(normaliseStatus('pending'), 'pending');
  assert.equal(normaliseStatus('processing'), 'processing');
  assert.equal(normaliseStatus('completed'), 'completed');
  assert.equal(normaliseStatus('complete'), 'completed');
  assert.equal(normaliseStatus('failed'), 'failed');
  assert.equal(normaliseStatus('failure'), 'failed');
  assert.equal(normaliseStatus('exception'), 'exception');
  assert.equal(normaliseStatus('Completed'), 'completed');
});

test('normaliseStatus rejects unknown values with invalid_response naming the value', () => {
  for (const bad of ['done', '', null, 3]) {
    assert.throws(() => normaliseStatus(bad), (err: unknown) => err instanceof ApiError && err.code === 'invalid_response' && err.message.includes(JSON.stringify(bad)));
  }
});

test('isFinal is true exactly for completed, failed and exception', () => {
  assert.deepEqual(
    (['pending', 'processing', 'completed', 'failed', 'exception'] as const).filter(isFinal),
    ['completed', 'failed', 'exception'],
  );
});

test('jobOutcome reads results.data of a POST /v1/extract job', () => {
  const out = jobOutcome({ ...base, request_status: 'complete', results: { num_pages: 2, data: { total: 12.5 } } });
  assert.equal(out.status, 'completed');
  assert.deepEqual(out.data, { total: 12.5 });
  assert.equal(out.numPages, 2);
  assert.equal(out.fileName, null);
  assert.equal(out.templateId, null);
  assert.equal(out.errorMessage, null);
});

test('jobOutcome reads response_body.result_json_data of a run_parser job', () => {
  const chunks = [{ index: 0, pages: [1], data: { a: 1 }, has_missing_required_fields: false }];
  const out = jobOutcome({
    ...base,
    request_status: 'completed',
    response_body: { ...responseBody, result_json_data: { invoice_number: 'A-1' }, chunks },
  });
  assert.deepEqual(out.data, { invoice_number: 'A-1' });
  assert.equal(out.fileName, 'inv.pdf');
  assert.equal(out.numPages, 3);
  assert.equal(out.templateId, 'tpl-1');
  assert.deepEqual(out.chunks, chunks);
});

test('jobOutcome gives the winning label and its score for classify+extract', () => {
  const out = jobOutcome({
    ...base,
    request_status: 'completed',
    classification: 'invoice',
    confidence_scores: { invoice: 0.82, receipt: 0.18 },
    response_body: { ...responseBody, result_json_data: {} },
  });
  assert.equal(out.classification, 'invoice');
  assert.equal(out.confidence, 0.82);
});

test('jobOutcome carries the user_error_msg of a failed job and null data', () => {
  const out = jobOutcome({
    ...base,
    request_status: 'failure',
    response_body: { ...responseBody, user_error_msg: 'no extraction template is mapped to the label' },
  });
  assert.equal(out.status, 'failed');
  assert.equal(out.data, null);
  assert.equal(out.errorMessage, 'no extraction template is mapped to the label');
  assert.equal(out.confidence, null);
});

test('jobOutcome reads a failure message of an extract job from results', () => {
  const job = { ...base, request_status: 'exception', results: { num_pages: 1, data: null, user_error_msg: 'model error' } } as ExtractionJob;
  const out = jobOutcome(job);
  assert.equal(out.status, 'exception');
  assert.equal(out.errorMessage, 'model error');
});
