import type * as v from "valibot";
import type {
  BundleDashboard,
  BundleEnumItem,
  BundleFieldAccess,
  BundleGroup,
  BundleLifecycle,
  BundleProfile,
  BundleRole,
  BundleSearchDomain,
  BundleStructure,
  BundleUser,
} from "../bundle.schema.ts";
import type { BundleNames } from "../bundle-names.ts";
import { jsonPath, pathStep } from "../bundle-values.ts";

/** Entries by section; undefined where an entry's shape is wrong (its index is kept for paths). */
export interface BundleView {
  /** The bundle is no JSON object: nothing else is checked. */
  readonly rootInvalid: boolean;
  readonly roles: readonly (BundleRole | undefined)[];
  readonly groups: readonly (BundleGroup | undefined)[];
  readonly users: readonly (BundleUser | undefined)[];
  readonly enumerates: ReadonlyMap<string, readonly BundleEnumItem[] | undefined>;
  readonly profiles: readonly (BundleProfile | undefined)[];
  readonly fieldAccesses: readonly (BundleFieldAccess | undefined)[];
  readonly lifecycles: readonly (BundleLifecycle | undefined)[];
  readonly structures: readonly (BundleStructure | undefined)[];
  readonly searchDomains: readonly (BundleSearchDomain | undefined)[];
  readonly dashboards: readonly (BundleDashboard | undefined)[];
  /** The logical names of the elements, valid entry or not: docid values may name them. */
  readonly elementNames: BundleNames;
  /** Every identifier the raw bundle declares, valid entry or not, so one bad entry does not make its name unknown everywhere. */
  readonly declared: Readonly<Record<"roles" | "groups" | "users" | "profiles" | "fieldAccesses" | "lifecycles" | "structures", ReadonlyMap<string, number>>>;
}

/** A raw JSON value as an object; {} when it is none. */
export const asObject = (raw: unknown): Record<string, unknown> =>
  typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
/** A raw JSON value as an array; [] when it is none. */
export const asArray = (raw: unknown): readonly unknown[] => (Array.isArray(raw) ? raw : []);

/** The entries of a bundle whose shape is valid, from the schema's issues. */
export function viewOf(input: Record<string, unknown>, issues: readonly v.BaseIssue<unknown>[], elementNames: BundleNames): BundleView {
  const bad = new Set<string>();
  for (const issue of issues) {
    const keys = (issue.path ?? []).map((item) => item.key as string | number);
    bad.add(jsonPath(keys.slice(0, keys[0] === "accounts" ? 3 : 2)));
  }
  const root = input;
  const accounts = asObject(root.accounts);
  const valid = (path: string) => !bad.has("$") && !bad.has(path) && !(path.startsWith("$.accounts.") && bad.has("$.accounts"));
  const section = <T>(raw: unknown, path: string): (T | undefined)[] => {
    if (!valid(path)) return [];
    return asArray(raw).map((entry, i) => (valid(`${path}[${i}]`) ? (entry as T) : undefined));
  };
  const enumerates = new Map<string, readonly BundleEnumItem[] | undefined>();
  if (valid("$.enumerates")) {
    for (const [name, items] of Object.entries(asObject(root.enumerates))) {
      enumerates.set(name, valid(`$.enumerates${pathStep(name)}`) ? (items as BundleEnumItem[]) : undefined);
    }
  }
  const declared = (raw: unknown, key: string) => {
    const names = new Map<string, number>();
    asArray(raw).forEach((entry, i) => {
      const value = asObject(entry)[key];
      if (typeof value === "string" && !names.has(value)) names.set(value, i);
    });
    return names;
  };
  return {
    rootInvalid: bad.has("$"),
    roles: section(accounts.roles, "$.accounts.roles"),
    groups: section(accounts.groups, "$.accounts.groups"),
    users: section(accounts.users, "$.accounts.users"),
    enumerates,
    profiles: section(root.profiles, "$.profiles"),
    fieldAccesses: section(root.fieldAccesses, "$.fieldAccesses"),
    lifecycles: section(root.lifecycles, "$.lifecycles"),
    structures: section(root.structures, "$.structures"),
    searchDomains: section(root.searchDomains, "$.searchDomains"),
    dashboards: section(root.dashboards, "$.dashboards"),
    elementNames,
    declared: {
      roles: declared(accounts.roles, "id"),
      groups: declared(accounts.groups, "id"),
      users: declared(accounts.users, "login"),
      profiles: declared(root.profiles, "name"),
      fieldAccesses: declared(root.fieldAccesses, "name"),
      lifecycles: declared(root.lifecycles, "name"),
      structures: declared(root.structures, "name"),
    },
  };
}
