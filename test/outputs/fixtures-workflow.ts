// A Workflow shaped like the example Invoice workflow, shared by the outputs tests.
import type { FieldDefinition } from '../../src/api/types.js';
import type { OutputRecord } from '../../src/outputs/table.js';

export const invoiceFields: FieldDefinition[] = [
  { name: 'invoice_number', type: 'text' },
  { name: 'invoice_date', type: 'date' },
  { name: 'vendor', type: 'text' },
  {
    name: 'line_items',
    type: 'table',
    subFields: [
      { name: 'description', type: 'text' },
      { name: 'quantity', type: 'number' },
      { name: 'amount', type: 'number' },
    ],
  },
  { name: 'total', type: 'number' },
];

export function invoiceRecord(overrides: Partial<OutputRecord> = {}): OutputRecord {
  return {
    fileName: 'inv-001.pdf',
    requestId: '11111111-1111-4111-8111-111111111111',
    dateFormat: '%d/%m/%Y',
    data: {
      invoice_number: 'INV-001',
      invoice_date: '05/03/2024',
      vendor: 'ACME, Inc.',
      line_items: [
        { description: 'Widget', quantity: '2', amount: '1,234.50' },
        { description: 'Gadget', quantity: 1, amount: 10 },
      ],
      total: 1244.5,
    },
    ...overrides,
  };
}
