import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyPages } from '../../src/engine/builtin/classify.js';
import { makePage } from './page-fixture.js';

const CLASSES = [
  { label: 'invoice', description: 'An invoice from a supplier asking for payment' },
  { label: 'receipt', description: 'A till receipt for a purchase paid by cash or card' },
];
const sum = (scores: Record<string, number>) => Object.values(scores).reduce((a, b) => a + b, 0);

test('classifies an invoice with scores that sum to 1', () => {
  const page = makePage(['ACME GmbH', 'INVOICE', 'Invoice number: 2041', 'Invoice date: 2019-11-15', 'Bill to: Foo Ltd', 'Due date: 2019-12-15', 'Subtotal 100.00', 'VAT 19% 19.00', 'Amount due 119.00', 'IBAN DE12 3456']);
  const r = classifyPages({ pages: [page], classes: CLASSES });
  assert.equal(r.label, 'invoice');
  assert.ok(Math.abs(sum(r.scores) - 1) < 1e-3);
  assert.ok(r.scores.invoice > 0.8, JSON.stringify(r.scores));
});

test('classifies a till receipt', () => {
  const page = makePage(['CORNER SHOP', 'RECEIPT', 'Cashier: 3', 'Milk 1.20', 'Bread 2.10', 'TOTAL 3.30', 'CASH 5.00', 'CHANGE 1.70', 'Thank you, come again']);
  const r = classifyPages({ pages: [page], classes: CLASSES });
  assert.equal(r.label, 'receipt');
  assert.ok(Math.abs(sum(r.scores) - 1) < 1e-3);
});

test('gives an unrelated document no score near 1', () => {
  const page = makePage(['Minutes of the garden club meeting', 'Present: seven members', 'The roses will be pruned in March.', 'Next meeting: the second Tuesday.']);
  const r = classifyPages({ pages: [page], classes: CLASSES });
  assert.ok(Math.abs(sum(r.scores) - 1) < 1e-3);
  for (const v of Object.values(r.scores)) assert.ok(v < 0.7, JSON.stringify(r.scores));
});

test('gives the mass of an unrelated document to a catch-all label', () => {
  const page = makePage(['Minutes of the garden club meeting', 'The roses will be pruned in March.']);
  const r = classifyPages({ pages: [page], classes: [...CLASSES, { label: 'other', description: 'anything else' }] });
  assert.equal(r.label, 'other');
  assert.ok(Math.abs(sum(r.scores) - 1) < 1e-3);
});
