// Accounts are API keys: each configured key is its own account, with an id derived from the key
// (sha256 prefix) so it is stable across restarts and the key itself is never stored or logged.
import { createHash } from 'node:crypto';
import { ErrorCodes } from '../api/error-codes.js';
import { ServiceError } from './service-error.js';

export interface Account {
  id: string;
}

export function accountIdForKey(key: string): string {
  return 'acct_' + createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** 404 for unknown rows, 403 for rows of another account; returns the row otherwise. */
export function requireOwned<T extends { account_id: string }>(row: T | undefined, account: Account, what: string, id: string): T {
  if (!row) throw new ServiceError(404, ErrorCodes.notFound, `${what} ${id} does not exist`);
  if (row.account_id !== account.id) throw new ServiceError(403, ErrorCodes.forbidden, `${what} ${id} belongs to another account`);
  return row;
}
