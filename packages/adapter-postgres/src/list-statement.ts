import {
  decisiveOrder, MERGED_FIELD_STRUCTURES, SORTABLE_PROPERTIES, type ElementQuery, type FieldCondition, type FilterNode, type OrderTerm,
  grantsOwned, type PropertyCondition, readableKeys,
} from "@lineage/core";
import { keyedEntries, onOneField } from "./count-statement.ts";
import { conditionStructures, conjuncts, filterCondition, holdsOnEntries, keyedOnly, keyTest, rankOf, type Bind, type FilterList } from "./filter-sql.ts";
import { KEYED_PROPERTIES, sortKey, STRUCTURE } from "./list-indexes.ts";
import { statement, type Statement } from "./sql-client.ts";
import { boundSortKeyRights, readableCondition, sortKeyRightsValues } from "./readable-condition.ts";

/** The columns of a revision, in the order every read selects them (element-repository.ts maps them). */
export const COLUMNS = `id, initid, revision, structure, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key, own_profile, profile`;

/** A statement and how a query fills its parameters. */
export interface ListStatement {
  readonly statement: Statement;
  bind(query: ElementQuery): unknown[];
}

/** The SQL of a list page's ids, in order, and how a query fills its parameters. */
export interface PageSql {
  readonly text: string;
  bind(query: ElementQuery): unknown[];
}

/**
 * What makes a list's statement: its order, structures and rights, and its filter, with its status:
 * a filter's values are written as parameters of the statement made for it (filter-sql.ts), the
 * others are filled from each query.
 */
export type ListShape = Pick<ElementQuery, "orderBy" | "structures" | "readable"> & Partial<Pick<ElementQuery, "filter" | "status" | "offset" | "limit">>
  & Pick<FilterList, "walked">;

type SortableProperty = (typeof SORTABLE_PROPERTIES)[number];

/** How each property sorts, as its index holds it (list-indexes.ts). */
const PROPERTY_KEYS: Readonly<Record<Exclude<SortableProperty, "status">, { column: string; text: boolean; nullable: boolean }>> = {
  ...KEYED_PROPERTIES,
  id: { column: "id", text: false, nullable: false },
  initid: { column: "initid", text: false, nullable: false },
  fromname: { column: "structure", text: true, nullable: false },
};

/** Parameters numbered as they are added, with what fills each. */
class Parameters {
  readonly binders: ((query: ElementQuery) => unknown)[] = [];
  add(bind: (query: ElementQuery) => unknown): string {
    this.binders.push(bind);
    return `$${this.binders.length}`;
  }
  bind = (query: ElementQuery): unknown[] => this.binders.map((bind) => bind(query));
  /** A value of the statement's own (a filter's): the same for every query it is run for. */
  value: Bind = (value) => this.add(() => value);
}

/** The filter of a list, as a condition to add to those on the elements row `row` (none without a filter). */
function filtered(query: ListShape, row: string, parameters: Parameters): string {
  return query.filter ? ` and ${filterCondition(query.filter, row, filterList(query), parameters.value)}` : "";
}

/** The list a filter narrows (filter-sql.ts): a filtered statement is made for a status. */
export function filterList(query: ListShape): FilterList {
  if (query.status === undefined) throw new Error("A filtered list statement is made for a status");
  return { status: query.status, structures: query.structures, readable: query.readable, walked: query.walked };
}

/**
 * The statement of a list page: the ids of the page first, from the index of its order (the
 * skipped entries read from the index alone), then their rows. Orders on a structure's indexed
 * field read element_sort_keys when the field is kept there (a structure's collection: each of its
 * structures' keys, merged), else sort the structure's revisions.
 * The structures are parameters, so one statement serves every caller of the same order.
 */
