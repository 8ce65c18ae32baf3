import { isLineageError, LineageError } from "../errors/lineage-error.ts";
import type { ElementRevision, FieldValue } from "../elements/smart-element.ts";
import type { UploadedFile } from "../elements/uploaded-file.ts";
import { applyValues } from "../elements/element-values.ts";
import { changeElement, insertElement } from "../elements/write-elements.ts";
import { loadDefinitions, type Definitions } from "../scope/definitions.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { createRequestScope } from "../scope/create-request-scope.ts";
import type { Repositories } from "../ports/store.port.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import type { StructureDefinition } from "../structures/smart-structure.ts";
import { isEmptyValue } from "../values/field-value-codec.ts";
import type { BundleNames } from "./bundle-names.ts";
import type { BundleSource } from "./bundle-source.ts";
import type { ImportProgressListener } from "./import-progress.ts";
import type { BundleElement } from "./bundle.schema.ts";
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
import type { ElementImportCounts, ImportCounts } from "./import-report.ts";
import { bundleError } from "./problems/bundle-check.ts";
import { recordEvent } from "../events/record-event.ts";
import { setFolderContent } from "../queries/folders.ts";

type FileReader = (relativePath: string) => Uint8Array | undefined;

/** The elements to write: the source to read them from again, and what checking it found. */
export interface ElementsImport {
  readonly source: BundleSource;
  readonly names: BundleNames;
  readonly total: number;
  readonly readFile: FileReader;
  readonly onProgress: ImportProgressListener | undefined;
  /** True when some entry gives a folder's content (`content`). */
  readonly folders?: boolean;
  /** Told of each element whose change since the import before the import overwrites (counted in `overwritten`). */
  readonly onOverwrite?: ((element: OverwrittenElement) => void) | undefined;
}

/** An element changed by an account since the import before, which an import overwrites with the bundle's values. */
export interface OverwrittenElement {
  readonly initid: number;
  readonly name: string | null;
  readonly title: string;
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
  readonly platform: PlatformContext;
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
  /**
   * The pending entries' elements as they were before the import (null: made by it): their one
   * event is appended once their last values are set, so that a reader sees them whole.
   */
  readonly pendingBefore: Map<number, ElementRevision | null>;
  /** The outcome of the entries counted already, by index: a folder's content may yet change an unchanged one. */
  readonly outcomes: Map<number, keyof ImportCounts>;
}

/**
 * Creates or updates the elements, a batch at a time. docid values naming an
 * element of the bundle become its initid: a batch is written in dependency
 * order; a value naming an element of a later batch (or closing a cycle) is
 * set once every batch is written.
 */
