// The kill-and-recover part shared by the mail crash tests (IMAP and Maildir): daemons killed with
// SIGKILL at random moments, then one left running until every message is taken and every input done,
// and the check that each invoice has exactly one output row.
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { LedgerStore } from '../../src/daemon/ledger/open-ledger.js';
import { startDaemonProcess, type DaemonProcess } from '../../bench/daemon-process.js';
import { listFiles, readCsvFile, waitFor } from '../daemon/pipeline-fixtures.js';

export interface KillAndRecover {
  configPath: string;
  ledger: LedgerStore;
  kills: number;
  /** Messages (one invoice each) that must end up taken and done. */
  expected: number;
  /** Every daemon started, for the caller's cleanup. */
  children: DaemonProcess[];
  t: TestContext;
  /** Runs after the k-th daemon started, before it is killed (e.g. more mail arriving). */
  whileRunning?: (k: number) => Promise<void>;
  /** Checked once everything is done, before the last daemon stops. */
  settled?: () => Promise<boolean>;
}

export async function killAndRecover(o: KillAndRecover): Promise<void> {
  const { ledger, t } = o;
  const doneAtKill: string[] = [];
  for (let k = 0; k < o.kills; k++) {
    const child = await startDaemonProcess(o.configPath, { tsx: true });
    o.children.push(child);
    await o.whileRunning?.(k);
    // The first kills come early, while mail is being taken; later ones hit the pipeline.
    await new Promise((r) => setTimeout(r, k < 3 ? Math.random() * 500 : 100 + Math.random() * 700));
    child.child.kill('SIGKILL');
    await child.exited;
    doneAtKill.push(`${(await ledger.mailStats())[0]?.messages ?? 0}/${(await ledger.countByState()).done}`);
  }
  t.diagnostic(`messages taken / inputs done at each kill: ${doneAtKill.join(', ')}`);
  const last = await startDaemonProcess(o.configPath, { tsx: true });
  o.children.push(last);
  await waitFor(
    'every mailed invoice done and every message taken',
    async () => {
      const c = await ledger.countByState();
      const taken = (await ledger.mailStats())[0]?.messages ?? 0;
      const active = c.queued + c.uploaded + c.submitted + c.extracted + c.written + c.timed_out;
      return c.done === o.expected && taken === o.expected && active === 0 && (await (o.settled?.() ?? true)) ? c : undefined;
    },
    120_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\nlast daemon stderr:\n${last.log().slice(-4000)}`);
  });
  last.child.kill('SIGTERM');
  await last.exited;
  const counts = await ledger.countByState();
  assert.equal(counts.failed, 0);
  t.diagnostic(`re-dropped attachments skipped as duplicates: ${counts.duplicate}`);
}

/**
 * Two line items per invoice: two rows for each of `numbers` in the rule's CSV outputs, never four.
 * `eachRow` checks more of every row (`file`: its CSV, for the message).
 */
export async function assertOneOutputEach(outDir: string, numbers: string[], eachRow?: (row: Record<string, string>, file: string) => void): Promise<void> {
  const perNumber = new Map<string, number>();
  for (const f of (await listFiles(outDir)).filter((n) => n.endsWith('.csv'))) {
    for (const r of (await readCsvFile(join(outDir, f))).rows) {
      perNumber.set(r.invoice_number!, (perNumber.get(r.invoice_number!) ?? 0) + 1);
      eachRow?.(r, f);
    }
  }
  assert.deepEqual([...perNumber.keys()].sort(), numbers);
  assert.deepEqual([...new Set(perNumber.values())], [2], 'no invoice written twice');
}
