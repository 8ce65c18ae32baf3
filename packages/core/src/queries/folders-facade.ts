import type { Principal } from "../accounts/principal.ts";
import type { ElementList, ListOptions } from "../elements/read-elements.ts";
import type { ListOf, StructureType } from "../elements/typed-element.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import {
  addToFolder, foldersHolding, listFolders, readFolderContent, removeFromFolder, type FolderContent, type FolderMembership, type MembershipOptions,
} from "./folders.ts";

/** Folders (queries-and-events.md, section 2): the folders, their content, and the elements put in and taken out. */
export interface FoldersFacade {
  /** GET /folders/: the folders (DIR and the structures extending it) the principal may view, as a list. */
  list(principal: Principal, options?: ListOptions): Promise<ElementList>;
  /** GET /folders/<folder>/smart-elements/: the alive elements the folder holds that the principal may view, with the folder's initid and title. */
  content<S extends StructureType | undefined = undefined>(principal: Principal, folder: string, options?: ListOptions): Promise<ListOf<S, FolderContent>>;
  /** The folders holding an element that the principal may view, as a list. */
  holding(principal: Principal, element: string, options?: ListOptions): Promise<ElementList>;
  /** PUT /folders/<folder>/smart-elements/<element>: the folder holds the element; again, nothing changes. */
  add(principal: Principal, folder: string, element: string, options?: MembershipOptions): Promise<FolderMembership>;
  /** DELETE /folders/<folder>/smart-elements/<element>: the folder no longer holds the element. */
  remove(principal: Principal, folder: string, element: string, options?: MembershipOptions): Promise<FolderMembership>;
}

/**
 * The folders façade over a platform's context.
 * @example
 * const { data } = await platform.folders.add(alice, "FLD_READING", "ART_HELLO");
 * const content = await platform.folders.content(alice, "FLD_READING", { orderBy: "title" });
 */
export function createFoldersFacade(context: PlatformContext): FoldersFacade {
  const { clock, maxSlice } = context;
  return {
    list: async (principal, options) => listFolders(await context.scope(principal, options?.stamp), { maxSlice, ...options }),
    content: (async (principal: Principal, folder: string, options?: ListOptions): Promise<FolderContent> =>
      readFolderContent(await context.scope(principal, options?.stamp), folder, { maxSlice, ...options })) as FoldersFacade["content"],
    holding: async (principal, element, options) => foldersHolding(await context.scope(principal, options?.stamp), element, { maxSlice, ...options }),
    add: async (principal, folder, element, options) => addToFolder(await context.scope(principal, options?.stamp), clock, folder, element, options),
    remove: async (principal, folder, element, options) => removeFromFolder(await context.scope(principal, options?.stamp), clock, folder, element, options),
  };
}
