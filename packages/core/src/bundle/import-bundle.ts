import { HTTP_RIGHTS, type Account, type Group, type Role } from "../accounts/account.ts";
import type { Enumerate } from "../enumerates/enumerate.ts";
import type { Lifecycle } from "../lifecycle/lifecycle.ts";
import type { Profile } from "../access/profile.ts";
import type { FieldAccess } from "../access/field-access.ts";
import type { DashboardEntry } from "../dashboards/dashboard-entry.ts";
import { isLineageError, LineageError } from "../errors/lineage-error.ts";
import type { ElementRevision, FieldValue } from "../elements/smart-element.ts";
import type { UploadedFile } from "../elements/uploaded-file.ts";
import { applyValues } from "../elements/element-values.ts";
import { changeElement, insertElement } from "../elements/write-elements.ts";
import { loadDefinitions, type Definitions } from "../scope/definitions.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { createRequestScope } from "../scope/create-request-scope.ts";
import type { Repositories } from "../ports/store.port.ts";
import type { Platform } from "../platform.ts";
import type { NewAccount } from "../ports/account-repository.port.ts";
import type { StructureDefinition } from "../structures/smart-structure.ts";
import { isEmptyValue } from "../values/field-value-codec.ts";
import { checkBundleSource } from "./bundle-problems.ts";
import type { BundleProblem } from "./problems/bundle-check.ts";
import type { BundleNames } from "./bundle-names.ts";
import { bundleSourceOf, type BundleSource } from "./bundle-source.ts";
import type { ImportProgressListener } from "./import-progress.ts";
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
import { SYSTEM_ACCOUNT, systemPrincipal } from "./system-principal.ts";
import { searchDomainOf } from "../search/bundle-search-domain.ts";
import type { SearchDomain } from "../search/search-domain.ts";

export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/** The elements' counts, and how many of the updated ones had been changed since the import before (by an account, not an import). */
export interface ElementImportCounts extends ImportCounts {
  overwritten: number;
}

/** What an import did, per kind. */
export interface ImportReport {
  readonly roles: ImportCounts;
  readonly groups: ImportCounts;
  readonly users: ImportCounts;
  readonly enumerates: ImportCounts;
  readonly profiles: ImportCounts;
  readonly fieldAccesses: ImportCounts;
  readonly lifecycles: ImportCounts;
  readonly structures: ImportCounts;
  readonly elements: ElementImportCounts;
  readonly searchDomains: ImportCounts;
  readonly dashboards: ImportCounts;
}

export interface ImportBundleOptions {
  /** The content of a file named by the bundle, relative to its folder; undefined when there is none. */
  readFile(relativePath: string): Uint8Array | undefined;
  /** Told as the import reads, checks and writes the elements. */
  onProgress?: ImportProgressListener | undefined;
}

/**
 * Imports a bundle (bundle.md) as the system principal. Everything is checked
 * first: on any problem a BUNDLE0001 error lists them all in `data.problems`
 * and nothing is written. Then one transaction saves accounts, enumerates,
 * profiles, field accesses, lifecycles, structures and elements. Idempotent: importing the
 * same bundle again changes nothing.
 * @example
 * const report = await importBundle(platform, JSON.parse(text), {
 *   readFile: (path) => readFileSync(join(folder, path)),
 * });
 */
export function importBundle(platform: Platform, input: unknown, options: ImportBundleOptions): Promise<ImportReport> {
  return importBundleSource(platform, bundleSourceOf(input), options);
}

/**
 * importBundle over a source, with a batch of elements in memory at a time. The source is read
 * three times: definitions, names and the elements' shape; the element values; the writes, in
 * the import's one transaction. A fourth read sets the docid values that name elements of later
 * batches (or that close a cycle), once their targets exist.
 */
export async function importBundleSource(platform: Platform, source: BundleSource, options: ImportBundleOptions): Promise<ImportReport> {
  const check = await checkBundleSource(source, { store: platform.store, readFile: options.readFile, onProgress: options.onProgress });
  const bundle = check.definitions;
  if (!bundle) throw bundleError(check.problems);
  const passwords = await passwordHashes(platform, bundle.accounts?.users ?? []);
  return platform.store.transaction(async (tx) => {
    const report = await writeDefinitions(tx, bundle, passwords);
    const elements: ElementsImport = { source, names: check.names, total: check.elementCount, readFile: options.readFile, onProgress: options.onProgress };
    await importElements(platform, tx, elements, report.elements);
    return report;
  });
}