export function listStatement(query: ListShape): ListStatement {
  const parameters = new Parameters();
  const page = pageOf(query);
  const many = keepsMany(page, parameters);
  const ids = many ? `(case when ${many} then ${pageIds({ ...page, query: { ...page.query, walked: true } }, parameters)} else ${pageIds(page, parameters)} end)` : pageIds(page, parameters);
  const guard = pastTheEnd(page, parameters);
  return {
    statement: statement(
      `select ${COLUMNS} from unnest(${guard ? `case when ${guard} then ${ids} end` : ids}) with ordinality as page(id, n) join elements using (id) order by page.n`,
      { unnamed: true },
    ),
    bind: page.bind(parameters),
  };
}

/**
 * The SQL of a page's ids alone; `keyedField` picks, for an order on a field, the statement that
 * reads element_sort_keys (else the sort of the structure's revisions); exported so that tests can
 * check its plans.
 */
export function listPageSql(query: ListShape, { keyedField = true } = {}): PageSql {
  const parameters = new Parameters();
  const page = pageOf(query);
  const keyed = keyedFieldOrder(page.query, page.terms);
  const text = keyed && keyedField ? sortKeysPage(page.query, keyed.field, keyed.idDirection, parameters) : elementsPage(page.query, page.terms, parameters);
  return { text, bind: page.bind(parameters) };
}

/** From this offset on, a filtered page first counts what its keyed conditions keep (pastTheEnd). */
const COUNTED_OFFSET = 1_000;

/**
 * The condition that a filtered page deep in its list (from COUNTED_OFFSET) starts before the end of
 * what each field of its keyed conditions keeps: for each such field (of the filter's `and`), its
 * entries that pass them and the filter's conditions on the state, counted up to one past the
 * offset, on their index alone. Every element of the page is one of them, so a page past one
 * field's count is empty, and its order's index is not walked to the end to find it so; the count
 * reads at most as many entries as the page would skip. The field of an order read from its sort
 * keys is not counted: its conditions are the range the page walks, which ends where the count
 * would. Undefined when there is nothing to count.
 */
function pastTheEnd({ query, terms }: Page, parameters: Parameters): string | undefined {
  if (!query.filter || (query.offset ?? 0) < COUNTED_OFFSET) return undefined;
  const walked = keyedFieldOrder(query, terms)?.field.key;
  const fields = new Map<string, FieldCondition[]>();
  const states: PropertyCondition[] = [];
  for (const node of conjuncts(query.filter)) {
    if (node.kind === "field" && holdsOnEntries(node) && node.field !== walked) fields.set(node.field, [...(fields.get(node.field) ?? []), node]);
    if (node.kind === "property" && node.property === "state") states.push(node);
  }
  if (fields.size === 0) return undefined;
  const list = filterList(query);
  return [...fields.values()].map((keyed) => {
    const entries = keyedEntries({ keyed, states }, list, parameters.value);
    if (!entries) return "false";
    const offset = parameters.add((q) => q.offset);
    return `(select count(*) from (select from ${entries} limit ${offset}::bigint + 1) as counted) > ${offset}::bigint`;
  }).join(" and ");
}

/**
 * The condition that a filter of keyed conditions on one field keeps enough of a reader's list for
 * its first pages to be found sooner by walking the order's index, each entry's key looked up, than
 * by reading all the filter keeps and sorting them. PostgreSQL estimates what a reader's rights and
 * a value keep together as if they were unrelated (they are said on the entries and on the rows, so
 * it counts them twice), and takes the second way when the rights keep all of a value. Enough: the
 * pages up to this one in a list of N elements walk about (offset + limit) × N / kept entries at
 * about 2 µs each (the rights tested on every one, the key looked up on those they keep), sorting
 * reads every kept element's row at about 5 µs: the walk is cheaper from √(0.4 × (offset + limit) × N)
 * kept on. The entries are counted up to that, on their index alone. Undefined for a caller with
 * every right (no rights to misjudge), a page past COUNTED_OFFSET or without a limit, another
 * filter (with a condition on the state, PostgreSQL would rather read the state's index than walk
 * the order's), or an order on the conditions' field.
 */
