import * as v from "valibot";
import { ADMIN_ROLE, type Account } from "../accounts/account.ts";
import type { Enumerate } from "../enumerates/enumerate.ts";
import { isLineageError } from "../errors/lineage-error.ts";
import type { ElementRevision } from "../elements/smart-element.ts";
import { loadDefinitions, type Definitions } from "../scope/definitions.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { createRequestScope } from "../scope/create-request-scope.ts";
import type { Store } from "../ports/store.port.ts";
import type { VaultFile } from "../ports/vault.port.ts";
import type { SmartField } from "../structures/smart-field.ts";
import { fieldIndex, type SmartStructure, type StructureDefinition } from "../structures/smart-structure.ts";
import { resolveStructures, type ResolvedStructure } from "../structures/structure-inheritance.ts";
import { encodeFieldValue, isEmptyValue } from "../values/field-value-codec.ts";
import type { ValueContext } from "../values/value-context.ts";
import {
  BundleSchema,
  ElementSchema,
  type Bundle,
  type BundleDashboard,
  type BundleElement,
  type BundleEnumItem,
  type BundleField,
  type BundleGroup,
  type BundleLifecycle,
  type BundleProfile,
  type BundleFieldAccess,
  type BundleRole,
  type BundleSearchDomain,
  type BundleStructure,
  type BundleUser,
} from "./bundle.schema.ts";
import {
  elementImportKey,
  fileNameOf,
  filePathProblem,
  isFileRef,
  jsonPath,
  layoutValues,
  mapItems,
  mimeOfFile,
  pathStep,
} from "./bundle-values.ts";
import { systemPrincipal } from "./system-principal.ts";
import { referencesIn, type RawReferences } from "../elements/element-values.ts";
import type { PasswordHash } from "../values/password-value.ts";
import { BundleNames } from "./bundle-names.ts";
import { bundleSourceOf, type BundleSource } from "./bundle-source.ts";
import type { ImportProgressListener } from "./import-progress.ts";
import { extendsProblem, inheritedFieldProblems } from "./inheritance-problems.ts";

/** One thing wrong in a bundle, where it is (`$.structures[0].fields[2].type`) and why. */
export interface BundleProblem {
  readonly path: string;
  readonly message: string;
}

export interface BundleCheckOptions {
  /** What the bundle may refer to besides itself (structures, accounts, elements of earlier imports). */
  readonly store: Store;
  /** The content of a file of the bundle's folder, or undefined when there is none. */
  readonly readFile: (relativePath: string) => Uint8Array | undefined;
  /** Told as the elements are read, then checked. */
  readonly onProgress?: ImportProgressListener | undefined;
}

export interface BundleCheck {
  /** The bundle, typed, when it has no problem at all. */
  readonly bundle: Bundle | undefined;
  /** Every problem found: schema problems first, then references and values, in document order. */
  readonly problems: readonly BundleProblem[];
}

/** What checking a bundle source found, and what its import needs of it. */
export interface SourceCheck {
  /** Every root key but the elements, typed, when the bundle has no problem at all. */
  readonly definitions: Bundle | undefined;
  readonly problems: readonly BundleProblem[];
  /** The logical names of the elements. */
  readonly names: BundleNames;
  /** How many entries `elements` holds. */
  readonly elementCount: number;
}

/** Element problems listed at most: past this many, the last problem says how many more there are. */
export const MAX_ELEMENT_PROBLEMS = 10_000;

/**
 * Checks a bundle without writing anything: its shape (BundleSchema), then
 * names, references, files and element values. Every problem is collected;
 * parts whose shape is wrong are left out of the later checks only.
 * @example
 * const { problems } = await checkBundle(JSON.parse(text), { store, readFile });
 * for (const p of problems) console.log(`${p.path}: ${p.message}`);
 */
export async function checkBundle(input: unknown, options: BundleCheckOptions): Promise<BundleCheck> {
  const { definitions, problems } = await checkBundleSource(bundleSourceOf(input), options);
  // The schema only validates (no transform): a valid input is its own output.
  return { bundle: definitions && (input as Bundle), problems };
}

/**
 * checkBundle over a source, reading it twice with a batch of elements in memory at a time: the
 * first read takes the definitions and checks each element's shape and names, the second
 * checks the element values against the definitions, wherever they stand in the file.
 */
export async function checkBundleSource(source: BundleSource, options: BundleCheckOptions): Promise<SourceCheck> {
  const read = await readElements(source, options.onProgress);
  if (read.root) {
    // valibot takes an array for an object with no keys.
    const problems = Array.isArray(read.root.value)
      ? [{ path: "$", message: "a bundle is a JSON object" }]
      : issueProblems(v.safeParse(BundleSchema, read.root.value).issues ?? []);
    return { definitions: undefined, problems, names: read.names, elementCount: 0 };
  }
  const parsed = v.safeParse(BundleSchema, read.sections);
  const issues = parsed.success ? [] : parsed.issues;
  const schema = issueProblems(issues);
  const view = viewOf(read.sections, issues, read.names);
  const facts = await storeFacts(view, options.store, read.owners);
  const known = knownNames(view, facts);
  const { head, tail } = definitionProblems(view, known);
  const elements = read.count > 0 && !view.rootInvalid ? await checkElements(source, read, view, known, options, facts) : [];
  // Problems of the elements' shape stand where `elements` stands among the schema's keys.
  const after = schema.filter((problem) => SCHEMA_KEYS_AFTER_ELEMENTS.some((key) => problem.path.startsWith(`$.${key}`)) || isUnknownRootKey(problem));
  const before = schema.filter((problem) => !after.includes(problem));
  // checkElements tells how many problems of the elements, shape or values, were left out.
  const problems = [...before, ...read.schemaProblems, ...after, ...head, ...elements, ...tail];
  return { definitions: problems.length === 0 ? (read.sections as Bundle) : undefined, problems, names: read.names, elementCount: read.count };
}