export async function importElements(platform: PlatformContext, tx: Repositories, elements: ElementsImport, counts: ElementImportCounts): Promise<void> {
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
    pendingBefore: new Map(),
    outcomes: new Map(),
  };
  const writeAll = async () => {
    let done = 0;
    for await (const part of elements.source.read()) {
      if (part.kind !== "elements") continue;
      await importBatch(run, await planBatch(run, part.first, part.entries as readonly BundleElement[]));
      done += part.entries.length;
      elements.onProgress?.({ phase: "writing", done, total: elements.total });
    }
    if (run.pending.size > 0) {
      // Values that name elements of later batches or close a cycle: every target exists now.
      for await (const part of elements.source.read()) {
        if (part.kind !== "elements") continue;
        const entries = part.entries.flatMap((entry, k) => (run.pending.has(part.first + k) ? [{ entry: entry as BundleElement, index: part.first + k }] : []));
        if (entries.length > 0) await completeBatch(run, entries);
      }
      for (const [index, outcome] of run.pendingOutcomes) {
        counts[outcome]++;
        run.outcomes.set(index, outcome);
      }
    }
    if (elements.folders) await importContents(run);
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

/** Updates an element in place when the values given differ from its own; true when it did. `withoutEvent`: its event is the caller's. */
async function updateIfChanged(
  run: ImportRun, plan: ElementPlan, current: ElementRevision, input: Record<string, unknown>, withoutEvent: boolean,
): Promise<boolean> {
  // Over the current values: a password given again keeps its hash, and so reads as unchanged.
  const encoded = await applyValues(plan.structure, current.values, input, run.scope(), { writeReadOnly: true });
  const ownProfile = plan.entry.profile ?? null;
  const changed = ownProfile !== current.ownProfile || Object.entries(encoded).some(([id, value]) => !sameValue(value, current.values[id]));
  if (!changed) return false;
  // Imports write as the system account: a latest history line by anyone else is a change the import is about to undo.
  if (((await run.tx.elements.history(current.initid))[0]?.accountId ?? SYSTEM_ACCOUNT.id) !== SYSTEM_ACCOUNT.id) overwrites(run, current);
  await changeElement(run.scope(), run.platform.clock, String(current.initid), {
    values: input, writeReadOnly: true, comment: "Updated by bundle import", ownProfile, withoutEvent,
  });
  return true;
}

function overwrites(run: ImportRun, element: ElementRevision): void {
  run.counts.overwritten++;
  run.elements.onOverwrite?.({ initid: element.initid, name: element.name, title: element.title });
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
    if (pending) run.pendingBefore.set(plan.index, existing ?? null);
    if (existing) {
      outcomes.set(plan, (await updateIfChanged(run, plan, existing, input, pending)) ? "updated" : "unchanged");
      initid = existing.initid;
    } else {
      const created = await insertElement(run.scope(), run.platform.clock, {
        structure: entry.structure,
        name: entry.name ?? null,
        values: input,
        owner: entry.owner === undefined ? run.defaultOwner : (run.owners.get(entry.owner) ?? run.defaultOwner),
        importKey: entry.name === undefined ? elementImportKey(entry) : null,
        ownProfile: entry.profile ?? null,
        withoutEvent: pending,
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
    else {
      run.counts[outcome]++;
      run.outcomes.set(plan.index, outcome);
    }
  }
}

/**
 * The folders' content (`content`), once every element is written: each folder the bundle gives
 * holds exactly the elements it names, as its values are those it gives. A folder whose content
 * changes is updated; when someone else wrote its last history line, their change is overwritten.
 * A folder in the trash is left as it is.
 */
async function importContents(run: ImportRun): Promise<void> {
  const { tx } = run;
  for await (const part of run.elements.source.read()) {
    if (part.kind !== "elements") continue;
    const entries = (part.entries as readonly BundleElement[]).flatMap((entry, k) => (entry.content === undefined ? [] : [{ entry, index: part.first + k }]));
    if (entries.length === 0) continue;
    const names = new Set(entries.flatMap(({ entry }) => [...entry.content!, ...(entry.name === undefined ? [] : [entry.name])]));
    const byName = new Map((await tx.elements.latestByNames([...names])).map((element) => [element.name, element]));
    for (const { entry, index } of entries) {
      const folder = entry.name !== undefined
        ? byName.get(entry.name)
        : await tx.elements.byImportKey(elementImportKey(entry)).then((found) => found && tx.elements.latest(found.initid));
      if (!folder || folder.status === "deleted") continue;
      const members = entry.content!.flatMap((name) => byName.get(name)?.initid ?? []);
      await attempt({ index }, async () => {
        const lastWriter = (await tx.elements.history(folder.initid))[0]?.accountId ?? SYSTEM_ACCOUNT.id;
        if (!(await setFolderContent(run.scope(), run.platform.clock, folder, members))) return;
        if (run.outcomes.get(index) !== "unchanged") return;
        run.counts.unchanged--;
        run.counts.updated++;
        run.outcomes.set(index, "updated");
        if (lastWriter !== SYSTEM_ACCOUNT.id) overwrites(run, folder);
      });
    }
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
      if (!current) return;
      if ((await updateIfChanged(run, plan, current, inputOf(run, plan, initids).input, true)) && run.pendingOutcomes.get(plan.index) === "unchanged") {
        run.pendingOutcomes.set(plan.index, "updated");
      }
      await recordPendingEvent(run, plan.index, current.initid);
    });
  }
}

/** The one event of an element whose values were set in two steps: created, or updated from what it was before the import. */
async function recordPendingEvent(run: ImportRun, index: number, initid: number): Promise<void> {
  const before = run.pendingBefore.get(index);
  const outcome = run.pendingOutcomes.get(index);
  const latest = await run.tx.elements.latest(initid);
  if (!latest || before === undefined || (before !== null && outcome !== "updated")) return;
  const time = run.platform.clock.now();
  await recordEvent(run.scope(), before === null ? "element.created" : "element.updated", latest, before === null ? { time } : { time, before: before.values });
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
async function attempt(plan: Pick<ElementPlan, "index">, run: () => Promise<void>): Promise<void> {
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
