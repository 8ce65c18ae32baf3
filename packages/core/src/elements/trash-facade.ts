import type { Principal } from "../accounts/principal.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import { answerWrite, type AnswerOptions, type ElementWrite } from "./element-write.ts";
import type { ElementsFacade } from "./elements-facade.ts";
import { listTrash, type ConsultOptions, type ElementList, type ElementReading, type ListOptions } from "./read-elements.ts";
import type { ListOf, StructureType } from "./typed-element.ts";
import { restoreElement, type WriteOptions } from "./write-elements.ts";

/** The trash: deleted lineages, readable and restorable, never deleted for good. */
export interface TrashFacade {
  /** GET /trash/: deleted elements the principal may view. */
  list<S extends StructureType | undefined = undefined>(principal: Principal, options?: ListOptions): Promise<ListOf<S>>;
  /** GET /trash/<ref>: a deleted element, with its ETag. */
  read(principal: Principal, ref: string, options?: Omit<ConsultOptions, "trash">): Promise<ElementReading>;
  /** PUT on /trash/<ref> with `{"document":{"properties":{"status":"alive"}}}`: the lineage comes back alive. */
  restore(principal: Principal, ref: string, body: unknown, options?: WriteOptions & AnswerOptions): Promise<ElementWrite>;
}

/** The trash façade; reads go through the elements' (and their cache). */
export function createTrashFacade(context: PlatformContext, elements: ElementsFacade): TrashFacade {
  return {
    list: (async (principal: Principal, options?: ListOptions): Promise<ElementList> =>
      listTrash(await context.scope(principal, options?.stamp), { maxSlice: context.maxSlice, ...options })) as TrashFacade["list"],
    read: (principal, ref, options) => elements.read(principal, ref, { ...options, trash: true }),
    restore: (principal, ref, body, options = {}) =>
      answerWrite(context, principal, options, async () => restoreElement(await context.scope(principal, options.stamp), context.clock, ref, body, options)),
  };
}