function keepsMany({ query, terms }: Page, parameters: Parameters): string | undefined {
  const eligible = query.filter && query.readable && query.limit != null && (query.offset ?? 0) < COUNTED_OFFSET;
  const keyed = eligible ? onOneField(conjuncts(query.filter!)) : undefined;
  // On the order's own field, the conditions are a range of the index walked (sortKeysPage).
  const first = terms[0]!;
  if (!keyed || keyed.states.length > 0 || (first.kind === "field" && first.key === keyed.keyed[0]!.field)) return undefined;
  const entries = keyedEntries(keyed, filterList(query), parameters.value);
  if (!entries) return undefined;
  const pages = `(${parameters.add((q) => q.offset)}::float8 + ${parameters.add((q) => q.limit)})`;
  const enough = `(select ceil(sqrt(0.4 * ${pages} * greatest(reltuples, 1)))::bigint from pg_class where oid = 'elements'::regclass)`;
  return `(select count(*) from (select from ${entries} limit ${enough}) as counted) >= ${enough}`;
}

/** The list a page is read from, in the order that decides it, and how a query fills the parameters of its statement. */
interface Page {
  readonly query: ListShape;
  readonly terms: readonly OrderTerm[];
  bind(parameters: Parameters): (query: ElementQuery) => unknown[];
}

/**
 * How a page is read. A list in the order of the id alone, filtered on one value of a field the
 * core indexes, is in that field's order too (its elements share the value): it is read from the
 * field's sort keys, whose index holds the value's entries in the id's order, of the structures
 * the condition may hold for (rows of others fail it).
 */
function pageOf(query: ListShape): Page {
  const terms = decisiveOrder(query.orderBy, { oneStructure: query.structures?.length === 1 });
  const [id] = terms;
  // The id's order only: a live revision's initid is its lineage's first id, in another order than its own id.
  const equal = terms.length === 1 && id!.kind === "property" && id!.key === "id" && query.filter ? conjuncts(query.filter).find(isOneValue) : undefined;
  const structures = equal && conditionStructures(equal, filterList(query));
  if (!equal || !structures || structures.length === 0 || structures.length > MERGED_FIELD_STRUCTURES) {
    return { query, terms, bind: (parameters) => parameters.bind };
  }
  const field: OrderTerm = { kind: "field", key: equal.field, direction: "asc" };
  return {
    query: { ...query, structures, orderBy: [field, id!] },
    terms: [field, id!],
    bind: (parameters) => (q) => parameters.bind({ ...q, structures }),
  };
}

/** A keyed condition of one value (`eq`, or `in` one): its elements' sort keys are equal. */
function isOneValue(node: FilterNode): node is FieldCondition {
  return node.kind === "field" && holdsOnEntries(node) && (node.operator === "eq" || (node.operator === "in" && node.values.length === 1));
}

/** The array of a page's ids: a field kept in element_sort_keys is read there, once the statement checks it is. */
function pageIds({ query, terms }: Page, parameters: Parameters): string {
  const keyed = keyedFieldOrder(query, terms);
  if (!keyed) return `array(${elementsPage(query, terms, parameters)})`;
  const field = literal(keyed.field.key);
  // Several structures (a structure's collection): every one keeps the field, as its descendants do a parent's.
  const kept = query.structures!.length === 1
    ? `exists (select from structures where name = ${parameters.add((q) => q.structures![0])} and ${field} = any(sort_fields))`
    : `(select count(*) from structures where name = any(${parameters.add((q) => q.structures)}::text[]) and ${field} = any(sort_fields))` +
      ` = ${query.structures!.length}`;
  return `(case when ${kept} then array(${sortKeysPage(query, keyed.field, keyed.idDirection, parameters)}) else array(${elementsPage(query, terms, parameters)}) end)`;
}

