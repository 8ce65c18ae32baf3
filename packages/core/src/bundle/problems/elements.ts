import type { Account } from "../../accounts/account.ts";
import type { Enumerate } from "../../enumerates/enumerate.ts";
import { isLineageError } from "../../errors/lineage-error.ts";
import type { ElementRevision } from "../../elements/smart-element.ts";
import { referencesIn, type RawReferences } from "../../elements/element-values.ts";
import type { RequestScope } from "../../scope/request-scope.ts";
import { createRequestScope } from "../../scope/create-request-scope.ts";
import type { VaultFile } from "../../ports/vault.port.ts";
import { fieldIndex } from "../../structures/smart-structure.ts";
import { encodeFieldValue, isEmptyValue } from "../../values/field-value-codec.ts";
import type { PasswordHash } from "../../values/password-value.ts";
import type { ValueContext } from "../../values/value-context.ts";
import type { BundleElement } from "../bundle.schema.ts";
import type { BundleSource } from "../bundle-source.ts";
import { fileNameOf, filePathProblem, isFileRef, layoutValues, mapItems, mimeOfFile, pathStep } from "../bundle-values.ts";
import { systemPrincipal } from "../system-principal.ts";
import { MAX_ELEMENT_PROBLEMS, type BundleCheckOptions, type BundleProblem } from "./bundle-check.ts";
import type { BundleView } from "./bundle-view.ts";
import type { ElementsRead } from "./first-read.ts";
import type { Known, StoreFacts } from "./known-names.ts";
import type { Report } from "./problem-report.ts";
import type { ResolvedStructure } from "../../structures/structure-inheritance.ts";
import type { StructureDefinition } from "../../structures/smart-structure.ts";
import { FOLDER_STRUCTURE } from "../../queries/system-structures.ts";

/** Vault ids of files a bundle names, while checking: above any id a store gives, so they never meet. */
const FILE_PLACEHOLDER_BASE = 2 ** 52;

/**
 * The second read: each valid element's owner, structure, name and values, a batch at a time, with
 * the store's elements the batch names read in one go. Answers the problems in document order, at
 * most MAX_ELEMENT_PROBLEMS of them with those of the elements' shape.
 */
export async function checkElements(
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
      if (element.content !== undefined) references.elements.push(...element.content);
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
  if (element.content !== undefined) checkContent(element, structure, existing, path, context, report);
  for (const field of fieldIndex(structure).values()) {
    if (!field.needed || field.arrayId !== undefined || field.type === "array" || !isEmptyRaw(values[field.id])) continue;
    if (existing && !isEmptyValue(existing.values[field.id])) continue;
    report(`${path}.values${pathStep(field.id)}`, `field "${field.id}" is needed: give it a value`);
  }
}

/**
 * A folder's content: a folder's only (DIR or a structure extending it), each element of the bundle
 * or stored, and of a structure the folder's fld_famids (as given, else as stored) lets it hold.
 */
function checkContent(
  element: BundleElement, structure: ResolvedStructure<StructureDefinition>, existing: ElementRevision | undefined, path: string,
  context: ValueContext, report: Report,
): void {
  if (structure.name !== FOLDER_STRUCTURE && !structure.ancestors.includes(FOLDER_STRUCTURE)) {
    return report(`${path}.content`, `only folders hold content: "${structure.name}" is not ${FOLDER_STRUCTURE} nor extends it`);
  }
  const given = element.values?.fld_famids;
  const raw = given === undefined ? existing?.values.fld_famids : given;
  const famids = (Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw]).filter((name): name is string => typeof name === "string" && name !== "");
  element.content!.forEach((name, k) => {
    const member = context.element(name);
    if (!member) return report(`${path}.content[${k}]`, `unknown element "${name}"`);
    if (famids.length === 0) return;
    const lineage = [member.structure, ...(context.structure?.(member.structure)?.ancestors ?? [])];
    if (!lineage.some((name) => famids.includes(name))) {
      report(`${path}.content[${k}]`, `"${name}" is of structure "${member.structure}", which the folder may not hold (fld_famids: ${famids.join(", ")})`);
    }
  });
}

const isEmptyRaw = (raw: unknown) => raw === undefined || raw === null || raw === "" || (Array.isArray(raw) && raw.length === 0);

/** What a docid check sees of an element the bundle will create. */
function plannedElement(name: string, structure: string): ElementRevision {
  return {
    id: 0, initid: 0, revision: 0, structure, name, title: name, owner: 0, status: "alive", fixed: false, state: null,
    values: {}, createdAt: "", modifiedAt: "", importKey: null, ownProfile: null, profile: null,
  };
}
