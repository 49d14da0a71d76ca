// String pagination keys of the Workflow and Classifier lists: the key is the last id of the previous
// page; rows are read in creation order after that row's sequence number.
import { ErrorCodes } from '../../api/error-codes.js';
import { ServiceError } from '../service-error.js';

/** Sequence number to read after; 0 without a key. Unknown keys or keys of other accounts are 400. */
export async function seqAfterKey(
  key: string | undefined,
  accountId: string,
  lookup: (id: string) => Promise<{ seq: number; account_id: string } | undefined>,
): Promise<number> {
  if (!key) return 0;
  const anchor = await lookup(key.toLowerCase());
  if (!anchor || anchor.account_id !== accountId) {
    throw new ServiceError(400, ErrorCodes.invalidRequest, `query pagination_key: expected the pagination_key of a previous page, received ${key}`);
  }
  return anchor.seq;
}