/** An order on a field then the id, of one structure or a few (a structure's collection): what element_sort_keys answers. */
function keyedFieldOrder(query: Pick<ElementQuery, "structures">, terms: readonly OrderTerm[]) {
  const [field, id, more] = terms;
  const count = query.structures?.length ?? 0;
  if (count < 1 || count > MERGED_FIELD_STRUCTURES || field?.kind !== "field" || id?.kind !== "property" || id.key !== "id" || more) return undefined;
  return { field, idDirection: id.direction };
}

/**
 * A field order's page from element_sort_keys. Several structures are read each from its keys, in
 * order, and merged (a UNION ALL of ordered parts, which PostgreSQL reads as one Merge Append): a structure's sort
 * keys hold its inherited fields too, so a parent's field is kept in every descendant. A filter's
 * conditions on the field itself are tested on the entries walked (a range of the field is a range
 * of the index); its others on each entry's element.
 */
function sortKeysPage(query: ListShape, field: OrderTerm, idDirection: "asc" | "desc", parameters: Parameters): string {
  const d = field.direction;
  const status = parameters.add((q) => q.status);
  // element_sort_keys holds each element's profile too (its trigger copies it): rights are filtered on the index entries.
  const readable = query.readable === undefined ? "" : ` and ${sortKeysRights(query, parameters)}`;
  const { onKeys, rest, join } = splitFilter(query, field.key, parameters);
  // The element of an entry is live, of its status (the trigger keeps no other's keys): said, so that PostgreSQL may
  // rather find the elements on a list index (a selective condition on a property) and look their entries up.
  const from = join ? `element_sort_keys as k join elements as e on e.id = k.element_id and e.status = ${status} and not e.fixed` : "element_sort_keys as k";
  const keysOf = (i: number) =>
    `k.structure collate "C" = ${parameters.add((q) => q.structures![i])} and k.field = ${literal(field.key)} and k.status = ${status}${readable}${onKeys}${rest}`;
  const order = `order by k.rank ${d}, k.num ${d}, k.txt collate "C" ${d}, k.element_id ${idDirection}`;
  const count = query.structures?.length ?? 1;
  if (count === 1) return `select k.element_id from ${from} where ${keysOf(0)} ${order} ${limitOffset(parameters)}`;
  // Each part ordered too: PostgreSQL plans each apart, and merges them only when each comes in order.
  const parts = Array.from({ length: count }, (_, i) => `(select k.element_id, k.rank, k.num, k.txt from ${from} where ${keysOf(i)} ${order})`);
  return `select k.element_id from (${parts.join(" union all ")}) as k ${order} ${limitOffset(parameters)}`;
}

/**
 * A filter's conditions on a page's sort keys `k` of `field` (those that hold on its entries, each
 * element's one), and on their elements (the others), each as conditions to add; `join` when those
 * read the elements' rows (`e`), not only other sort keys of theirs.
 */
function splitFilter(query: ListShape, field: string, parameters: Parameters): { onKeys: string; rest: string; join: boolean } {
  if (!query.filter) return { onKeys: "", rest: "", join: false };
  const list = filterList(query);
  const all = conjuncts(query.filter);
  const onField = all.filter((node): node is FieldCondition => node.kind === "field" && node.field === field && holdsOnEntries(node));
  const others: FilterNode[] = all.filter((node) => !onField.includes(node as FieldCondition));
  // The rank a condition settles (a text compared: texts only), said once, spares the others the other rank: the index
  // is walked from (rank, num) or (rank, null, txt) on, and a range is two bounds of it.
  const known = onField.map(rankOf).find((rank) => rank !== undefined);
  const rank = known === undefined ? "" : known === 1 ? " and k.rank = 1" : " and k.rank = 2 and k.num is null";
  const onKeys = rank + onField.map((condition) => {
    const structures = conditionStructures(condition, list);
    if (structures?.length === 0) return " and false";
    const of = condition.structures ? ` and k.structure collate "C" = any(${parameters.value(structures)}::text[])` : "";
    return `${of} and ${keyTest(condition, "k", known, parameters.value)}`;
  }).join("");
  if (others.length === 0) return { onKeys, rest: "", join: false };
  const remaining: FilterNode = { kind: "group", logic: "and", nodes: others };
  // Conditions on other fields' sort keys look them up by the entry's element, and the state is the entry's own: its row is not read.
  const join = !keyedOnly(remaining);
  const rest = ` and ${join ? filterCondition(remaining, "e", list, parameters.value) : filterCondition(remaining, "k", list, parameters.value, "k.element_id")}`;
  return { onKeys, rest, join };
}

