import { HTTP_RIGHTS, type Account, type Group, type Role } from "../accounts/account.ts";
import type { Enumerate } from "../enumerates/enumerate.ts";
import type { Lifecycle } from "../lifecycle/lifecycle.ts";
import type { Profile } from "../access/profile.ts";
import type { FieldAccess } from "../access/field-access.ts";
import type { DashboardEntry } from "../dashboards/dashboard-entry.ts";
import type { Repositories } from "../ports/store.port.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import type { NewAccount } from "../ports/account-repository.port.ts";
import type { StructureDefinition } from "../structures/smart-structure.ts";
import { searchDomainOf } from "../search/bundle-search-domain.ts";
import type { SearchDomain } from "../search/search-domain.ts";
import type { Bundle, BundleUser } from "./bundle.schema.ts";
import { canonicalJson } from "./bundle-values.ts";
import type { ImportCounts, ImportReport } from "./import-report.ts";

/** Password hashes by login, made before the transaction (hashing is async): an unchanged password keeps its hash. */
export async function passwordHashes(platform: PlatformContext, users: readonly BundleUser[]): Promise<Map<string, string | null>> {
  const entries = await Promise.all(users.map(async (user): Promise<[string, string | null]> => {
    const stored = (await platform.store.accounts.byLogin(user.login))?.passwordHash ?? null;
    if (user.password === undefined) return [user.login, stored];
    const same = stored !== null && (await platform.hasher.verify(user.password, stored).catch(() => false));
    return [user.login, same ? stored : await platform.hasher.hash(user.password)];
  }));
  return new Map(entries);
}

const zero = (): ImportCounts => ({ created: 0, updated: 0, unchanged: 0 });

/** JSON data without undefined keys: what a store gives back. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Saves `next` unless the stored version is the same, and counts what happened. */
async function upsert<T>(counts: ImportCounts, stored: unknown, next: T, save: (value: T) => Promise<unknown>): Promise<void> {
  if (stored === undefined) counts.created++;
  else if (canonicalJson(stored) === canonicalJson(next)) return void counts.unchanged++;
  else counts.updated++;
  await save(next);
}

function withoutId<T extends { readonly id: number }>(value: T | undefined): Omit<T, "id"> | undefined {
  if (!value) return undefined;
  const { id: _id, ...rest } = value;
  return rest;
}

/** Saves every kind but the elements, and answers the report with the elements' counts at zero. */
export async function writeDefinitions(tx: Repositories, bundle: Bundle, passwords: ReadonlyMap<string, string | null>): Promise<ImportReport> {
  const { accounts, catalog } = tx;
  const report: ImportReport = {
    roles: zero(), groups: zero(), users: zero(), enumerates: zero(), profiles: zero(), fieldAccesses: zero(), lifecycles: zero(),
    structures: zero(), elements: { ...zero(), overwritten: 0 },
    searchDomains: zero(),
    dashboards: zero(),
  };
  const roles = new Map((await accounts.roles()).map((role) => [role.id, role]));
  for (const role of bundle.accounts?.roles ?? []) {
    await upsert(report.roles, roles.get(role.id), plain<Role>({ id: role.id, label: role.label }), (r) => accounts.saveRole(r));
  }
  const groups = new Map((await accounts.groups()).map((group) => [group.id, group]));
  for (const group of bundle.accounts?.groups ?? []) {
    const next = plain<Group>({ id: group.id, label: group.label, roles: group.roles ?? [] });
    await upsert(report.groups, groups.get(group.id), next, (g) => accounts.saveGroup(g));
  }
  for (const user of bundle.accounts?.users ?? []) {
    const stored = await accounts.byLogin(user.login);
    const next: NewAccount = {
      login: user.login,
      displayName: user.displayName ?? user.login,
      passwordHash: passwords.get(user.login) ?? null,
      roles: user.roles ?? [],
      groups: user.groups ?? [],
      locale: user.locale ?? "en",
      rights: user.rights ?? [...HTTP_RIGHTS],
      // Bundles do not say: an account disabled by an administrator stays so.
      disabled: stored?.disabled ?? false,
    };
    await upsert<NewAccount>(report.users, withoutId<Account>(stored), next, (a) => accounts.saveAccount(a));
  }
  for (const [name, items] of Object.entries(bundle.enumerates ?? {})) {
    await upsert(report.enumerates, await catalog.enumerate(name), plain<Enumerate>({ name, items }), (e) => catalog.saveEnumerate(e));
  }
  for (const profile of bundle.profiles ?? []) {
    const next = plain<Profile>({ name: profile.name, grants: profile.grants ?? {} });
    await upsert(report.profiles, await catalog.profile(profile.name), next, (p) => catalog.saveProfile(p));
  }
  for (const access of bundle.fieldAccesses ?? []) {
    const next = plain<FieldAccess>({ name: access.name, layers: access.layers });
    await upsert(report.fieldAccesses, await catalog.fieldAccess(access.name), next, (a) => catalog.saveFieldAccess(a));
  }
  for (const lifecycle of bundle.lifecycles ?? []) {
    const next = plain<Lifecycle>({ ...lifecycle, transitions: lifecycle.transitions ?? [] });
    await upsert(report.lifecycles, await catalog.lifecycle(lifecycle.name), next, (l) => catalog.saveLifecycle(l));
  }
  for (const structure of bundle.structures ?? []) {
    const next = plain<StructureDefinition>({ ...structure, fields: structure.fields ?? [] });
    await upsert(report.structures, withoutId(await catalog.structure(structure.name)), next, (s) => catalog.saveStructure(s));
  }
  for (const dashboard of bundle.dashboards ?? []) {
    const next = plain<DashboardEntry>({ slug: dashboard.slug, uuid: dashboard.uuid, roles: dashboard.roles ?? [] });
    await upsert(report.dashboards, await catalog.dashboard(dashboard.slug), next, (d) => catalog.saveDashboard(d));
  }
  for (const domain of bundle.searchDomains ?? []) {
    const next = plain<SearchDomain>(searchDomainOf(domain));
    await upsert(report.searchDomains, await tx.search.domain(domain.name), next, (d) => tx.search.saveDomain(d));
  }
  return report;
}