/** The error of a refused bundle: BUNDLE0001 with every problem in `data.problems`. */
export function bundleError(problems: readonly BundleProblem[]): LineageError {
  const first = problems[0];
  const summary = first
    ? `${problems.length} problem${problems.length > 1 ? "s" : ""}, the first at ${first.path}: ${first.message}`
    : "no bundle";
  return new LineageError("BUNDLE0001", [summary], { data: { problems } });
}

/**
 * One line per kind, for the command line: `elements: 3 created, 1 updated, 12 unchanged`; the
 * elements' line says how many updates overwrote a change made since the import before.
 */
export function formatImportReport(report: ImportReport): string {
  return Object.entries(report)
    .map(([kind, counts]: [string, Partial<ElementImportCounts> & { accepted?: number }]) =>
      counts.accepted !== undefined
        ? `${kind}: ${counts.accepted} accepted`
        : `${kind}: ${counts.created ?? 0} created, ${counts.updated ?? 0} updated, ${counts.unchanged ?? 0} unchanged` +
          (counts.overwritten ? ` (${counts.overwritten} of them changed since the last import: those changes are overwritten)` : ""))
    .join("\n");
}

/** The warning an import that overwrote changes deserves, naming the bundle; undefined when it overwrote none. */
export function overwriteWarning(bundle: string, report: ImportReport): string | undefined {
  const n = report.elements.overwritten;
  if (n === 0) return undefined;
  return `${bundle}: ${n} element${n > 1 ? "s" : ""} changed since the last import ${n > 1 ? "were" : "was"} overwritten with the bundle's values`;
}

type FileReader = (relativePath: string) => Uint8Array | undefined;

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

