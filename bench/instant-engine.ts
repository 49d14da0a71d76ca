// An extraction engine that answers every job at once with fixed data, for benchmarks of the daemon
// (bench/pipeline.ts, bench/ledger-scale.ts): their figures are the daemon's, not the extraction's.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../src/api/client.js';
import type { DocumentEngine } from '../src/engine/types.js';
import { startService, type RunningService } from '../src/service/index.js';
import { invoicePdf } from '../test/helpers/job-fixtures.js';

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

/**
 * `docdrop serve` in this process with the instant engine, the bench Workflow and one warm-up upload
 * (the first upload loads pdf.js), so the figures are the daemon's, not a cold service's.
 */
export async function startInstantService(root: string, apiKey: string): Promise<RunningService> {
  const svc = await startService({ port: 0, dataDir: join(root, 'service'), apiKeys: [apiKey], engine: instantEngine });
  const client = new ServiceClient({ baseUrl: svc.url, apiKey });
  await client.createTemplate(benchWorkflow);
  const warm = join(root, 'warm.pdf');
  await writeFile(warm, Buffer.from(await invoicePdf({ number: 'W', date: '2026-11-02', total: '1.00' })));
  await client.uploadDocument(warm);
  return svc;
}