/** The root keys the schema lists after `elements`: their problems come after those of the elements' shape. */
const SCHEMA_KEYS_AFTER_ELEMENTS = ["searchDomains", "dashboards"] as const;

const isUnknownRootKey = (problem: BundleProblem) => /^\$(\.[A-Za-z_$][A-Za-z0-9_$]*|\[".*"\])$/.test(problem.path) && problem.message.startsWith("unknown key");

/** Problems of valibot issues, with JSON paths and short messages; `prefix` is the path of the value checked. */
export function issueProblems(issues: readonly v.BaseIssue<unknown>[], prefix: readonly (string | number)[] = []): BundleProblem[] {
  return issues.map((issue) => {
    const keys = [...prefix, ...(issue.path ?? []).map((item) => item.key as string | number)];
    const last = issue.path?.at(-1);
    const isObject = /object/.test(issue.type);
    let message: string;
    if (isObject && last?.origin === "key" && issue.expected === "never") message = `unknown key "${String(last.key)}"`;
    else if (isObject && issue.input === undefined && last) message = `missing key "${String(last.key)}"`;
    else if (last?.origin === "key") message = `invalid name "${String(last.key)}": ${tidy(issue.message)}`;
    else message = tidy(issue.message);
    return { path: jsonPath(keys), message };
  });
}

function tidy(message: string): string {
  return message.replace(/^Invalid \w+: E/, "e");
}

/* ---------- The first read: definitions, and what each element names ---------- */

/** What the first read of a source gives. */
interface ElementsRead {
  /** Every root key but an `elements` list. */
  readonly sections: Record<string, unknown>;
  /** Set when the bundle is not a JSON object. */
  readonly root: { readonly value: unknown } | undefined;
  readonly count: number;
  readonly names: BundleNames;
  /** Entries whose shape is wrong: left out of the later checks. */
  readonly invalid: ReadonlySet<number>;
  /** Problems found on the first read (duplicate names and contents), told with their entry's other problems. */
  readonly early: ReadonlyMap<number, readonly BundleProblem[]>;
  readonly schemaProblems: readonly BundleProblem[];
  /** Schema problems past MAX_ELEMENT_PROBLEMS. */
  readonly omitted: number;
  /** Logins the entries name as owners. */
  readonly owners: ReadonlySet<string>;
}

async function readElements(source: BundleSource, onProgress: ImportProgressListener | undefined): Promise<ElementsRead> {
  const sections: Record<string, unknown> = {};
  let root: ElementsRead["root"];
  const names = new BundleNames();
  const invalid = new Set<number>();
  const early = new Map<number, BundleProblem[]>();
  const schemaProblems: BundleProblem[] = [];
  const importKeys = new Map<string, number>();
  const owners = new Set<string>();
  let count = 0;
  let omitted = 0;
  const tell = (index: number, problem: BundleProblem) => {
    const list = early.get(index);
    if (list) list.push(problem);
    else early.set(index, [problem]);
  };
  for await (const part of source.read()) {
    if (part.kind === "root") root = { value: part.value };
    else if (part.kind === "section") sections[part.key] = part.value;
    else {
      part.entries.forEach((raw, k) => {
        const index = part.first + k;
        const { name, structure } = asObject(raw);
        if (typeof name === "string") {
          const first = names.add(name, index, typeof structure === "string" ? structure : "");
          if (first !== undefined) tell(index, { path: `$.elements[${index}].name`, message: `duplicate logical name "${name}" (first at $.elements[${first}])` });
        }
        const parsed = v.safeParse(ElementSchema, raw);
        if (!parsed.success) {
          invalid.add(index);
          const problems = issueProblems(parsed.issues, ["elements", index]);
          const room = Math.max(0, MAX_ELEMENT_PROBLEMS - schemaProblems.length);
          schemaProblems.push(...problems.slice(0, room));
          omitted += problems.length - Math.min(room, problems.length);
          return;
        }
        const element = parsed.output;
        if (element.owner !== undefined) owners.add(element.owner);
        if (element.name === undefined) {
          const key = elementImportKey(element);
          const earlier = importKeys.get(key);
          if (earlier === undefined) importKeys.set(key, index);
          else tell(index, { path: `$.elements[${index}]`, message: `same structure, owner and values as $.elements[${earlier}]: give one of them a name` });
        }
      });
      count = Math.max(count, part.first + part.entries.length);
      onProgress?.({ phase: "reading", done: count });
    }
  }
  return { sections, root, count, names, invalid, early, schemaProblems, omitted, owners };
}