/** Saves every kind but the elements, and answers the report with the elements' counts at zero. */
async function writeDefinitions(tx: Repositories, bundle: Bundle, passwords: ReadonlyMap<string, string | null>): Promise<ImportReport> {
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

/* ---------- Elements ---------- */

/** The elements to write: the source to read them from again, and what checking it found. */
interface ElementsImport {
  readonly source: BundleSource;
  readonly names: BundleNames;
  readonly total: number;
  readonly readFile: FileReader;
  readonly onProgress: ImportProgressListener | undefined;
}

interface ElementPlan {
  readonly entry: BundleElement;
  /** Its index in `elements`. */
  readonly index: number;
  readonly structure: StructureDefinition;
  readonly layout: ValuesLayout;
  /** The element this entry already made, found by logical name or import key. */
  readonly existing: ElementRevision | undefined;
}

/** What the batches of one import share. */
interface ImportRun {
  readonly platform: Platform;
  readonly tx: Repositories;
  readonly elements: ElementsImport;
  readonly counts: ElementImportCounts;
  /** The definitions the transaction wrote. */
  readonly definitions: Definitions;
  /** A scope per write, so none reads an element from before another write. */
  scope(): RequestScope;
  readonly defaultOwner: number;
  /** Owner ids by login, read once per login. */
  readonly owners: Map<string, number>;
  /** Entries whose docid values wait for elements written later: their lineage's initid by entry index. */
  readonly pending: Map<number, number>;
  /** The outcome of the pending entries so far, counted once they are done. */
  readonly pendingOutcomes: Map<number, keyof ImportCounts>;
}

/**
 * Creates or updates the elements, a batch at a time. docid values naming an
 * element of the bundle become its initid: a batch is written in dependency
 * order; a value naming an element of a later batch (or closing a cycle) is
 * set once every batch is written.
 */
async function importElements(platform: Platform, tx: Repositories, elements: ElementsImport, counts: ElementImportCounts): Promise<void> {
  const system = systemPrincipal();
  // The definitions the transaction wrote above.
  const definitions = await loadDefinitions(tx, "");
  const run: ImportRun = {
    platform, tx, elements, counts, definitions,
    scope: () => createRequestScope(tx, system, definitions, undefined, platform.hasher),
    defaultOwner: (await tx.accounts.byLogin("admin"))?.id ?? system.account.id,
    owners: new Map(),
    pending: new Map(),
    pendingOutcomes: new Map(),
  };
  const writeAll = async () => {
    let done = 0;
    for await (const part of elements.source.read()) {
      if (part.kind !== "elements") continue;
      await importBatch(run, await planBatch(run, part.first, part.entries as readonly BundleElement[]));
      done += part.entries.length;
      elements.onProgress?.({ phase: "writing", done, total: elements.total });
    }
    if (run.pending.size === 0) return;
    // Values that name elements of later batches or close a cycle: every target exists now.
    for await (const part of elements.source.read()) {
      if (part.kind !== "elements") continue;
      const entries = part.entries.flatMap((entry, k) => (run.pending.has(part.first + k) ? [{ entry: entry as BundleElement, index: part.first + k }] : []));
      if (entries.length > 0) await completeBatch(run, entries);
    }
    for (const outcome of run.pendingOutcomes.values()) counts[outcome]++;
  };
  // A store may maintain its list indexes once for the whole import rather than row by row.
  await (tx.elements.bulkWrite ? tx.elements.bulkWrite(elements.total, writeAll) : writeAll());
}

/** The plans of a batch: each entry's structure, values laid out, and the element it already made. */
async function planBatch(run: ImportRun, first: number, entries: readonly BundleElement[]): Promise<ElementPlan[]> {
  const { tx } = run;
  const named = new Map((await tx.elements.latestByNames(entries.flatMap((entry) => (entry.name === undefined ? [] : [entry.name])))).map((e) => [e.name, e]));
  const plans: ElementPlan[] = [];
  for (const [k, entry] of entries.entries()) {
    const index = first + k;
    const structure = run.definitions.structure(entry.structure);
    if (!structure) throw writeError(index, `unknown structure "${entry.structure}"`);
    const existing = entry.name !== undefined ? named.get(entry.name) : await tx.elements.byImportKey(elementImportKey(entry)).then((found) => found && tx.elements.latest(found.initid));
    const layout = layoutValues(structure, entry.values ?? {}, `$.elements[${index}].values`, (path, message) => {
      throw writeError(index, `${path}: ${message}`);
    });
    plans.push({ entry, index, structure, layout, existing });
  }
  for (const login of new Set(entries.flatMap((entry) => (entry.owner === undefined || run.owners.has(entry.owner) ? [] : [entry.owner])))) {
    run.owners.set(login, (await tx.accounts.byLogin(login))?.id ?? run.defaultOwner);
  }
  return plans;
}

/**
 * The initids of the bundle's elements that `plans` name and that exist already (written by an
 * earlier batch or an earlier import); those of the plans themselves come from the plans, unless
 * `afterwards` (every plan has been written).
 */
async function knownInitids(run: ImportRun, plans: readonly ElementPlan[], afterwards = false): Promise<Map<string, number>> {
  const initids = new Map<string, number>();
  const own = new Set<string>();
  for (const plan of plans) {
    if (plan.entry.name === undefined || afterwards) continue;
    own.add(plan.entry.name);
    if (plan.existing) initids.set(plan.entry.name, plan.existing.initid);
  }
  const others = new Set(plans.flatMap((plan) => referencedNames(plan).filter((name) => run.elements.names.has(name) && !own.has(name))));
  for (const found of await run.tx.elements.latestByNames([...others])) if (found.name !== null) initids.set(found.name, found.initid);
  return initids;
}

/** The applyValues input of a plan, without the fields that reference elements not written yet. */
function inputOf(run: ImportRun, plan: ElementPlan, initids: ReadonlyMap<string, number>): { input: Record<string, unknown>; pending: boolean } {
  const blocked = new Set<string>();
  const values = new Map<ValueCell, unknown>();
  for (const cell of plan.layout.cells) {
    let ready = true;
    const { type } = cell.field;
    // Files are read from the bundle's folder; references to the bundle's elements become initids.
    const value = type === "file" || type === "image"
      ? mapItems(cell.raw, cell.path, (item) => (isFileRef(item) ? uploadOf(item.file, run.elements.readFile) : item))
      : type === "docid"
        ? mapItems(cell.raw, cell.path, (item) => {
          if (typeof item !== "string" || !run.elements.names.has(item)) return item;
          const initid = initids.get(item);
          if (initid === undefined) ready = false;
          return initid;
        })
        : cell.raw;
    if (ready) values.set(cell, value);
    else blocked.add(cell.field.arrayId ?? cell.field.id);
  }
  const layout: ValuesLayout = {
    cells: plan.layout.cells.filter((cell) => !blocked.has(cell.field.arrayId ?? cell.field.id)),
    arrays: new Map([...plan.layout.arrays].filter(([arrayId]) => !blocked.has(arrayId))),
  };
  return { input: toValuesInput(plan.structure, layout, (cell) => values.get(cell)), pending: blocked.size > 0 };
}

/** Updates an element in place when the values given differ from its own; true when it did. */
async function updateIfChanged(run: ImportRun, plan: ElementPlan, current: ElementRevision, input: Record<string, unknown>): Promise<boolean> {
  // Over the current values: a password given again keeps its hash, and so reads as unchanged.
  const encoded = await applyValues(plan.structure, current.values, input, run.scope(), { writeReadOnly: true });
  const ownProfile = plan.entry.profile ?? null;
  const changed = ownProfile !== current.ownProfile || Object.entries(encoded).some(([id, value]) => !sameValue(value, current.values[id]));
  if (!changed) return false;
  // Imports write as the system account: a latest history line by anyone else is a change the import is about to undo.
  if (((await run.tx.elements.history(current.initid))[0]?.accountId ?? SYSTEM_ACCOUNT.id) !== SYSTEM_ACCOUNT.id) run.counts.overwritten++;
  await changeElement(run.scope(), run.platform.clock, String(current.initid), {
    values: input, writeReadOnly: true, comment: "Updated by bundle import", ownProfile,
  });
  return true;
}

/** Writes a batch, each element after the elements of the batch it names. */
async function importBatch(run: ImportRun, plans: readonly ElementPlan[]): Promise<void> {
  const initids = await knownInitids(run, plans);
  const byName = new Map(plans.flatMap((plan) => (plan.entry.name === undefined ? [] : [[plan.entry.name, plan] as const])));
  const outcomes = new Map<ElementPlan, keyof ImportCounts>();

  const write = async (plan: ElementPlan): Promise<void> => {
    const { entry, existing } = plan;
    // Unnamed entries are found by their content; an element in the trash stays there.
    if (existing && (entry.name === undefined || existing.status === "deleted")) return void outcomes.set(plan, "unchanged");
    const { input, pending } = inputOf(run, plan, initids);
    let initid: number;
    if (existing) {
      outcomes.set(plan, (await updateIfChanged(run, plan, existing, input)) ? "updated" : "unchanged");
      initid = existing.initid;
    } else {
      const created = await insertElement(run.scope(), run.platform.clock, {
        structure: entry.structure,
        name: entry.name ?? null,
        values: input,
        owner: entry.owner === undefined ? run.defaultOwner : (run.owners.get(entry.owner) ?? run.defaultOwner),
        importKey: entry.name === undefined ? elementImportKey(entry) : null,
        ownProfile: entry.profile ?? null,
      });
      if (entry.name !== undefined) initids.set(entry.name, created.initid);
      outcomes.set(plan, "created");
      initid = created.initid;
    }
    if (pending) run.pending.set(plan.index, initid);
  };

  const state = new Map<ElementPlan, "visiting" | "done">();
  const visit = async (plan: ElementPlan): Promise<void> => {
    if (state.has(plan)) return;
    state.set(plan, "visiting");
    for (const name of referencedNames(plan)) {
      const target = byName.get(name);
      if (target && !initids.has(name)) await visit(target);
    }
    await attempt(plan, () => write(plan));
    state.set(plan, "done");
  };
  for (const plan of plans) await visit(plan);
  for (const [plan, outcome] of outcomes) {
    if (run.pending.has(plan.index)) run.pendingOutcomes.set(plan.index, outcome);
    else run.counts[outcome]++;
  }
}

/** Sets the values that waited for elements of later batches, on the lineages written for these entries. */
async function completeBatch(run: ImportRun, entries: readonly { entry: BundleElement; index: number }[]): Promise<void> {
  const plans: ElementPlan[] = [];
  for (const { entry, index } of entries) {
    const structure = run.definitions.structure(entry.structure);
    if (!structure) throw writeError(index, `unknown structure "${entry.structure}"`);
    plans.push({ entry, index, structure, layout: layoutValues(structure, entry.values ?? {}, `$.elements[${index}].values`, () => {}), existing: undefined });
  }
  const initids = await knownInitids(run, plans, true);
  for (const plan of plans) {
    await attempt(plan, async () => {
      const current = await run.tx.elements.latest(run.pending.get(plan.index) ?? 0);
      if (current && (await updateIfChanged(run, plan, current, inputOf(run, plan, initids).input)) && run.pendingOutcomes.get(plan.index) === "unchanged") {
        run.pendingOutcomes.set(plan.index, "updated");
      }
    });
  }
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
