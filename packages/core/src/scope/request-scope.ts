import type { Principal } from "../accounts/principal.ts";
import type { Permission } from "../access/profile.ts";
import type { ViewContext } from "../elements/element-view.ts";
import type { FieldsSelection } from "../elements/fields-selection.ts";
import type { ElementRevision } from "../elements/smart-element.ts";
import type { Repositories, TransactionOptions } from "../ports/store.port.ts";
import type { PasswordHasher } from "../ports/password-hasher.port.ts";
import type { Definitions } from "./definitions.ts";
import type { ReadableFilter } from "../ports/element-repository.port.ts";

/** What a rendering or a write will look up, read in a few batch calls beforehand. */
export interface ScopeNeeds {
  /** Elements by initid, revision id (numbers or digit strings) or logical name. */
  readonly elements?: Iterable<string | number>;
  readonly accounts?: Iterable<number>;
  /** Accounts by login: what account values name. */
  readonly logins?: Iterable<string>;
  readonly vaultFiles?: Iterable<number>;
}

/**
 * Everything one request reads through, for one principal: definitions, the
 * elements, accounts and vault files it has loaded, permissions per
 * structure, and the rendering context. Lookups are synchronous and answer
 * only what was loaded (`find`, `load`, `prepare`): rendering does no I/O and
 * a page costs a few batch reads, never one read per value. `structure` answers
 * a structure as the principal sees it (its field access's layers granted to
 * them applied); `definitions.structure` answers it as every reader sees it.
 */
export interface RequestScope extends ViewContext {
  readonly principal: Principal;
  /** Where the scope reads: the store, or a transaction's repositories. */
  readonly repos: Repositories;
  readonly definitions: Definitions;
  permissions(element: ElementRevision): ReadonlySet<Permission>;
  /** True when the principal may create elements of this structure through the API (its profile's `create` grant). */
  mayCreate(structureName: string): boolean;
  /** What the principal's ETags of an element change with: their rights on it, and their fields' visibility where a field access applies. */
  rightsVector(element: ElementRevision): string;
  /** The elements the principal may view, as lists and counts filter them in the store; undefined (admin) means all. */
  readable(): ReadableFilter | undefined;
  /** The latest revision of a lineage by initid, any revision id or logical name (read once per scope). */
  find(ref: string | number): Promise<ElementRevision | undefined>;
  /** Loads what later lookups will ask for. */
  load(needs: ScopeNeeds): Promise<void>;
  /**
   * Loads what rendering these revisions needs: the elements, accounts and vault files their values
   * name, and, when the selection's properties name accounts (`createdBy`...), their owners.
   */
  prepare(revisions: readonly ElementRevision[], selection?: Pick<FieldsSelection, "properties">): Promise<void>;
  /** How password values are hashed before they are written; refuses when the scope was made without a hasher. */
  readonly passwords: PasswordHasher;
  /**
   * Runs `fn` in one store transaction with a scope of the same principal
   * reading through it (nothing loaded here is carried over: the transaction
   * reads afresh). Transactions do not nest: a scope given to `fn` refuses this.
   */
  transaction<T>(fn: (tx: RequestScope) => Promise<T>, options?: TransactionOptions): Promise<T>;
}

/** Runs a function in one store transaction, with the definitions as that transaction sees them. */
export type Transact = <T>(fn: (tx: Repositories, definitions: Definitions) => Promise<T>, options?: TransactionOptions) => Promise<T>;