/* ---------- The parts of the bundle whose shape is valid ---------- */

/** Entries by section; undefined where an entry's shape is wrong (its index is kept for paths). */
interface BundleView {
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

const asObject = (raw: unknown): Record<string, unknown> =>
  typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
const asArray = (raw: unknown): readonly unknown[] => (Array.isArray(raw) ? raw : []);

function viewOf(input: Record<string, unknown>, issues: readonly v.BaseIssue<unknown>[], elementNames: BundleNames): BundleView {
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

/* ---------- References, names, files and values ---------- */

type Report = (path: string, message: string) => void;

/** Where names resolve: the bundle first, then the store. */
interface Known {
  role(id: string): boolean;
  group(id: string): boolean;
  user(login: string): boolean;
  enumerate(name: string): boolean;
  profile(name: string): boolean;
  fieldAccess(name: string): boolean;
  /** The structures that name this field access, or inherit it, as the import will leave them (whole ones only). */
  fieldAccessUsers(name: string): readonly ResolvedStructure<StructureDefinition>[];
  lifecycle(name: string): boolean;
  /**
   * The definition of a structure, whole (inherited fields included), as the bundle leaves it;
   * undefined also when the bundle's entry for it or for one of its ancestors is invalid, or its
   * parents are unknown or make a cycle (see structureDeclared).
   */
  structure(name: string): ResolvedStructure<StructureDefinition> | undefined;
  structureDeclared(name: string): boolean;
  /** The parent a structure names (`extends`), as the bundle leaves it. */
  parentOf(name: string): string | undefined;
  /** A structure as the bundle or the store gives it (not resolved), as the bundle leaves it. */
  definition(name: string): StructureDefinition | undefined;
  /** The stored structures the bundle does not give. */
  readonly storedOnly: readonly string[];
  /** A stored structure resolved as the store has it, before the bundle. */
  stored(name: string): ResolvedStructure<StructureDefinition> | undefined;
}

/** What the checks read of the store beforehand, in a few batch calls: the checks themselves are synchronous. */
interface StoreFacts {
  readonly definitions: Definitions;
  /** The stored structures as their bundles gave them (not resolved): the bundle's may change their parents. */
  readonly structures: readonly SmartStructure[];
  /** Logins the bundle names (grants, owners) that have an account. */
  readonly logins: ReadonlySet<string>;
}

const USER_GRANT = /^user:(.+)$/;

/** Reads what the definitions may refer to in the store: its definitions, and the accounts the bundle names. */
async function storeFacts(view: BundleView, store: Store, owners: ReadonlySet<string>): Promise<StoreFacts> {
  const [definitions, structures] = await Promise.all([loadDefinitions(store, ""), store.catalog.structures()]);
  const logins = new Set<string>(owners);
  const grant = (entry: unknown) => {
    const login = typeof entry === "string" ? USER_GRANT.exec(entry)?.[1] : undefined;
    if (login !== undefined) logins.add(login);
  };
  for (const profile of view.profiles) for (const entries of Object.values(profile?.grants ?? {})) entries?.forEach(grant);
  for (const access of view.fieldAccesses) for (const layer of access?.layers ?? []) grant(layer.grant);
  for (const lifecycle of view.lifecycles) for (const transition of lifecycle?.transitions ?? []) transition.grants?.forEach(grant);
  const accounts = await Promise.all([...logins].map((login) => store.accounts.byLogin(login)));
  return { definitions, structures, logins: new Set(accounts.flatMap((account) => (account ? [account.login] : []))) };
}

function knownNames(view: BundleView, facts: StoreFacts): Known {
  const { definitions } = facts;
  // The structures as the import will leave them: the bundle's entries (valid or not) in place of the stored ones.
  const given = new Map<string, StructureDefinition>(facts.structures.filter((s) => !view.declared.structures.has(s.name)).map((s) => [s.name, s]));
  for (const [name, structure] of firstByName(view.structures, (s) => s.name)) given.set(name, { ...structure, fields: structure.fields ?? [] });
  const resolved = new Map(resolveStructures([...given.values()]).map((s) => [s.name, s]));
  const stored = new Map(resolveStructures(facts.structures).map((s) => [s.name, s]));
  // Whole: every ancestor has a valid definition, and none comes back to the structure (asked once per element: kept).
  const wholes = new Map<string, boolean>();
  const whole = (name: string): boolean => {
    let found = wholes.get(name);
    if (found === undefined) {
      const seen = new Set([name]);
      found = given.has(name);
      for (let parent = given.get(name)?.extends; found && parent !== undefined; parent = given.get(parent)?.extends) {
        found = !seen.has(parent) && given.has(parent);
        seen.add(parent);
      }
      wholes.set(name, found);
    }
    return found;
  };
  return {
    role: (id) => id === ADMIN_ROLE || view.declared.roles.has(id) || definitions.roles().some((r) => r.id === id),
    group: (id) => view.declared.groups.has(id) || definitions.groups().some((g) => g.id === id),
    user: (login) => view.declared.users.has(login) || facts.logins.has(login),
    enumerate: (name) => view.enumerates.has(name) || definitions.enumerate(name) !== undefined,
    profile: (name) => view.declared.profiles.has(name) || definitions.profile(name) !== undefined,
    fieldAccess: (name) => view.declared.fieldAccesses.has(name) || definitions.fieldAccess(name) !== undefined,
    fieldAccessUsers: (name) => [...resolved.values()].filter((s) => s.fieldAccess === name && whole(s.name)),
    lifecycle: (name) => view.declared.lifecycles.has(name) || definitions.lifecycle(name) !== undefined,
    structure: (name) => (whole(name) ? resolved.get(name) : undefined),
    structureDeclared: (name) => view.declared.structures.has(name) || definitions.structure(name) !== undefined,
    parentOf: (name) => given.get(name)?.extends,
    definition: (name) => given.get(name),
    storedOnly: facts.structures.filter((s) => !view.declared.structures.has(s.name)).map((s) => s.name),
    stored: (name) => stored.get(name),
  };
}

/** The problems of the definitions: `head` those of the sections the schema lists before the elements, `tail` after. */
function definitionProblems(view: BundleView, known: Known): { head: BundleProblem[]; tail: BundleProblem[] } {
  const head: BundleProblem[] = [];
  const tail: BundleProblem[] = [];
  if (view.rootInvalid) return { head, tail };
  let problems = head;
  const report: Report = (path, message) => problems.push({ path, message });
  checkAccounts(view, known, report);
  checkEnumerates(view, report);
  view.profiles.forEach((profile, i) => {
    if (!profile) return;
    for (const [permission, entries] of Object.entries(profile.grants ?? {})) {
      entries?.forEach((entry, k) => checkGrant(entry, `$.profiles[${i}].grants.${permission}[${k}]`, known, report));
    }
  });
  duplicates(view.profiles, (p) => p.name, "$.profiles", "name", "profile", report);
  checkFieldAccesses(view, known, report);
  checkLifecycles(view, known, report);
  checkStructures(view, known, report);
  checkStoredDescendants(view, known, report);
  problems = tail;
  checkSearchDomains(view, known, report);
  duplicates(view.dashboards, (d) => d.slug, "$.dashboards", "slug", "dashboard", report);
  view.dashboards.forEach((dashboard, i) => {
    dashboard?.roles?.forEach((role, k) => {
      if (!known.role(role)) report(`$.dashboards[${i}].roles[${k}]`, `unknown role "${role}"`);
    });
  });
  return { head, tail };
}

function firstByName<T>(entries: readonly (T | undefined)[], name: (entry: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  for (const entry of entries) if (entry && !map.has(name(entry))) map.set(name(entry), entry);
  return map;
}

/** Reports every entry whose identifier an earlier entry already has. */
function duplicates<T>(
  entries: readonly (T | undefined)[],
  id: (entry: T) => string,
  path: string,
  key: string,
  what: string,
  report: Report,
): void {
  const first = new Map<string, number>();
  entries.forEach((entry, i) => {
    if (!entry) return;
    const value = id(entry);
    const earlier = first.get(value);
    if (earlier === undefined) first.set(value, i);
    else report(`${path}[${i}].${key}`, `duplicate ${what} "${value}" (first at ${path}[${earlier}])`);
  });
}

const GRANT = /^(role|group|user):(.+)$/;

function checkGrant(entry: string, path: string, known: Known, report: Report): void {
  const match = GRANT.exec(entry);
  if (!match) return report(path, `"${entry}" is not role:ID, group:ID or user:LOGIN`);
  const [, kind, id = ""] = match;
  if (kind === "role" && !known.role(id)) report(path, `unknown role "${id}"`);
  if (kind === "group" && !known.group(id)) report(path, `unknown group "${id}"`);
  if (kind === "user" && !known.user(id)) report(path, `unknown user "${id}"`);
}

/** Field accesses: unique names, known grantees, and fields that a structure naming the field access has. */
function checkFieldAccesses(view: BundleView, known: Known, report: Report): void {
  duplicates(view.fieldAccesses, (a) => a.name, "$.fieldAccesses", "name", "field access", report);
  view.fieldAccesses.forEach((access, i) => {
    if (!access) return;
    const users = known.fieldAccessUsers(access.name);
    const fields = new Set(users.flatMap((structure) => [...fieldIndex(structure).keys()]));
    access.layers.forEach((layer, k) => {
      const path = `$.fieldAccesses[${i}].layers[${k}]`;
      checkGrant(layer.grant, `${path}.grant`, known, report);
      // A field access no structure names yet may name any field: the structures come later.
      if (users.length === 0) return;
      for (const id of Object.keys(layer.fields)) {
        if (!fields.has(id)) report(`${path}.fields${pathStep(id)}`, `no structure with field access "${access.name}" has a field "${id}"`);
      }
    });
  });
}

function checkAccounts(view: BundleView, known: Known, report: Report): void {
  duplicates(view.roles, (r) => r.id, "$.accounts.roles", "id", "role", report);
  duplicates(view.groups, (g) => g.id, "$.accounts.groups", "id", "group", report);
  duplicates(view.users, (u) => u.login, "$.accounts.users", "login", "login", report);
  view.groups.forEach((group, i) => {
    group?.roles?.forEach((role, k) => {
      if (!known.role(role)) report(`$.accounts.groups[${i}].roles[${k}]`, `unknown role "${role}"`);
    });
  });
  view.users.forEach((user, i) => {
    user?.roles?.forEach((role, k) => {
      if (!known.role(role)) report(`$.accounts.users[${i}].roles[${k}]`, `unknown role "${role}"`);
    });
    user?.groups?.forEach((group, k) => {
      if (!known.group(group)) report(`$.accounts.users[${i}].groups[${k}]`, `unknown group "${group}"`);
    });
  });
}

function checkEnumerates(view: BundleView, report: Report): void {
  for (const [name, items] of view.enumerates) {
    if (!items) continue;
    const path = `$.enumerates${pathStep(name)}`;
    duplicates(items, (item) => item.key, path, "key", "key", report);
    const parents = new Map(items.map((item) => [item.key, item.parentKey]));
    items.forEach((item, i) => {
      if (item.parentKey === undefined) return;
      if (!parents.has(item.parentKey)) return report(`${path}[${i}].parentKey`, `enumerate "${name}" has no key "${item.parentKey}"`);
      // Walk up: a tree never comes back to where it started.
      const seen = new Set([item.key]);
      for (let key: string | undefined = item.parentKey; key !== undefined; key = parents.get(key)) {
        if (seen.has(key)) return report(`${path}[${i}].parentKey`, `the parents of "${item.key}" make a cycle`);
        seen.add(key);
      }
    });
  }
}

function checkLifecycles(view: BundleView, known: Known, report: Report): void {
  duplicates(view.lifecycles, (l) => l.name, "$.lifecycles", "name", "lifecycle", report);
  view.lifecycles.forEach((lifecycle, i) => {
    if (!lifecycle) return;
    const path = `$.lifecycles[${i}]`;
    const states = new Set(lifecycle.states.map((state) => state.id));
    duplicates(lifecycle.states, (s) => s.id, `${path}.states`, "id", "state", report);
    lifecycle.states.forEach((state, k) => {
      if (state.profile !== undefined && !known.profile(state.profile)) report(`${path}.states[${k}].profile`, `unknown profile "${state.profile}"`);
    });
    if (!states.has(lifecycle.firstState)) report(`${path}.firstState`, `"${lifecycle.firstState}" is not a state of "${lifecycle.name}"`);
    const transitions = lifecycle.transitions ?? [];
    duplicates(transitions, (t) => t.id, `${path}.transitions`, "id", "transition", report);
    transitions.forEach((transition, t) => {
      const at = `${path}.transitions[${t}]`;
      if (!states.has(transition.from)) report(`${at}.from`, `"${transition.from}" is not a state of "${lifecycle.name}"`);
      if (!states.has(transition.to)) report(`${at}.to`, `"${transition.to}" is not a state of "${lifecycle.name}"`);
      transition.grants?.forEach((entry, k) => checkGrant(entry, `${at}.grants[${k}]`, known, report));
      const parameters = transition.askAttributes ?? [];
      duplicates(parameters, (p) => p.id, `${at}.askAttributes`, "id", "parameter", report);
      parameters.forEach((parameter, k) => checkEnumOf(parameter, `${at}.askAttributes[${k}]`, known, report));
    });
  });
}

/** An enum field names a known enumerate; other types name none. */
function checkEnumOf(field: { readonly type: string; readonly enum?: string | undefined }, path: string, known: Known, report: Report): void {
  if (field.type === "enum" && field.enum === undefined) report(path, `an enum field needs "enum": the name of its enumerate`);
  else if (field.type !== "enum" && field.enum !== undefined) report(`${path}.enum`, `only enum fields take an enumerate (type is "${field.type}")`);
  else if (field.enum !== undefined && !known.enumerate(field.enum)) report(`${path}.enum`, `unknown enumerate "${field.enum}"`);
}

function checkStructures(view: BundleView, known: Known, report: Report): void {
  duplicates(view.structures, (s) => s.name, "$.structures", "name", "structure", report);
  view.structures.forEach((structure, i) => {
    if (!structure) return;
    const path = `$.structures[${i}]`;
    if (structure.lifecycle !== undefined && !known.lifecycle(structure.lifecycle)) report(`${path}.lifecycle`, `unknown lifecycle "${structure.lifecycle}"`);
    if (structure.profile !== undefined && !known.profile(structure.profile)) report(`${path}.profile`, `unknown profile "${structure.profile}"`);
    if (structure.fieldAccess !== undefined && !known.fieldAccess(structure.fieldAccess)) {
      report(`${path}.fieldAccess`, `unknown field access "${structure.fieldAccess}"`);
    }
    const iconProblem = structure.icon === undefined ? undefined : filePathProblem(structure.icon);
    if (iconProblem) report(`${path}.icon`, iconProblem);
    const extendsProblemFound = structure.extends === undefined ? undefined : extendsProblem(structure.name, { parentOf: known.parentOf, exists: known.structureDeclared });
    if (extendsProblemFound) report(`${path}.extends`, extendsProblemFound);
    const parent = structure.extends === undefined || extendsProblemFound ? undefined : known.structure(structure.extends);
    const inherited = parent ? fieldIndex(parent) : new Map<string, never>();
    const seen = new Map<string, string>();
    const checkField = (field: BundleField, at: string, inArray: string | undefined) => {
      const earlier = seen.get(field.id);
      if (earlier) report(`${at}.id`, `duplicate field "${field.id}" (first at ${earlier})`);
      else seen.set(field.id, at);
      const inheritedField = inherited.get(field.id);
      if (inheritedField && parent) {
        // An entry for an inherited field changes it; a column cannot take an inherited id.
        if (inArray !== undefined) return report(`${at}.id`, `"${field.id}" is inherited from "${parent.name}": a column cannot have its id`);
        for (const problem of inheritedFieldProblems(field, inheritedField, parent.name)) report(`${at}.${problem.key}`, problem.message);
        return;
      }
      checkEnumOf(field, at, known, report);
      if (field.type === "docid" && field.structure !== undefined && !known.structureDeclared(field.structure)) {
        report(`${at}.structure`, `unknown structure "${field.structure}"`);
      }
      if (field.type !== "docid" && field.structure !== undefined) report(`${at}.structure`, `only docid fields name a target structure`);
      if (inArray !== undefined && field.type === "array") report(`${at}.type`, `a column of the array "${inArray}" cannot be an array`);
      if (field.type !== "array" && field.fields !== undefined) report(`${at}.fields`, `only array fields have columns (type is "${field.type}")`);
      field.fields?.forEach((column, k) => checkField(column, `${at}.fields[${k}]`, field.id));
    };
    (structure.fields ?? []).forEach((field, k) => checkField(field, `${path}.fields[${k}]`, undefined));
    // Title fields may be inherited ones.
    const fields = fieldIndex(known.structure(structure.name) ?? { ...structure, fields: structure.fields ?? [] });
    const checkTitleField = (id: string, at: string) => {
      const title = fields.get(id);
      if (!title) report(at, `structure "${structure.name}" has no field "${id}"`);
      else if (title.type === "array") report(at, `the title field cannot be an array`);
      else if (UNTITLED_TYPES.has(title.type)) report(at, `a field of type ${title.type} cannot make a title`);
    };
    if (structure.titleField !== undefined) checkTitleField(structure.titleField, `${path}.titleField`);
    if (structure.titleField !== undefined && structure.titleFields !== undefined) {
      report(`${path}.titleFields`, `give titleField or titleFields, not both`);
    }
    structure.titleFields?.forEach((id, k) => checkTitleField(id, `${path}.titleFields[${k}]`));
  });
}

/** A stored child's own field entry that its inherited fields, as the bundle changes them, take badly: by field id, the key at fault. */
interface InheritedClash {
  readonly id: string;
  /** The key of the child's entry at fault; "column" for a column with an inherited id. */
  readonly key: string;
}

/** The clashes of a structure's own field entries with the fields of its resolved parent, as checkStructures tells them of a bundle's. */
function inheritedClashes(own: StructureDefinition, parent: ResolvedStructure<StructureDefinition>): InheritedClash[] {
  const inherited = fieldIndex(parent);
  const clashes: InheritedClash[] = [];
  const visit = (field: SmartField, inArray: boolean) => {
    const inheritedField = inherited.get(field.id);
    if (!inheritedField) return field.fields?.forEach((column) => visit(column, true));
    if (inArray) clashes.push({ id: field.id, key: "column" });
    else for (const problem of inheritedFieldProblems(field, inheritedField, parent.name)) clashes.push({ id: field.id, key: problem.key });
  };
  own.fields.forEach((field) => visit(field, false));
  return clashes;
}

/**
 * Stored structures the bundle does not give, below one it gives: their own field entries are
 * checked against the fields they will inherit, as a child of the bundle is. A clash the store
 * had already is not the bundle's; a new one is told where the bundle gives the field (or the
 * nearest parent it changes), naming the stored child.
 */
function checkStoredDescendants(view: BundleView, known: Known, report: Report): void {
  const entryOf = (name: string) => {
    const index = view.declared.structures.get(name);
    const entry = index === undefined ? undefined : view.structures[index];
    return index === undefined || !entry ? undefined : { index, entry };
  };
  for (const name of known.storedOnly) {
    const child = known.structure(name);
    const own = known.definition(name);
    const parentName = child?.ancestors[0];
    if (!child || !own || parentName === undefined || !child.ancestors.some((a) => view.declared.structures.has(a))) continue;
    const parent = known.structure(parentName);
    if (!parent) continue;
    const before = known.stored(name);
    const parentBefore = before?.ancestors[0] === undefined ? undefined : known.stored(before.ancestors[0]);
    const had = new Set(parentBefore ? inheritedClashes(own, parentBefore).map((c) => `${c.key}:${c.id}`) : []);
    const rootFirst = [...child.ancestors].reverse();
    for (const clash of inheritedClashes(own, parent)) {
      if (had.has(`${clash.key}:${clash.id}`)) continue;
      const at = bundlePathOf(clash.id, rootFirst, entryOf);
      const origin = at?.name ?? rootFirst.find((a) => known.definition(a) && fieldIndex(known.definition(a)!).has(clash.id)) ?? parentName;
      const field = `field "${clash.id}" of "${origin}"`;
      let message: string;
      if (clash.key === "column") message = `${field} is also a column of "${name}", which extends it`;
      else if (clash.key === "type") message = `${field} is also a field of "${name}", which extends it, with another type`;
      else message = `${field} is also a field of "${name}", which extends it, with its own "${clash.key}": only its label and visibility can change`;
      // Not given by the bundle: the field comes through a parent the bundle changes.
      const nearest = child.ancestors.find((a) => entryOf(a));
      const changed = nearest === undefined ? undefined : entryOf(nearest);
      const path = at?.path ?? (changed ? `$.structures[${changed.index}]${changed.entry.extends === undefined ? "" : ".extends"}` : "$.structures");
      report(path, message);
    }
  }
}

/** Where the bundle gives a field, in the first of the structures (root first) whose entry has it. */
function bundlePathOf(
  id: string, rootFirst: readonly string[], entryOf: (name: string) => { index: number; entry: BundleStructure } | undefined,
): { path: string; name: string } | undefined {
  for (const name of rootFirst) {
    const found = entryOf(name);
    if (!found) continue;
    const fields = found.entry.fields ?? [];
    for (const [j, field] of fields.entries()) {
      const path = `$.structures[${found.index}].fields[${j}]`;
      if (field.id === id) return { path, name };
      const k = field.fields?.findIndex((column) => column.id === id) ?? -1;
      if (k >= 0) return { path: `${path}.fields[${k}]`, name };
    }
  }
  return undefined;
}

/** Types whose values are no text for a title: files and images are references, passwords are never disclosed. */
const UNTITLED_TYPES: ReadonlySet<string> = new Set(["file", "image", "password"]);

function checkSearchDomains(view: BundleView, known: Known, report: Report): void {
  duplicates(view.searchDomains, (d) => d.name, "$.searchDomains", "name", "search domain", report);
  view.searchDomains.forEach((domain, i) => {
    domain?.configs.forEach((config, j) => {
      const path = `$.searchDomains[${i}].configs[${j}]`;
      if (!known.structureDeclared(config.structure)) return report(`${path}.structure`, `unknown structure "${config.structure}"`);
      const structure = known.structure(config.structure);
      if (!structure) return;
      const fields = fieldIndex(structure);
      config.fields?.forEach((entry, k) => {
        const field = fields.get(entry.field);
        if (!field) report(`${path}.fields[${k}].field`, `structure "${config.structure}" has no field "${entry.field}"`);
        else if (field.type === "array") report(`${path}.fields[${k}].field`, `"${entry.field}" is an array: index its columns`);
      });
      config.files?.forEach((entry, k) => {
        const field = fields.get(entry.field);
        if (!field) report(`${path}.files[${k}].field`, `structure "${config.structure}" has no field "${entry.field}"`);
        else if (field.type !== "file" && field.type !== "image") report(`${path}.files[${k}].field`, `"${entry.field}" is not a file field`);
      });
    });
  });
}

/* ---------- Elements ---------- */

/** Vault ids of files a bundle names, while checking: above any id a store gives, so they never meet. */
const FILE_PLACEHOLDER_BASE = 2 ** 52;

/**
 * The second read: each valid element's owner, structure, name and values, a batch at a time, with
 * the store's elements the batch names read in one go. Answers the problems in document order, at
 * most MAX_ELEMENT_PROBLEMS of them with those of the elements' shape.
 */
async function checkElements(
  source: BundleSource, read: ElementsRead, view: BundleView, known: Known, options: BundleCheckOptions, facts: StoreFacts,
): Promise<BundleProblem[]> {
  const problems: BundleProblem[] = [];
  let omitted = read.omitted;
  const report: Report = (path, message) => {
    if (problems.length + read.schemaProblems.length < MAX_ELEMENT_PROBLEMS) problems.push({ path, message });
    else omitted++;
  };
  const bundleEnumerates = new Map<string, Enumerate | undefined>();
  for (const [name, items] of view.enumerates) bundleEnumerates.set(name, items && { name, items });
  const fileProblems = new Map<string, string | undefined>();
  const checkFile = (file: string): string | undefined => {
    if (!fileProblems.has(file)) {
      fileProblems.set(file, filePathProblem(file) ?? (options.readFile(file) === undefined ? `file "${file}" not found in the bundle's folder` : undefined));
    }
    return fileProblems.get(file);
  };
  const structureOf = (element: BundleElement) => (known.structureDeclared(element.structure) ? known.structure(element.structure) : undefined);
  let done = 0;
  for await (const part of source.read()) {
    if (part.kind !== "elements") continue;
    const batch = part.entries.map((raw, k) => (read.invalid.has(part.first + k) ? undefined : (raw as BundleElement)));
    // What the value codec will look up; names of the bundle's own elements among them are simply not found.
    const references: RawReferences = { elements: [], logins: [], files: [] };
    for (const element of batch) {
      if (!element) continue;
      if (element.name !== undefined) references.elements.push(element.name);
      const structure = structureOf(element);
      if (!structure) continue;
      const { cells } = layoutValues(structure, element.values ?? {}, "$", () => {});
      for (const cell of cells) referencesIn(cell.field, cell.raw, references);
    }
    const scope = createRequestScope(options.store, systemPrincipal(), facts.definitions);
    await scope.load({ elements: references.elements, logins: references.logins, vaultFiles: references.files });
    const placeholders = new Map<number, VaultFile>();
    const context: ValueContext = {
      enumerate: (name) => (bundleEnumerates.has(name) ? bundleEnumerates.get(name) : scope.enumerate(name)),
      element: (ref) => {
        const structure = typeof ref === "string" ? view.elementNames.structureOf(ref) : undefined;
        return structure === undefined ? scope.element(ref) : plannedElement(ref as string, structure);
      },
      vaultFile: (id) => placeholders.get(id) ?? scope.vaultFile(id),
      // The bundle's own users are made by the import: they stand for accounts already.
      accountByLogin: (login) => (view.declared.users.has(login) ? plannedAccount(login) : scope.accountByLogin(login)),
      structure: (name) => known.structure(name),
    };
    const placeholderOf = (ref: { readonly file: string }): number => {
      const id = FILE_PLACEHOLDER_BASE + placeholders.size;
      const name = fileNameOf(ref.file);
      placeholders.set(id, { id, sha256: "", name, mime: mimeOfFile(name), size: 0, createdAt: "" });
      return id;
    };
    batch.forEach((element, k) => {
      const index = part.first + k;
      for (const problem of read.early.get(index) ?? []) report(problem.path, problem.message);
      if (element) checkElement(element, index, known, scope, context, checkFile, placeholderOf, report);
    });
    done += part.entries.length;
    options.onProgress?.({ phase: "checking", done, total: read.count });
  }
  return omitted === 0 ? problems : [...problems, { path: "$.elements", message: `${omitted} more problems in the elements, not listed` }];
}

/** A password text as the codec takes it once hashed (its hash left empty: the check stores nothing). */
const asHashed = (item: unknown): unknown => (typeof item === "string" && item !== "" ? { kind: "password-hash", hash: "" } satisfies PasswordHash : item);

/** An account the import will create, as account values see it while the bundle is checked. */
function plannedAccount(login: string): Account {
  return { id: 0, login, displayName: login, passwordHash: null, roles: [], groups: [], locale: "en", rights: [], disabled: false };
}

function checkElement(
  element: BundleElement, index: number, known: Known, scope: RequestScope, context: ValueContext,
  checkFile: (file: string) => string | undefined, placeholderOf: (ref: { readonly file: string }) => number, report: Report,
): void {
  const path = `$.elements[${index}]`;
  if (element.owner !== undefined && !known.user(element.owner)) report(`${path}.owner`, `unknown user "${element.owner}"`);
  if (element.profile !== undefined && !known.profile(element.profile)) report(`${path}.profile`, `unknown profile "${element.profile}"`);
  if (!known.structureDeclared(element.structure)) return report(`${path}.structure`, `unknown structure "${element.structure}"`);
  const structure = known.structure(element.structure);
  if (!structure) return; // its definition is wrong and reported already
  const existing = element.name === undefined ? undefined : scope.element(element.name);
  if (existing && existing.structure !== element.structure) {
    report(`${path}.name`, `"${element.name}" is an existing element of structure "${existing.structure}", not "${element.structure}"`);
    return;
  }
  const values = element.values ?? {};
  const layout = layoutValues(structure, values, `${path}.values`, report);
  for (const cell of layout.cells) {
    if (cell.field.type === "enum" && (cell.field.enum === undefined || !context.enumerate(cell.field.enum))) continue; // reported with the structure
    let filesOk = true;
    const raw = cell.field.type === "file" || cell.field.type === "image"
      ? mapItems(cell.raw, cell.path, (item, at) => {
        if (!isFileRef(item)) return item;
        const problem = checkFile(item.file);
        if (problem) {
          report(`${at}.file`, problem);
          filesOk = false;
        }
        return placeholderOf(item);
      })
      : cell.raw;
    if (!filesOk) continue;
    try {
      // The import hashes a password as it writes it; the check needs only its shape.
      encodeFieldValue(cell.field, cell.field.type === "password" ? mapItems(raw, cell.path, asHashed) : raw, context);
    } catch (error) {
      if (!isLineageError(error)) throw error;
      report(cell.path, error.message);
    }
  }
  for (const field of fieldIndex(structure).values()) {
    if (!field.needed || field.arrayId !== undefined || field.type === "array" || !isEmptyRaw(values[field.id])) continue;
    if (existing && !isEmptyValue(existing.values[field.id])) continue;
    report(`${path}.values${pathStep(field.id)}`, `field "${field.id}" is needed: give it a value`);
  }
}

const isEmptyRaw = (raw: unknown) => raw === undefined || raw === null || raw === "" || (Array.isArray(raw) && raw.length === 0);

/** What a docid check sees of an element the bundle will create. */
function plannedElement(name: string, structure: string): ElementRevision {
  return {
    id: 0, initid: 0, revision: 0, structure, name, title: name, owner: 0, status: "alive", fixed: false, state: null,
    values: {}, createdAt: "", modifiedAt: "", importKey: null, ownProfile: null, profile: null,
  };
}
