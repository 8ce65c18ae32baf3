import type { AccountRepository } from "./account-repository.port.ts";
import type { CatalogRepository } from "./catalog-repository.port.ts";
import type { ElementRepository } from "./element-repository.port.ts";
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
  transaction<T>(fn: () => T): T;
  close(): void;
}