/** A page read from `elements`, through a list index for any order of properties. */
function elementsPage(query: ListShape, terms: readonly OrderTerm[], parameters: Parameters): string {
  const keys = terms.map(orderKey);
  const from = ["elements", ...keys.flatMap((key) => (key.lateral ? [key.lateral] : []))].join(" cross join ");
  const order = keys.map((key) => key.sql).join(", ");
  const status = `status = ${parameters.add((q) => q.status)} and not fixed`;
  const rights = query.readable === undefined ? status : `${status} and ${readableCondition(parameters.add((q) => readableKeys(q.readable!)), grantsOwned(query.readable))}`;
  const live = `${rights}${filtered(query, "elements", parameters)}`;
  const structures = query.structures;
  if (structures === undefined) return `select id from ${from} where ${live} order by ${order} ${limitOffset(parameters)}`;
  if (structures.length === 1) {
    return `select id from ${from} where ${live} and ${STRUCTURE} = ${parameters.add((q) => q.structures![0])} order by ${order} ${limitOffset(parameters)}`;
  }
  // Several structures (those a caller may view): the whole collection's index, the others' entries left out by the
  // structure each holds. (PostgreSQL would not merge one ordered scan per structure: it sorts their union.)
  return `select id from ${from} where ${live} and ${STRUCTURE} = any(${parameters.add((q) => q.structures)}::text[])` +
    ` order by ${order} ${limitOffset(parameters)}`;
}

/** The rights of a list's caller on its sort keys `k`: their values are filled from each query (the statement is kept per readableForm). */
function sortKeysRights(query: ListShape, parameters: Parameters): string {
  return boundSortKeyRights(query.readable!, (_, i) => parameters.add((q) => sortKeyRightsValues(q.readable!)[i]), "k");
}

function limitOffset(parameters: Parameters): string {
  return `limit ${parameters.add((q) => q.limit)} offset ${parameters.add((q) => q.offset)}`;
}

/**
 * An ORDER BY key, written as its list index writes it. A field sorts on its sort key (schema.ts,
 * elementSortKeys), joined to each row (`lateral`): null and missing first, then numbers (booleans as
 * 0 and 1) by value, then texts, arrays and objects by their text, by code point.
 */
function orderKey(term: OrderTerm, position: number): { sql: string; lateral?: string } {
  if (term.kind === "property") {
    if (!Object.hasOwn(PROPERTY_KEYS, term.key)) throw new Error(`Unknown sort property "${term.key}"`);
    const how = PROPERTY_KEYS[term.key as Exclude<SortableProperty, "status">];
    return { sql: sortKey(how.column, how, term.direction) };
  }
  const k = `k${position}`;
  const d = term.direction;
  return { sql: `${k}.rank ${d}, ${k}.num ${d}, ${k}.txt collate "C" ${d}`, lateral: `lateral lineage_sort_key("values", ${literal(term.key)}) as ${k}` };
}

/** The ORDER BY of terms of properties, each written as its list index writes it (for grouped-page.ts). */
export function orderKeys(terms: readonly OrderTerm[]): string {
  return terms.map((term, position) => orderKey(term, position).sql).join(", ");
}

/** A text literal: field keys are written into the statement, as plans are made for them. */
function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
