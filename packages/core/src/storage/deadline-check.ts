import { LineageError } from "../errors/lineage-error.ts";
import type { TransactionOptions } from "../ports/store.port.ts";

/** For store adapters, before a transaction begins: a request already answered 503 for its timeout need not be run at all. */
export function refuseIfExpired(options: TransactionOptions | undefined): void {
  if (options?.deadline?.aborted) throw new LineageError("API0101", []);
}

/**
 * For store adapters, right before the commit: a client answered 503 for its timeout must not see
 * its write committed after all (the store rolls back on this throw); otherwise the deadline is
 * told the write is committing, so that no 503 goes out for it.
 */
export function readyToCommit(options: TransactionOptions | undefined): void {
  refuseIfExpired(options);
  options?.deadline?.committing?.();
}
