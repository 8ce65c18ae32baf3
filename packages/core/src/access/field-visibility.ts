import { isGranted, type Principal } from "../accounts/principal.ts";
import type { FieldAccess, LayerAccess } from "./field-access.ts";
import { visibilityOf, type SmartField, type Visibility } from "../structures/smart-field.ts";
import { flattenFields, type SmartStructure } from "../structures/smart-structure.ts";

/*
 * Field access layers, as the original's FieldAccessManager combines them: a visibility is a set
 * of two rights, read and write (W and H both, R read, I none: the API writes an H field, only
 * forms hide it). Every layer granted to the caller adds its rights to the fields it names (R
 * read, W both): the union wins, whatever the order of the layers, and a layer never takes a right
 * away. A column of an array keeps no right its array lacks, a field none its frame or tab lacks
 * (the original's field sets). A field that keeps both rights keeps H if it (or its set) had it.
 */

const READ = 1;
const WRITE = 2;
const RIGHTS: Readonly<Record<Visibility, number>> = { W: READ | WRITE, R: READ, H: READ | WRITE, I: 0 };
const LAYER_RIGHTS: Readonly<Record<LayerAccess, number>> = { W: READ | WRITE, R: READ };

/** The visibility of a set of rights; `own` tells H from W. Write without read is never granted, so it reads as none. */
function visibilityOfRights(rights: number, own: Visibility): Visibility {
  if ((rights & READ) === 0) return "I";
  if ((rights & WRITE) === 0) return "R";
  return own === "H" ? "H" : "W";
}

/** The rights the layers granted to the principal give, by field id (admin is granted every layer, as every profile). */
function grantedRights(access: FieldAccess, principal: Principal): ReadonlyMap<string, number> {
  const rights = new Map<string, number>();
  for (const layer of access.layers) {
    if (!isGranted([layer.grant], principal)) continue;
    for (const [id, letter] of Object.entries(layer.fields)) rights.set(id, (rights.get(id) ?? 0) | LAYER_RIGHTS[letter]);
  }
  return rights;
}

/**
 * The structure with every field's and set's visibility as these granted rights make it. A frame or
 * tab bounds what it holds (a field keeps no right its set lacks, and takes H from an H set); an
 * array bounds its columns on a structure with a field access only (`boundColumns`), as before frames.
 */
function withRights(structure: SmartStructure, granted: ReadonlyMap<string, number>, boundColumns: boolean): SmartStructure {
  const setRights = new Map<string, { rights: number; hidden: boolean }>();
  // Sets come resolved in the order they stand: a tab before its frames.
  const fieldSets = structure.fieldSets?.map((set) => {
    const own = set.visibility ?? "W";
    const bound = set.parent === undefined ? undefined : setRights.get(set.parent);
    const rights = (RIGHTS[own] | (granted.get(set.id) ?? 0)) & (bound?.rights ?? (READ | WRITE));
    const hidden = own === "H" || bound?.hidden === true;
    setRights.set(set.id, { rights, hidden });
    const visibility = visibilityOfRights(rights, hidden ? "H" : own);
    return visibility === own ? set : { ...set, visibility };
  });
  const visit = (fields: readonly SmartField[], inArray: { rights: number; hidden: boolean } | undefined): SmartField[] =>
    fields.map((field) => {
      const own = visibilityOf(field);
      const set = inArray ?? (field.fieldSet === undefined ? undefined : setRights.get(field.fieldSet));
      const rights = (RIGHTS[own] | (granted.get(field.id) ?? 0)) & (set?.rights ?? (READ | WRITE));
      const visibility = visibilityOfRights(rights, set?.hidden ? "H" : own);
      const changed = visibility === own ? field : { ...field, visibility };
      if (!field.fields) return changed;
      const columnsBound = boundColumns ? { rights, hidden: set?.hidden === true } : set;
      return { ...changed, fields: visit(field.fields, columnsBound ?? { rights: READ | WRITE, hidden: false }) };
    });
  return Object.freeze({ ...structure, fields: visit(structure.fields, undefined), ...(fieldSets ? { fieldSets } : {}) });
}

/** Structures without a field access whose frames or tabs restrict what they hold, as everyone sees them. */
const bySets = new WeakMap<SmartStructure, SmartStructure>();

/** The structure with its frames' and tabs' bounds applied: as a reader granted no field access layer sees it. */
export function boundBySets(structure: SmartStructure): SmartStructure {
  if (!structure.fieldSets?.some((set) => (set.visibility ?? "W") !== "W")) return structure;
  let result = bySets.get(structure);
  if (!result) {
    result = withRights(structure, new Map(), false);
    bySets.set(structure, result);
  }
  return result;
}

/** Per structure and field access (both frozen for as long as their definitions last), by the key of the layers granted. */
const effective = new WeakMap<SmartStructure, WeakMap<FieldAccess, Map<string, SmartStructure>>>();

/**
 * The structure as the principal sees it: its fields' visibility widened by the layers of its
 * field access granted to them. A structure without a field access (or whose field access is
 * unknown) is returned as it is. Memoised per set of granted layers, so that what core memoises
 * per structure object serves every caller holding the same layers.
 * @example
 * effectiveStructure(invoice, definitions.fieldAccess("FAL_INVOICE"), auditor); // inv_secret: I -> R
 */
export function effectiveStructure(structure: SmartStructure, access: FieldAccess | undefined, principal: Principal): SmartStructure {
  if (structure.fieldAccess === undefined || access === undefined) return boundBySets(structure);
  const key = access.layers.map((layer) => (isGranted([layer.grant], principal) ? "1" : "0")).join("");
  let byAccess = effective.get(structure);
  if (!byAccess) effective.set(structure, (byAccess = new WeakMap()));
  let byKey = byAccess.get(access);
  if (!byKey) byAccess.set(access, (byKey = new Map()));
  let result = byKey.get(key);
  if (!result) {
    result = withRights(structure, grantedRights(access, principal), true);
    byKey.set(key, result);
  }
  return result;
}

/** Per structure and field access, the structure as every layer makes it. */
const widest = new WeakMap<SmartStructure, WeakMap<FieldAccess, SmartStructure>>();

/**
 * The structure as an account granted every layer of its field access sees it (admin does): what
 * anyone at all may see of it. Full-text search indexes this, and hides from each reader what
 * their own view hides (search-elements.ts). Memoised per structure and field access.
 */
export function widestStructure(structure: SmartStructure, access: FieldAccess | undefined): SmartStructure {
  if (structure.fieldAccess === undefined || access === undefined) return boundBySets(structure);
  let byAccess = widest.get(structure);
  if (!byAccess) widest.set(structure, (byAccess = new WeakMap()));
  let result = byAccess.get(access);
  if (!result) {
    const rights = new Map<string, number>();
    for (const layer of access.layers) for (const [id, letter] of Object.entries(layer.fields)) rights.set(id, (rights.get(id) ?? 0) | LAYER_RIGHTS[letter]);
    result = withRights(structure, rights, true);
    byAccess.set(access, result);
  }
  return result;
}

const keys = new WeakMap<SmartStructure, string>();

/**
 * A text naming the visibility of every field of a structure (one letter per field, in logical
 * order): what a caller's ETags change with when the structure has a field access. Memoised per object.
 */
export function visibilityKey(structure: SmartStructure): string {
  let key = keys.get(structure);
  if (key === undefined) {
    key = flattenFields(structure).map(visibilityOf).join("") + (structure.fieldSets ?? []).map((set) => set.visibility ?? "W").join("");
    keys.set(structure, key);
  }
  return key;
}
