// Picks the store once at start: PostgreSQL when --database names one, else DATA_DIR/service.db.
import type { Logger } from '../../shared/logger.js';
import { openPostgresStore } from './postgres-store.js';
import type { ServiceStore } from './service-store.js';
import { openSqliteStore } from './sqlite-store.js';

export async function openServiceStore(o: { dataDir: string; database?: string; logger: Logger }): Promise<ServiceStore> {
  if (o.database === undefined) return openSqliteStore(o.dataDir);
  return openPostgresStore({ url: o.database, logger: o.logger });
}
