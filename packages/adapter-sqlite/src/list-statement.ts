import { decisiveOrder, MERGED_FIELD_STRUCTURES, SORTABLE_PROPERTIES, type ElementQuery, type OrderTerm } from "@lineage/core";
import { fieldIndexName, fieldSortExpression, sqlText } from "./field-indexes.ts";
import { compileFilter, MAX_BOUND_VALUES, type FieldProbes } from "./filter-sql.ts";
import {
  ID_INDEX, INITID_INDEX, KEYED_PROPERTIES, keyedIndexName, STRUCTURE_DESC_INDEX, type KeyDirection, type KeyedProperty, type ListScope,
} from "./list-indexes.ts";
import { readableCondition, readableValues } from "./readable-condition.ts";

/** The statement of a list page's ids, and how a query fills its parameters. */
export interface PageStatement {
  readonly sql: string;
  bind(query: ElementQuery): unknown[];
}

/** What a list page is read by: the query, its filter's compiled condition and values apart (filter-sql.ts). */
export type PageQuery = Pick<ElementQuery, "orderBy" | "structures" | "limit" | "readable" | "filter">;

/** A parameter of a page statement: from the query, or the filter's values (bound once per arm that tests the filter). */
type Binder = (query: ElementQuery, filter: readonly unknown[]) => readonly unknown[];

/** The binding of a statement out of its binders, the filter compiled once per call. */
function binding(binders: readonly Binder[]): PageStatement["bind"] {
  return (q) => {
    const filter = q.filter ? compileFilter(q.filter).params : [];
    return binders.flatMap((bind) => bind(q, filter));
  };
}

/**
 * The indexes a walk of one structure tests its filter's single fields on (FieldProbes), those that
 * exist (`hasIndex`); undefined for a list of several structures or without a filter. The field the
 * order leads with is never probed: the walk's own index holds its value, and a range on it bounds
 * the walk (a seek), where a probe per entry would walk every element in that order.
 */
export function walkProbes(query: Pick<ElementQuery, "structures" | "filter" | "orderBy">, hasIndex: (name: string) => boolean): FieldProbes | undefined {
  const structure = query.structures?.length === 1 ? query.structures[0]! : undefined;
  if (structure === undefined || !query.filter) return undefined;
  const [first] = query.orderBy;
  const ordered = first?.kind === "field" ? first.key : undefined;
  return { structure, index: (field) => (field === ordered ? undefined : [fieldIndexName(structure, field, "asc")].find(hasIndex)) };
}

/** The filter's condition as a term of a WHERE (` and ...`), or nothing; `probes`: its single fields tested on their indexes. */
function filterTerm(query: Pick<ElementQuery, "filter">, probes?: FieldProbes): string {
  return query.filter ? ` and ${compileFilter(query.filter, undefined, probes).sql}` : "";
}

/** The filter's values, where an arm tests it. */
const FILTER_VALUES: Binder = (_, filter) => filter;

type SortableProperty = (typeof SORTABLE_PROPERTIES)[number];

/** The column each property sorts on. */
const PROPERTY_COLUMNS: Readonly<Record<SortableProperty, string>> = {
  id: "id", initid: "initid", title: "title", name: "name", revision: "revision", owner: "owner", state: "state",
  fromname: "structure", fromid: "structure_id", cdate: "created_at", mdate: "modified_at", status: "status",
};

/**
 * The SQL of the ids of a list page, in order, from the index of its order (list-indexes.ts, named
 * with INDEXED BY: a property order never falls back to sorting the table) or of a field's
 * (field-indexes.ts): the page walks the index, skipped entries read from it alone. One structure
 * reads that structure's indexes; several (the ones a caller may view) are merged from theirs
 * (mergedPageSql; a field order of a structure's collection from each one's field index,
 * mergedFieldPageSql), or read the whole collection's and leave out the others' entries by the
 * structure each entry holds. The limit is written out
 * (see createElementRepository); exported so that tests can check its query plan.
 */
