import { HTTP_RIGHTS, type Account, type Group, type Role } from "../accounts/account.ts";
import type { Enumerate } from "../catalog/enumerate.ts";
import type { Lifecycle } from "../catalog/lifecycle.ts";
import type { Profile } from "../catalog/profile.ts";
import type { DashboardEntry } from "../dashboards/dashboard-entry.ts";
import { isLineageError, LineageError } from "../errors/lineage-error.ts";
import type { ElementRevision, FieldValue } from "../element/smart-element.ts";
import type { UploadedFile } from "../element/uploaded-file.ts";
import { applyValues } from "../elements/element-values.ts";
import { changeElement, insertElement } from "../elements/write-elements.ts";
import { loadDefinitions } from "../elements/definitions.ts";
import { createReadScope } from "../elements/read-scope.ts";
import type { Repositories } from "../ports/store.port.ts";
import type { Platform } from "../platform.ts";
import type { NewAccount } from "../ports/account-repository.port.ts";
import type { StructureDefinition } from "../structure/smart-structure.ts";
import { isEmptyValue } from "../values/field-value-codec.ts";
import { checkBundle, type BundleProblem } from "./bundle-problems.ts";
import type { Bundle, BundleElement, BundleUser } from "./bundle.schema.ts";
import {
  canonicalJson,
  elementImportKey,
  fileNameOf,
  isFileRef,
  layoutValues,
  mapItems,
  mimeOfFile,
  toValuesInput,
  type ValueCell,
  type ValuesLayout,
} from "./bundle-values.ts";
import { systemPrincipal } from "./system-principal.ts";
import { searchDomainOf } from "../search/bundle-search-domain.ts";
import type { SearchDomain } from "../search/search-domain.ts";

export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/** What an import did, per kind. */
export interface ImportReport {
  readonly roles: ImportCounts;
  readonly groups: ImportCounts;
  readonly users: ImportCounts;
  readonly enumerates: ImportCounts;
  readonly profiles: ImportCounts;
  readonly lifecycles: ImportCounts;
  readonly structures: ImportCounts;
  readonly elements: ImportCounts;
  readonly searchDomains: ImportCounts;
  readonly dashboards: ImportCounts;
}

export interface ImportBundleOptions {
  /** The content of a file named by the bundle, relative to its folder; undefined when there is none. */
  readFile(relativePath: string): Uint8Array | undefined;
}

/**
 * Imports a bundle (bundle.md) as the system principal. Everything is checked
 * first: on any problem a BUNDLE0001 error lists them all in `data.problems`
 * and nothing is written. Then one transaction saves accounts, enumerates,
 * profiles, lifecycles, structures and elements. Idempotent: importing the
 * same bundle again changes nothing.
 * @example
 * const report = await importBundle(platform, JSON.parse(text), {
 *   readFile: (path) => readFileSync(join(folder, path)),
 * });
 */
export async function importBundle(platform: Platform, input: unknown, options: ImportBundleOptions): Promise<ImportReport> {
  const readFile = cachedReader(options.readFile);
  const { bundle, problems } = await checkBundle(input, { store: platform.store, readFile });
  if (!bundle) throw bundleError(problems);
  const passwords = await passwordHashes(platform, bundle.accounts?.users ?? []);
  return platform.store.transaction((tx) => writeBundle(platform, tx, bundle, passwords, readFile));
}

/** The error of a refused bundle: BUNDLE0001 with every problem in `data.problems`. */
export function bundleError(problems: readonly BundleProblem[]): LineageError {
  const first = problems[0];
  const summary = first
    ? `${problems.length} problem${problems.length > 1 ? "s" : ""}, the first at ${first.path}: ${first.message}`
    : "no bundle";
  return new LineageError("BUNDLE0001", [summary], { data: { problems } });
}

/** One line per kind, for the command line: `elements: 3 created, 1 updated, 12 unchanged`. */
export function formatImportReport(report: ImportReport): string {
  return Object.entries(report)
    .map(([kind, counts]: [string, Partial<ImportCounts> & { accepted?: number }]) =>
      counts.accepted !== undefined
        ? `${kind}: ${counts.accepted} accepted`
        : `${kind}: ${counts.created ?? 0} created, ${counts.updated ?? 0} updated, ${counts.unchanged ?? 0} unchanged`)
    .join("\n");
}

type FileReader = (relativePath: string) => Uint8Array | undefined;

function cachedReader(read: FileReader): FileReader {
  const cache = new Map<string, Uint8Array | undefined>();
  return (path) => {
    if (!cache.has(path)) cache.set(path, read(path));
    return cache.get(path);
  };
}

