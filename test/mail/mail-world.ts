// What the mail tests stand on, started together for a describe block's before() and stopped in its
// after(): a real dovecot, a scratch tree with a ledger in it, and optionally a service with the
// Invoices Workflow (for tests that run a whole daemon).
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client.js';
import { openLedger, type LedgerStore } from '../../src/daemon/ledger/open-ledger.js';
import { startDovecot, type Dovecot } from '../helpers/dovecot.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { invoiceTemplate, tempTree, type TempTree } from '../daemon/pipeline-fixtures.js';

export interface MailWorld {
  imap: Dovecot;
  tree: TempTree;
  /** The ledger at `<tree>/state.db`. */
  ledger: LedgerStore;
  /** With `service: true`; else null. */
  svc: TestService | null;
  stop(): Promise<void>;
}

export async function startMailWorld(
  users: Record<string, string>,
  o: { treePrefix?: string; dovecot?: { tls?: boolean; starttls?: boolean }; service?: boolean } = {},
): Promise<MailWorld> {
  const svc = o.service ? await startTestService() : null;
  if (svc) await new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0]! }).createTemplate(invoiceTemplate('Invoices'));
  const imap = await startDovecot(users, o.dovecot);
  const tree = await tempTree(o.treePrefix);
  const ledger = await openLedger({ path: join(tree.root, 'state.db'), synchronous: 'normal' });
  return {
    imap,
    tree,
    ledger,
    svc,
    async stop() {
      await ledger.close();
      await imap.stop();
      await svc?.close();
      await tree.cleanup();
    },
  };
}
