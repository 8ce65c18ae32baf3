import type { AccountRepository } from "./account-repository.port.ts";
import type { CatalogRepository } from "./catalog-repository.port.ts";
import type { ChangeClock } from "./change-clock.port.ts";
import type { ElementRepository } from "./element-repository.port.ts";
import type { EventLog } from "./event-log.port.ts";
import type { FolderRepository } from "./folder-repository.port.ts";
import type { LockRepository } from "./lock-repository.port.ts";
import type { SearchRepository } from "./search-repository.port.ts";
import type { SessionRepository } from "./session-repository.port.ts";
import type { TokenRepository } from "./token-repository.port.ts";
import type { Vault } from "./vault.port.ts";
import type { WebhookRepository } from "./webhook-repository.port.ts";

/** A request's time limit as a transaction sees it (an AbortSignal fits). */
export interface Deadline {
  /** True once the request has been answered for its timeout. */
  readonly aborted: boolean;
  /**
   * Called by the store once it has checked `aborted` and is about to commit:
   * from then on the request must not be answered for its timeout (its write
   * is committing). Optional: an AbortSignal has none.
   */
  committing?(): void;
}

export interface TransactionOptions {
  /**
   * Checked after `fn` and before the commit: an expired deadline rolls the
   * transaction back (LineageError API0101), so a client answered 503 for its
   * timeout never sees its write committed after all; otherwise the store calls
   * `committing()` first, so no 503 goes out for a write that commits.
   */
  readonly deadline?: Deadline | undefined;
}

/** The repositories of one connection or of one transaction. */
export interface Repositories {
  readonly elements: ElementRepository;
  /** Which elements each folder holds. */
  readonly folders: FolderRepository;
  /** Who holds a lock on which lineage. */
  readonly locks: LockRepository;
  readonly catalog: CatalogRepository;
  readonly accounts: AccountRepository;
  readonly vault: Vault;
  readonly search: SearchRepository;
  readonly sessions: SessionRepository;
  readonly tokens: TokenRepository;
  readonly changes: ChangeClock;
  readonly events: EventLog;
}

/**
 * The persistence port. Outside a transaction each call stands alone (and
 * reads committed data). `transaction` runs `fn` with the transaction's own
 * repositories: what `fn` writes through them commits when its promise
 * resolves, and nothing of it remains when it rejects. Transactions do not
 * nest: code that runs inside a caller's transaction takes its `Repositories`.
 */
export interface Store extends Repositories {
  transaction<T>(fn: (tx: Repositories) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Webhooks and their deliveries: each method atomic on its own, outside transactions (they follow the event log, never a write). */
  readonly webhooks: WebhookRepository;
  /**
   * Calls `listener` when events may have been appended: after this store committed some, or when
   * another node's commit is notified. A hint that wakes readers, never a delivery: they read the
   * log by seq, and poll it too, so a call missed or spared loses nothing. Answers the function
   * that stops the calls. Optional: without it, readers poll.
   */
  watchEvents?(listener: () => void): () => void;
  close(): Promise<void>;
}
