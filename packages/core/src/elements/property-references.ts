import type { ElementLock } from "./element-lock.ts";
import type { Account } from "../accounts/account.ts";
import { translate } from "../i18n/label.ts";
import type { Lifecycle } from "../lifecycle/lifecycle.ts";
import type { SmartStructure } from "../structures/smart-structure.ts";
import { accountIconUri, iconUri } from "./element-icon.ts";

/*
 * The shapes of the properties of `document.properties.all` that name something else (an account,
 * a structure, a lifecycle, a profile), as the original's FormatCollection gives them, for elements
 * and structures alike. Where this platform has no such thing (notes, allocations, view
 * controllers), the original's answer for "none".
 */

/** What the original answers for a reference to nothing (no note, no allocation, no view controller, no lifecycle). */
export interface NoReference {
  readonly id: 0;
  readonly title: "";
}

export const noReference = (): NoReference => ({ id: 0, title: "" });

/** An account as `createdBy` names it; the original's `{ id: 0, title: "", icon: "" }` for an account that is not (or no more). */
export function accountReference(account: Account | undefined): { id: number; title: string; icon: string } {
  return account ? { id: account.id, title: account.displayName || account.login, icon: accountIconUri(24) } : { id: 0, title: "", icon: "" };
}

/** A structure as `family` names it; the original's empty family (`id` 0, the default icon) for none. */
export function structureReference(structure: SmartStructure | undefined, locale: string): { title: string; name: string; id: number; icon: string } {
  if (!structure) return { title: "", name: "", id: 0, icon: iconUri(undefined) };
  return { title: translate(structure.title ?? structure.name, locale), name: structure.name, id: structure.id, icon: iconUri(structure) };
}

/** A lifecycle as `workflow` names it: by its name (as `wid` does), its label in the reader's language. */
export function lifecycleReference(lifecycle: Lifecycle | undefined, locale: string): { id: string; title: string; icon: string } | NoReference {
  return lifecycle ? { id: lifecycle.name, title: translate(lifecycle.label ?? lifecycle.name, locale), icon: iconUri(undefined) } : noReference();
}

/** The `security` property: the lock (none here but a fixed revision's), read-only for the reader, the profile, the field access. */
export interface SecurityProperty {
  lock: { id: 0 } | { id: number; temporary: boolean };
  readOnly: boolean;
  fixed: boolean;
  profil: { id: string; icon: string; type: "linked"; activated: true; title: string } | NoReference;
  fieldAccess?: { id: string; icon: string; title: string };
  confidentiality: "public";
}

/**
 * The `security` property as the original gives it. Lineage's profiles and field accesses are
 * named definitions, each named by its name (as `profid` does); every profile is linked (no
 * element is its own profile here), none is confidential. Its lock is the `locked` property's id:
 * -1 for a fixed revision, the holder's account id (its opposite when temporary) for a lock.
 */
export function securityProperty(options: {
  fixed: boolean; lock: ElementLock | undefined; readOnly: boolean; profile: string | null | undefined; fieldAccess: string | undefined;
}): SecurityProperty {
  const { fixed, lock, readOnly, profile, fieldAccess } = options;
  return {
    lock: fixed ? { id: -1, temporary: false } : lock ? { id: lock.temporary ? -lock.accountId : lock.accountId, temporary: lock.temporary } : { id: 0 },
    readOnly,
    fixed,
    profil: profile ? { id: profile, icon: iconUri(undefined), type: "linked", activated: true, title: profile } : noReference(),
    // The original names the field access only under a profile.
    ...(profile && fieldAccess ? { fieldAccess: { id: fieldAccess, icon: iconUri(undefined), title: fieldAccess } } : {}),
    confidentiality: "public",
  };
}
