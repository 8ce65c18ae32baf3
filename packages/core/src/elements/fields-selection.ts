import { LineageError } from "../errors/lineage-error.ts";

/** What a consultation asks for, parsed from the `fields` parameter (original-notes.md 2.3). */
export interface FieldsSelection {
  /** Properties to render, in request order; null renders none. */
  readonly properties: readonly string[] | null;
  /** "all", a list of field ids, or null for none. */
  readonly attributes: "all" | readonly string[] | null;
  /** Whether `family.structure` is asked for. */
  readonly structure: boolean;
}

/**
 * Every property an element has; `document.properties.all` gives them all: the original's (its
 * columns, and what its FormatCollection adds: `family`, `createdBy`, `security`...), and
 * `fromname`, `fromtitle`, `domainid` and `revdate`, which its first API gave.
 */
export const ALL_PROPERTIES = [
  "id", "title", "icon", "initid", "name", "revision", "status", "state", "fromid", "fromname", "fromtitle",
  "owner", "locked", "wid", "cvid", "profid", "postitid", "domainid", "cdate", "mdate", "revdate", "version",
  "doctype", "confidential", "affected", "allocated", "createdBy", "creationDate", "dprofid", "family",
  "lastModificationDate", "lmodify", "note", "prelid", "revisionData", "security", "tags", "type", "usage", "usefor",
  "viewController", "workflow",
] as const;

/** Properties that name the accounts of the revisions rendered: a rendering that shows one loads them first. */
export const ACCOUNT_PROPERTIES: ReadonlySet<string> = new Set(["createdBy", "revisionData"]);
/** Properties that show an element's lock: `prepare` loads the locks of the revisions when a selection names one. */
export const LOCK_PROPERTIES: ReadonlySet<string> = new Set(["locked", "security"]);
export type PropertyName = (typeof ALL_PROPERTIES)[number];

/** The properties of `document.properties`. */
export const DEFAULT_PROPERTIES: readonly PropertyName[] = ["id", "title", "icon", "initid", "name", "revision", "status", "state"];

const PROPERTY_PREFIX = "document.properties.";
const ATTRIBUTE_PREFIX = "document.attributes.";

/** Where the selection is used: one element (or revision) or a list. */
export type SelectionScope = "one" | "list";

const DEFAULTS: Record<SelectionScope, string> = {
  one: "document.properties,document.attributes",
  list: "document.properties",
};

/** Parses `fields`; an empty value gives the scope's default. Unknown entries are a 400. */
export function parseFieldsSelection(raw: string | undefined, scope: SelectionScope): FieldsSelection {
  const entries = (raw?.trim() ? raw : DEFAULTS[scope]).split(",").map((entry) => entry.trim()).filter(Boolean);
  const unknown: string[] = [];
  const named: string[] = [];
  const attributes: string[] = [];
  let defaultProperties = false;
  let anyAttributes = false;
  let structure = false;

  for (const entry of entries) {
    const lower = entry.toLowerCase();
    if (entry === "document.properties") defaultProperties = true;
    else if (entry.startsWith(PROPERTY_PREFIX)) named.push(entry.slice(PROPERTY_PREFIX.length));
    else if (lower === "document.attributes") anyAttributes = true;
    else if (lower.startsWith(ATTRIBUTE_PREFIX)) {
      anyAttributes = true;
      attributes.push(entry.slice(ATTRIBUTE_PREFIX.length));
    } else if (entry === "family.structure" && scope === "one") structure = true;
    else if (scope === "list" && /^requestParameters\.(slice|offset|orderBy|length)$/.test(entry)) continue;
    else unknown.push(entry);
  }
  if (unknown.length > 0) throw new LineageError("ROUTES0103", [unknown.join(",")]);

  const badProperty = named.find((name) => name !== "all" && !(ALL_PROPERTIES as readonly string[]).includes(name));
  if (badProperty !== undefined) throw new LineageError("CRUD0202", [badProperty]);

  // id and title are always emitted with any property, as the original does.
  let properties: string[] | null = null;
  if (named.includes("all")) properties = [...ALL_PROPERTIES];
  else if (named.length > 0) properties = [...new Set(["id", "title", ...(defaultProperties ? DEFAULT_PROPERTIES : []), ...named])];
  else if (defaultProperties) properties = [...DEFAULT_PROPERTIES];

  const onlyAll = attributes.length === 0 || (attributes.length === 1 && attributes[0]?.toLowerCase() === "all");
  return {
    properties,
    attributes: anyAttributes ? (onlyAll ? "all" : attributes.filter((id) => id.toLowerCase() !== "all")) : null,
    structure,
  };
}
