import type { AccountRepository } from "./account-repository.port.ts";
import type { CatalogRepository } from "./catalog-repository.port.ts";
import type { ElementRepository } from "./element-repository.port.ts";
import type { SearchRepository } from "./search-repository.port.ts";
import type { SessionRepository } from "./session-repository.port.ts";
import type { TokenRepository } from "./token-repository.port.ts";
import type { Vault } from "./vault.port.ts";

/**
 * The persistence port: repositories sharing one transaction scope.
 * `transaction` runs `fn` atomically: if it throws, nothing it wrote remains.
 */
export interface Store {
  readonly elements: ElementRepository;
  readonly catalog: CatalogRepository;
  readonly accounts: AccountRepository;
  readonly vault: Vault;
  readonly search: SearchRepository;
  readonly sessions: SessionRepository;
  readonly tokens: TokenRepository;
  transaction<T>(fn: () => T): T;
  /**
   * A token that changes whenever committed data changes, through this store
   * or another on the same data: what was read at one version may be reused
   * while the version stays the same. Undefined inside a transaction, whose
   * reads may yet be rolled back.
   */
  version(): string | undefined;
  close(): void;
}