/** Password hashes by login, made before the transaction (hashing is async): an unchanged password keeps its hash. */
async function passwordHashes(platform: Platform, users: readonly BundleUser[]): Promise<Map<string, string | null>> {
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

async function writeBundle(
  platform: Platform, tx: Repositories, bundle: Bundle, passwords: ReadonlyMap<string, string | null>, readFile: FileReader,
): Promise<ImportReport> {
  const { accounts, catalog } = tx;
  const report: ImportReport = {
    roles: zero(), groups: zero(), users: zero(), enumerates: zero(), profiles: zero(), lifecycles: zero(),
    structures: zero(), elements: zero(),
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
    const next: NewAccount = {
      login: user.login,
      displayName: user.displayName ?? user.login,
      passwordHash: passwords.get(user.login) ?? null,
      roles: user.roles ?? [],
      groups: user.groups ?? [],
      locale: user.locale ?? "en",
      rights: user.rights ?? [...HTTP_RIGHTS],
    };
    await upsert<NewAccount>(report.users, withoutId<Account>(await accounts.byLogin(user.login)), next, (a) => accounts.saveAccount(a));
  }
  for (const [name, items] of Object.entries(bundle.enumerates ?? {})) {
    await upsert(report.enumerates, await catalog.enumerate(name), plain<Enumerate>({ name, items }), (e) => catalog.saveEnumerate(e));
  }
  for (const profile of bundle.profiles ?? []) {
    const next = plain<Profile>({ name: profile.name, grants: profile.grants ?? {} });
    await upsert(report.profiles, await catalog.profile(profile.name), next, (p) => catalog.saveProfile(p));
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
  await importElements(platform, tx, bundle.elements ?? [], readFile, report.elements);
  return report;
}

/* ---------- Elements ---------- */

interface ElementPlan {
  readonly entry: BundleElement;
  readonly index: number;
  readonly structure: StructureDefinition;
  readonly layout: ValuesLayout;
  /** The element this entry already made, found by logical name or import key. */
  readonly existing: ElementRevision | undefined;
}

/**
 * Creates or updates the elements. docid values naming an element of the
 * bundle become its initid: elements are written in dependency order, and
 * within a cycle a value is set once its target exists.
 */
async function importElements(platform: Platform, tx: Repositories, entries: readonly BundleElement[], readFile: FileReader, counts: ImportCounts): Promise<void> {
  const system = systemPrincipal();
  // The definitions the transaction wrote above; a scope per write, so none reads an element from before another write.
  const definitions = await loadDefinitions(tx, "");
  const scope = () => createReadScope(tx, system, definitions);
  const defaultOwner = (await tx.accounts.byLogin("admin"))?.id ?? system.account.id;
  const owners = new Map<string, number>();
  for (const login of new Set(entries.flatMap((entry) => (entry.owner === undefined ? [] : [entry.owner])))) {
    owners.set(login, (await tx.accounts.byLogin(login))?.id ?? defaultOwner);
  }
  const indexByName = new Map<string, number>();
  const initids = new Map<string, number>();
  const named = new Map((await tx.elements.latestByNames(entries.flatMap((entry) => (entry.name === undefined ? [] : [entry.name])))).map((e) => [e.name, e]));
  const plans: ElementPlan[] = [];
  for (const [index, entry] of entries.entries()) {
    const structure = definitions.structure(entry.structure);
    if (!structure) throw writeError(index, `unknown structure "${entry.structure}"`);
    const existing = entry.name !== undefined ? named.get(entry.name) : await tx.elements.byImportKey(elementImportKey(entry)).then((found) => found && tx.elements.latest(found.initid));
    if (entry.name !== undefined) {
      indexByName.set(entry.name, index);
      if (existing) initids.set(entry.name, existing.initid);
    }
    const layout = layoutValues(structure, entry.values ?? {}, `$.elements[${index}].values`, (path, message) => {
      throw writeError(index, `${path}: ${message}`);
    });
    plans.push({ entry, index, structure, layout, existing });
  }

  /** The raw value of a cell: files read, references to the bundle's elements as initids (undefined: not created yet). */
  const rawValue = (cell: ValueCell): { value: unknown; ready: boolean } => {
    let ready = true;
    const { type } = cell.field;
    const value = type === "file" || type === "image"
      ? mapItems(cell.raw, cell.path, (item) => (isFileRef(item) ? uploadOf(item.file, readFile) : item))
      : type === "docid"
        ? mapItems(cell.raw, cell.path, (item) => {
          if (typeof item !== "string" || !indexByName.has(item)) return item;
          const initid = initids.get(item);
          if (initid === undefined) ready = false;
          return initid;
        })
        : cell.raw;
    return { value, ready };
  };

  /** The applyValues input of a plan, without the fields that reference elements not created yet. */
  const inputOf = (plan: ElementPlan): { input: Record<string, unknown>; pending: boolean } => {
    const blocked = new Set<string>();
    const values = new Map<ValueCell, unknown>();
    for (const cell of plan.layout.cells) {
      const { value, ready } = rawValue(cell);
      if (ready) values.set(cell, value);
      else blocked.add(cell.field.arrayId ?? cell.field.id);
    }
    const layout: ValuesLayout = {
      cells: plan.layout.cells.filter((cell) => !blocked.has(cell.field.arrayId ?? cell.field.id)),
      arrays: new Map([...plan.layout.arrays].filter(([arrayId]) => !blocked.has(arrayId))),
    };
    return { input: toValuesInput(plan.structure, layout, (cell) => values.get(cell)), pending: blocked.size > 0 };
  };

  /** Updates an element in place when the values given differ from its own; true when it did. */
  const updateIfChanged = async (plan: ElementPlan, current: ElementRevision, input: Record<string, unknown>): Promise<boolean> => {
    const encoded = await applyValues(plan.structure, {}, input, scope(), { writeReadOnly: true });
    const changed = Object.entries(encoded).some(([id, value]) => !sameValue(value, current.values[id]));
    if (changed) await changeElement(scope(), platform.clock, String(current.initid), { values: input, writeReadOnly: true, comment: "Updated by bundle import" });
    return changed;
  };

  const outcomes = new Map<number, keyof ImportCounts>();
  const record = (plan: ElementPlan, outcome: keyof ImportCounts) => {
    const previous = outcomes.get(plan.index);
    if (previous === undefined || (previous === "unchanged" && outcome === "updated")) outcomes.set(plan.index, outcome);
  };
  const pending: { plan: ElementPlan; initid: number }[] = [];
  const write = async (plan: ElementPlan) => {
    const { entry, existing } = plan;
    // Unnamed entries are found by their content; an element in the trash stays there.
    if (existing && (entry.name === undefined || existing.status === "deleted")) return record(plan, "unchanged");
    const { input, pending: waits } = inputOf(plan);
    if (existing) {
      record(plan, (await updateIfChanged(plan, existing, input)) ? "updated" : "unchanged");
      if (waits) pending.push({ plan, initid: existing.initid });
      return;
    }
    const created = await insertElement(scope(), platform.clock, {
      structure: entry.structure,
      name: entry.name ?? null,
      values: input,
      owner: entry.owner === undefined ? defaultOwner : (owners.get(entry.owner) ?? defaultOwner),
      importKey: entry.name === undefined ? elementImportKey(entry) : null,
    });
    if (entry.name !== undefined) initids.set(entry.name, created.initid);
    record(plan, "created");
    if (waits) pending.push({ plan, initid: created.initid });
  };

  const state = plans.map(() => "new" as "new" | "visiting" | "done");
  const visit = async (plan: ElementPlan): Promise<void> => {
    if (state[plan.index] !== "new") return;
    state[plan.index] = "visiting";
    for (const name of referencedNames(plan)) {
      const target = indexByName.get(name);
      const targetPlan = target === undefined ? undefined : plans[target];
      if (targetPlan && !initids.has(name)) await visit(targetPlan);
    }
    await attempt(plan, () => write(plan));
    state[plan.index] = "done";
  };
  for (const plan of plans) await visit(plan);

  // Values that closed a cycle: every target exists now.
  for (const { plan, initid } of pending) {
    await attempt(plan, async () => {
      const current = await tx.elements.latest(initid);
      if (current && (await updateIfChanged(plan, current, inputOf(plan).input))) record(plan, "updated");
    });
  }
  for (const outcome of outcomes.values()) counts[outcome]++;
}

/** Logical names a plan's docid values give. */
function referencedNames(plan: ElementPlan): string[] {
  const names: string[] = [];
  for (const cell of plan.layout.cells) {
    if (cell.field.type !== "docid") continue;
    mapItems(cell.raw, cell.path, (item) => typeof item === "string" && names.push(item));
  }
  return names;
}

function uploadOf(path: string, readFile: FileReader): UploadedFile {
  const content = readFile(path);
  if (!content) throw new LineageError("BUNDLE0001", [`file "${path}" not found in the bundle's folder`]);
  const name = fileNameOf(path);
  return { kind: "upload", name, mime: mimeOfFile(name), content };
}

function sameValue(a: FieldValue | undefined, b: FieldValue | undefined): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null) || (isEmptyValue(a) && isEmptyValue(b));
}

/** Runs a write for an element; a refusal becomes a bundle problem at the element's path (the transaction rolls back). */
async function attempt(plan: ElementPlan, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    const problems = isLineageError(error) ? (error.data as { problems?: unknown } | undefined)?.problems : undefined;
    if (isLineageError(error) && !problems) throw writeError(plan.index, error.message);
    throw error;
  }
}

function writeError(index: number, message: string): LineageError {
  return bundleError([{ path: `$.elements[${index}]`, message }]);
}
