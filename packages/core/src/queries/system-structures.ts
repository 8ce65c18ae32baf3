import type { Enumerate } from "../enumerates/enumerate.ts";
import type { Profile } from "../access/profile.ts";
import type { StructureDefinition } from "../structures/smart-structure.ts";

/*
 * The system structures every platform has, present without any bundle (queries-and-events.md,
 * section 2): folders (DIR), saved searches (SEARCH) and saved views (REPORT, a search with its
 * columns and page size). Their elements are ordinary Smart Elements; bundles may extend the
 * structures and give elements of them. Every store holds these definitions from its first
 * opening (the memory store at creation, the SQL stores through a migration): they are data, like
 * a bundle's, and the core reads them as any other definition. A bundle may not give them again.
 */

/** Folders: a set of elements chosen by hand. */
export const FOLDER_STRUCTURE = "DIR";
/** Saved searches: a stored query. */
export const SEARCH_STRUCTURE = "SEARCH";
/** Saved views: a saved search with its columns and page size. */
export const REPORT_STRUCTURE = "REPORT";

/** Their profile: each element's owner may view, change and delete it; every account with the global POST right may create them. */
export const COLLECTIONS_PROFILE: Profile = {
  name: "PRF_SYSTEM_COLLECTIONS",
  grants: { view: ["owner"], edit: ["owner"], delete: ["owner"], create: ["right:POST"] },
};

/** The values of `se_trash`: a saved search looks among alive elements (no), in the trash (only) or both (also). */
export const SEARCH_TRASH_ENUMERATE: Enumerate = {
  name: "SYSTEM_SEARCH_TRASH",
  items: [
    { key: "no", label: { en: "Alive elements only", fr: "Éléments vivants seulement" } },
    { key: "only", label: { en: "Elements in the trash only", fr: "Éléments de la corbeille seulement" } },
    { key: "also", label: { en: "Alive elements and the trash", fr: "Éléments vivants et corbeille" } },
  ],
};

const TITLE_FIELD = { id: "ba_title", type: "text", label: { en: "Title", fr: "Titre" } } as const;

/** The system structures, each as a bundle would give it: REPORT extends SEARCH. */
export const SYSTEM_STRUCTURES: readonly StructureDefinition[] = [
  {
    name: FOLDER_STRUCTURE,
    title: { en: "Folder", fr: "Dossier" },
    profile: COLLECTIONS_PROFILE.name,
    titleField: "ba_title",
    fields: [
      TITLE_FIELD,
      { id: "fld_famids", type: "text", multiple: true, label: { en: "Structures it may hold (none: any)", fr: "Structures qu'il peut contenir (aucune : toutes)" } },
    ],
  },
  {
    name: SEARCH_STRUCTURE,
    title: { en: "Search", fr: "Recherche" },
    profile: COLLECTIONS_PROFILE.name,
    titleField: "ba_title",
    fields: [
      TITLE_FIELD,
      { id: "se_famid", type: "text", label: { en: "Structure searched (none: every structure)", fr: "Structure cherchée (aucune : toutes)" } },
      { id: "se_filter", type: "longtext", label: { en: "Filter", fr: "Filtre" } },
      { id: "se_orderby", type: "text", label: { en: "Order", fr: "Tri" } },
      { id: "se_trash", type: "enum", enum: SEARCH_TRASH_ENUMERATE.name, default: "no", label: { en: "Trash", fr: "Corbeille" } },
    ],
  },
  {
    name: REPORT_STRUCTURE,
    extends: SEARCH_STRUCTURE,
    title: { en: "Report", fr: "Rapport" },
    fields: [
      { id: "rep_idcols", type: "text", multiple: true, label: { en: "Columns", fr: "Colonnes" } },
      { id: "rep_limit", type: "int", label: { en: "Page size", fr: "Taille de page" } },
    ],
  },
];

/** Every definition the system brings, by kind, as a store holds them from its first opening. */
export const SYSTEM_DEFINITIONS = {
  structures: SYSTEM_STRUCTURES,
  profiles: [COLLECTIONS_PROFILE] as const,
  enumerates: [SEARCH_TRASH_ENUMERATE] as const,
};

/** True when a name is the system's, for definitions of its kind: a bundle may not give it again. */
export function isSystemName(kind: "structure" | "profile" | "enumerate", name: string): boolean {
  switch (kind) {
    case "structure": return SYSTEM_STRUCTURES.some((s) => s.name === name);
    case "profile": return name === COLLECTIONS_PROFILE.name;
    case "enumerate": return name === SEARCH_TRASH_ENUMERATE.name;
  }
}