export function listPageSql(query: PageQuery, { hasIndex }: { hasIndex?: (name: string) => boolean } = {}): PageStatement {
  const limit = query.limit ?? -1;
  if (!Number.isSafeInteger(limit)) throw new RangeError(`A list limit must be a whole number, not ${limit}`);
  const structures = query.structures;
  const oneStructure = structures?.length === 1;
  const terms = decisiveOrder(query.orderBy, { oneStructure });
  const binders: Binder[] = [(q) => [q.status]];
  const where = ["status = ?", "fixed = 0"];
  if (oneStructure && terms.some((term) => term.kind === "field")) {
    // Written out: a field's indexes hold one structure's revisions, which SQLite must see the query asks for.
    where.push(`structure = ${sqlText(structures[0]!)}`);
  } else if (oneStructure) {
    where.push("structure = ?");
    binders.push((q) => [q.structures![0]]);
  } else if (structures) {
    where.push("structure in (select value from json_each(?))");
    binders.push((q) => [JSON.stringify(q.structures)]);
  }
  const readable = query.readable === undefined ? undefined : readableCondition(query.readable);
  if (readable) {
    where.push(readable);
    binders.push((q) => readableValues(q.readable!));
  }
  // The filter is tested on the entries the page walks: on the index entries alone when it names
  // the properties an order index holds (list-indexes.ts), else on their rows.
  const filter = filterTerm(query);
  if (filter) binders.push(FILTER_VALUES);
  binders.push((q) => [q.offset]);
  // Each part of a merge tests the filter, binding its values again: past SQLite's bound, one statement reads them all.
  const perPart = 3 + (query.filter ? compileFilter(query.filter).params.length : 0);
  const merged = structures && structures.length > 1 && structures.length * perPart < MAX_BOUND_VALUES
    ? mergedFieldPageSql(terms, structures, limit, readable, filter) ?? mergedPageSql(terms, structures.length, limit, readable, filter)
    : undefined;
  if (merged) return merged;
  const index = indexOf(terms, oneStructure ? "structure" : "all") ??
    (oneStructure && query.filter && hasIndex ? fieldIndexOf(terms, structures[0]!, hasIndex) : undefined);
  const order = terms.map((term) => `${sortExpression(term)} ${term.direction}`).join(", ");
  const probes = hasIndex && walkProbes(query, hasIndex);
  const walked = probes ? filterTerm(query, probes) : filter;
  return {
    sql: `select id from elements${index ? ` indexed by ${index}` : ""} where ${where.join(" and ")}${walked} order by ${order} limit ${limit} offset ?`,
    bind: binding(binders),
  };
}

/**
 * The index of one structure's field order (the field then the id), named for a filtered walk: SQLite
 * would rather sort what a condition's index finds, which the planner (filter-plan.ts) chose not to
 * do; undefined when the field has none (`hasIndex`).
 */
function fieldIndexOf(terms: readonly OrderTerm[], structure: string, hasIndex: (name: string) => boolean): string | undefined {
  const [first, next] = terms;
  if (first?.kind !== "field" || next?.kind !== "property" || next.key !== "id") return undefined;
  const name = fieldIndexName(structure, first.key, indexVariant(first, next));
  return hasIndex(name) ? `"${name}"` : undefined;
}

/**
 * Up to this many structures (those a caller may view) are each read from their own index, in
 * order, and merged (a compound SELECT, which SQLite merges when each part comes in order); more
 * read the whole collection's index, skipping the others' entries. A merge step costs more per
 * structure, a skipped entry as much whatever the structures: few small structures merge cheaper.
 */
const MERGED_STRUCTURES = 6;

