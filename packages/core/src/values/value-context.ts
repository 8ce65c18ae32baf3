import type { Account } from "../accounts/account.ts";
import type { Enumerate } from "../enumerates/enumerate.ts";
import type { ElementRevision } from "../elements/smart-element.ts";
import type { VaultFile } from "../ports/vault.port.ts";

/** What reading and writing field values needs to look up. */
export interface ValueContext {
  enumerate(name: string): Enumerate | undefined;
  /** The latest revision of a lineage by initid, id or logical name. */
  element(ref: string | number): ElementRevision | undefined;
  vaultFile(id: number): VaultFile | undefined;
  /** An account by login, for account values. */
  accountByLogin(login: string): Account | undefined;
  /**
   * A structure, for its ancestors: an element of a structure that extends a docid field's
   * target structure is of that structure too. Without it, only the structure itself is.
   */
  structure?(name: string): { readonly ancestors?: readonly string[] | undefined } | undefined;
}
