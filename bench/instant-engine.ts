// An extraction engine that answers every job at once with fixed data, for benchmarks of the daemon
// (bench/pipeline.ts, bench/ledger-scale.ts): their figures are the daemon's, not the extraction's.
import type { DocumentEngine } from '../src/engine/types.js';

export const instantEngine: DocumentEngine = {
  async extract() {
    return {
      data: { invoice_number: 'INV-1', invoice_date: '2026-11-02', total_due: 25.5, line_items: [{ description: 'Widget', amount: 25.5 }] },
      missingRequired: [],
      numPages: 1,
      pagesRead: [1],
      engine: { name: 'bench-instant', version: '1' },
    };
  },
  async classify() {
    return { label: 'invoice', scores: { invoice: 1 }, numPages: 1, engine: { name: 'bench-instant', version: '1' } };
  },
  async close() {},
};

export const benchWorkflow = {
  template_title: 'Invoices',
  template_type: 'invoice',
  template_schema: {
    fields: [
      { name: 'invoice_number', type: 'text' as const },
      { name: 'invoice_date', type: 'date' as const },
      { name: 'total_due', type: 'number' as const },
      { name: 'line_items', type: 'table' as const, subFields: [{ name: 'description', type: 'text' as const }, { name: 'amount', type: 'number' as const }] },
    ],
  },
};
