import { MERGED_FIELD_STRUCTURES, type ElementQuery, type FieldCondition, type FilterCondition, type FilterNode, type FilterProperty, type PropertyCondition } from "@lineage/core";
import { fieldIndexName } from "./field-indexes.ts";
import { compileFilter, MAX_BOUND_VALUES } from "./filter-sql.ts";
import { ID_INDEX, INITID_INDEX, keyedIndexName, type KeyedProperty, type ListScope } from "./list-indexes.ts";

/*
 * The conditions of a filter an index finds its rows by: those every element listed must pass (the
 * filter itself, or the conditions of its `and`, nested `and`s included), that compare a property
 * or an indexed field (a single scalar the core indexes, field-indexes.ts) by equality, `in` or a
 * range. The conditions on one key (`cdate` from and to) make one seek, read together as one range.
 * A property is sought on its list index (status, key, id, structure, profile: list-indexes.ts); an
 * indexed field on its index in each structure it may hold for (status, value, id, profile), which
 * is partial on its structure: one arm per structure, the structure written out.
 */

/** A seek on a property's list index. */
export interface PropertySeek {
  readonly kind: "property";
  readonly property: FilterProperty;
  readonly conditions: readonly PropertyCondition[];
  /** The index read, for the list's scope (one structure's, or the whole collection's). */
  readonly index: string;
}

/** One structure's part of a field seek: its index of the field. */
export interface FieldSeekArm {
  readonly structure: string;
  readonly index: string;
}

/** A seek on an indexed field's index, in each structure the list holds it in. */
export interface FieldSeek {
  readonly kind: "field";
  readonly field: string;
  readonly conditions: readonly FieldCondition[];
  readonly arms: readonly FieldSeekArm[];
}

export type Seek = PropertySeek | FieldSeek;

/** What resolving a field seek looks up in the database. */
export interface SeekLookups {
  /**
   * The structures whose elements a list of every structure holds: those of the catalog, or
   * undefined when some live revision of the status is of a structure the catalog lacks.
   */
  everyStructure(status: ElementQuery["status"]): readonly string[] | undefined;
  /** True when the index exists (a field's index exists for the fields the core indexes only). */
  hasIndex(name: string): boolean;
}

/** The operators an index answers: an equality, several, or a range. */
const SEEK_OPERATORS: ReadonlySet<string> = new Set(["eq", "in", "lt", "lte", "gt", "gte"]);

/** The properties sought on an index, and that index's key among the keyed ones (list-indexes.ts). */
const SEEK_PROPERTIES: Readonly<Record<FilterProperty, KeyedProperty | "initid" | "fromname">> = {
  title: "title", name: "name", revision: "revision", owner: "owner", state: "state", cdate: "cdate", mdate: "mdate",
  initid: "initid", fromname: "fromname",
};

/** The conditions every element listed passes: the root, or its `and`'s, nested `and`s flattened. */
function requiredConditions(node: FilterNode): FilterCondition[] {
  if (node.kind !== "group") return [node];
  return node.logic === "and" ? node.nodes.flatMap(requiredConditions) : [];
}

/** True when an index finds the rows the condition holds for. */
function seekable(condition: FilterCondition): boolean {
  if (!SEEK_OPERATORS.has(condition.operator)) return false;
  return condition.kind === "property" || (condition.indexed && condition.shape === "single" && condition.comparison !== "html");
}

/** The index of a property seek, for a list of one structure or of several (or all). */
function propertyIndex(property: FilterProperty, scope: ListScope): string {
  const key = SEEK_PROPERTIES[property];
  if (key === "fromname") return ID_INDEX.structure;
  if (key === "initid") return INITID_INDEX[scope];
  return keyedIndexName(key, "asc", scope);
}

/**
 * The seeks of a query's filter, each with the indexes it reads; `"none"` when a field seek may hold
 * for no structure of the list (the filter then holds for no element). A field seek whose structures
 * are not all known, or one of which lacks the field's index, or that would read more structures
 * than a merge does (MERGED_FIELD_STRUCTURES) or bind more values than SQLite does (each arm
 * tests the filter), is left out: the page is then walked.
 */
export function filterSeeks(query: Pick<ElementQuery, "filter" | "structures" | "status">, lookups: SeekLookups): Seek[] | "none" {
  if (!query.filter) return [];
  const conditions = requiredConditions(query.filter).filter(seekable);
  const scope: ListScope = query.structures?.length === 1 ? "structure" : "all";
  const properties = new Map<FilterProperty, PropertyCondition[]>();
  const fields = new Map<string, FieldCondition[]>();
  for (const condition of conditions) {
    if (condition.kind === "property") properties.set(condition.property, [...(properties.get(condition.property) ?? []), condition]);
    else {
      const key = JSON.stringify([condition.field, condition.structures ?? null]);
      fields.set(key, [...(fields.get(key) ?? []), condition]);
    }
  }
  const seeks: Seek[] = [...properties].map(([property, sought]) => ({ kind: "property", property, conditions: sought, index: propertyIndex(property, scope) }));
  for (const sought of fields.values()) {
    const { field, structures: holding } = sought[0]!;
    const listed = query.structures;
    const structures = holding && listed ? holding.filter((name) => listed.includes(name)) : holding ?? listed ?? lookups.everyStructure(query.status);
    if (structures?.length === 0) return "none";
    if (!structures || structures.length > MERGED_FIELD_STRUCTURES) continue;
    if (structures.length * (2 + compileFilter(query.filter).params.length) >= MAX_BOUND_VALUES) continue;
    const arms = structures.map((structure) => ({ structure, index: fieldIndexName(structure, field, "asc") }));
    if (arms.every((arm) => lookups.hasIndex(arm.index))) seeks.push({ kind: "field", field, conditions: sought, arms });
  }
  return seeks;
}
