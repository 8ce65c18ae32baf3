import type { Principal } from "../accounts/principal.ts";
import type { Permission } from "../access/profile.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import { createVersionedCache, principalKey } from "../scope/reading-cache.ts";
import { renderElementCsv } from "./element-csv.ts";
import { fileIdsOf, renderElementXml } from "./element-xml.ts";
import { answerWrite, type AnswerOptions, type ElementWrite } from "./element-write.ts";
import { listAliveElements, readElement, type ConsultOptions, type ElementList, type ElementReading, type ListOptions } from "./read-elements.ts";
import type { ElementRevision } from "./smart-element.ts";
import type { CreateValuesOf, ListOf, ReadingOf, StructureType, UpdateValuesOf } from "./typed-element.ts";
import {
  createElement, createElementByApi, deleteElement, updateElement,
  type ApiCreateInput, type CreateElementInput, type UpdateElementInput, type WriteOptions,
} from "./write-elements.ts";

/** What DELETE is told: the structure the element was named under, the request's limits, and its answer's shape. */
export interface DeleteOptions extends WriteOptions, AnswerOptions {
  /** The structure whose collection named the element (404 ROUTES0104 when it is not of it). */
  readonly family?: string | undefined;
}

/** The Smart Element collection: one element, lists, and the writes of the API. */
export interface ElementsFacade {
  /**
   * GET one element: its latest revision as the principal sees it, with its ETag (kept per principal until the next write).
   * With a structure type (`read<Article>(…)`, from `lineage types`) its attributes are typed.
   */
  read<S extends StructureType | undefined = undefined>(principal: Principal, ref: string, options?: ConsultOptions): Promise<ReadingOf<S>>;
  /**
   * GET one element with a .xml suffix: its XML export in the original's import format, with the ETag
   * of the element; `withFiles` puts the files' bytes inside their tags (base64) instead of links.
   */
  readXml(principal: Principal, ref: string, options?: ConsultOptions & { readonly withFiles?: boolean }): Promise<{ xml: string; etag: string }>;
  /** GET one element with a .csv suffix: its CSV export in the original's import format, with the ETag of the element. */
  readCsv(principal: Principal, ref: string, options?: ConsultOptions): Promise<{ csv: string; etag: string }>;
  /**
   * GET /smart-elements/ (or a structure's elements with `family`): alive elements the principal may view.
   * With a structure type (`list<Article>(…, { family: "ARTICLE" })`) their attributes are typed.
   */
  list<S extends StructureType | undefined = undefined>(principal: Principal, options?: ListOptions): Promise<ListOf<S>>;
  /** A new element from code values (bundles, embedding apps), in a transaction of its own. */
  create<S extends StructureType | undefined = undefined>(
    principal: Principal,
    input: CreateElementInput & { readonly structure: S extends StructureType ? S["structure"] : string; readonly values: CreateValuesOf<S> },
  ): Promise<ElementRevision>;
  /** POST on a structure's collection: a new element from API values, under the profile's `create` grant. */
  createByApi(principal: Principal, family: string, input: ApiCreateInput & AnswerOptions): Promise<ElementWrite>;
  /** PUT: the latest revision changed in place. */
  update<S extends StructureType | undefined = undefined>(
    principal: Principal, ref: string, input: UpdateElementInput & AnswerOptions & { readonly values: UpdateValuesOf<S> },
  ): Promise<ElementWrite>;
  /** DELETE: the whole lineage goes to the trash. */
  delete(principal: Principal, ref: string, options?: DeleteOptions): Promise<ElementWrite>;
  /** What the principal may do with a revision (view, edit, delete...). */
  permissions(principal: Principal, revision: ElementRevision, stamp?: ChangeStamp): Promise<ReadonlySet<Permission>>;
  /** True when the principal may create elements of this structure (its profile's `create` grant). */
  mayCreate(principal: Principal, structure: string, stamp?: ChangeStamp): Promise<boolean>;
}

/** The elements façade over a platform's context; `readingCacheSize` answers of GET are kept until the next write. */
export function createElementsFacade(context: PlatformContext, readingCacheSize = 1000): ElementsFacade {
  const { clock, maxSlice } = context;
  const readings = createVersionedCache<ElementReading>(readingCacheSize);
  const read = async (principal: Principal, ref: string, options: ConsultOptions = {}): Promise<ElementReading> => {
    const stamp = options.stamp ?? (await context.store.changes.read());
    const key = [principalKey(principal), ref, options.fields, options.family, options.trash].join("\u0001");
    return readings.get(key, stamp.data, async () => readElement(await context.scope(principal, stamp), ref, options));
  };
  return {
    read: read as ElementsFacade["read"],
    async readXml(principal, ref, options = {}) {
      const reading = await read(principal, ref, options);
      const scope = await context.scope(principal, options.stamp);
      await scope.prepare([reading.revision]);
      const files = new Map<number, Uint8Array>();
      if (options.withFiles) {
        for (const id of fileIdsOf(reading.revision, scope.structure(reading.revision.structure))) {
          const bytes = await scope.repos.vault.read(id);
          if (bytes) files.set(id, bytes);
        }
      }
      return { xml: renderElementXml(reading.revision, scope, { files }), etag: reading.etag };
    },
    async readCsv(principal, ref, options = {}) {
      const reading = await read(principal, ref, options);
      const scope = await context.scope(principal, options.stamp);
      await scope.prepare([reading.revision]);
      return { csv: renderElementCsv(reading.revision, scope), etag: reading.etag };
    },
    list: (async (principal: Principal, options?: ListOptions): Promise<ElementList> =>
      listAliveElements(await context.scope(principal, options?.stamp), { maxSlice, ...options })) as ElementsFacade["list"],
    create: async (principal, input) => createElement(await context.scope(principal, input.stamp), clock, input),
    createByApi: (principal, family, input) =>
      answerWrite(context, principal, input, async () => createElementByApi(await context.scope(principal, input.stamp), clock, family, input)),
    update: (principal, ref, input) =>
      answerWrite(context, principal, input, async () => updateElement(await context.scope(principal, input.stamp), clock, ref, input)),
    delete: (principal, ref, options = {}) =>
      answerWrite(context, principal, options, async () => deleteElement(await context.scope(principal, options.stamp), clock, ref, options.family, options)),
    permissions: async (principal, revision, stamp) => (await context.scope(principal, stamp)).permissions(revision),
    mayCreate: async (principal, structure, stamp) => (await context.scope(principal, stamp)).mayCreate(structure),
  };
}