/** The page of an order of one key (then the id) over several structures, merged from theirs; else undefined. */
function mergedPageSql(terms: readonly OrderTerm[], count: number, limit: number, readable: string | undefined, filter: string): PageStatement | undefined {
  const [first, second, more] = terms;
  if (count > MERGED_STRUCTURES || first?.kind !== "property" || more) return undefined;
  // The key then the id, or a key no two rows share alone (decisiveOrder).
  if (second ? second.kind !== "property" || second.key !== "id" : first.key !== "id" && first.key !== "initid") return undefined;
  // fromname reads its index by structure already; one structure's fromid is a constant, no index orders by it.
  if (first.key === "fromname" || first.key === "fromid") return undefined;
  const index = indexOf(terms, "structure");
  if (!index) return undefined;
  const column = sortExpression(first);
  const select = first.key === "id" ? "select id" : `select id, ${column}`;
  const arm = `${select} from elements indexed by ${index} where status = ? and fixed = 0 and structure = ?${readable ? ` and ${readable}` : ""}${filter}`;
  const order = first.key === "id" ? `1 ${first.direction}` : `2 ${first.direction}${second ? `, 1 ${second.direction}` : ""}`;
  const binders = Array.from({ length: count }, (_, i): Binder[] => [
    (q) => [q.status, q.structures![i]], ...(readable ? [(q: ElementQuery) => readableValues(q.readable!)] : []), ...(filter ? [FILTER_VALUES] : []),
  ]).flat();
  return {
    sql: `${Array.from({ length: count }, () => arm).join(" union all ")} order by ${order} limit ${limit} offset ?`,
    bind: binding([...binders, (q) => [q.offset]]),
  };
}

/**
 * The page of a field order (then the id) over several structures, merged from each one's index of
 * the field (field-indexes.ts: a structure's indexes hold its inherited fields too, so a parent's
 * fields are indexed in every descendant); else undefined. Each part names its structure written
 * out, as the partial index does, so that SQLite reads it in order and merges the parts.
 */
function mergedFieldPageSql(
  terms: readonly OrderTerm[], structures: readonly string[], limit: number, readable: string | undefined, filter: string,
): PageStatement | undefined {
  const [field, id, more] = terms;
  if (structures.length > MERGED_FIELD_STRUCTURES || field?.kind !== "field" || id?.kind !== "property" || id.key !== "id" || more) return undefined;
  const arm = (structure: string) => `select id, ${fieldSortExpression(field.key)} from elements where status = ? and fixed = 0` +
    ` and structure = ${sqlText(structure)}${readable ? ` and ${readable}` : ""}${filter}`;
  const binders = structures.flatMap((): Binder[] => [
    (q) => [q.status], ...(readable ? [(q: ElementQuery) => readableValues(q.readable!)] : []), ...(filter ? [FILTER_VALUES] : []),
  ]);
  return {
    sql: `${structures.map(arm).join(" union all ")} order by 2 ${field.direction}, 1 ${id.direction} limit ${limit} offset ?`,
    bind: binding([...binders, (q) => [q.offset]]),
  };
}

/** The SQL value an order term sorts on. */
export function sortExpression(term: OrderTerm): string {
  if (term.kind === "field") return fieldSortExpression(term.key);
  if (!Object.hasOwn(PROPERTY_COLUMNS, term.key)) throw new Error(`Unknown sort property "${term.key}"`);
  return PROPERTY_COLUMNS[term.key as SortableProperty];
}

/** Which of a key's two indexes (a property's or a field's) gives the order of `first`, then of the id when it comes next. */
function indexVariant(first: OrderTerm, next: OrderTerm | undefined): KeyDirection {
  const followedById = next?.kind === "property" && next.key === "id";
  return (followedById ? next.direction !== first.direction : first.direction === "asc") ? "asc" : "desc";
}

/**
 * The index that gives the order of the first term, and of the id after it when the id comes next:
 * the `_desc` index holds the key in the id's direction, the other against it. Field orders have no
 * name here: their index exists only for the fields core indexes, and SQLite finds it by its expression
 * (a filtered walk names it: fieldIndexOf).
 */
function indexOf(terms: readonly OrderTerm[], scope: ListScope): string | undefined {
  const [first, next] = terms;
  if (!first || first.kind === "field") return undefined;
  const variant = indexVariant(first, next);
  switch (first.key) {
    case "id": return ID_INDEX[scope];
    case "initid": return INITID_INDEX[scope];
    case "fromname": return variant === "asc" ? ID_INDEX.structure : STRUCTURE_DESC_INDEX;
    default:
      return Object.hasOwn(KEYED_PROPERTIES, first.key) ? keyedIndexName(first.key as KeyedProperty, variant, scope) : undefined;
  }
}
