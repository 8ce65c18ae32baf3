import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchesFilter, type ElementQuery, type FieldCondition, type FilterNode, type OrderTerm, type PropertyCondition, type SmartField, type Store } from "@lineage/core";
import { openPostgresStore } from "../src/index.ts";
import { listStatement } from "../src/list-statement.ts";
import { freshDatabase } from "../src/testing/fresh-database.ts";

/*
 * A filtered list is the unfiltered list with the elements filter-match.ts refuses left out, then
 * paged: through every way a page is read (an order's index, a grouped order, a field's sort keys
 * of one structure or merged from several, an id order read from a field's value), for the whole
 * collection, some structures and a reader with rights per element. The unfiltered lists are held
 * to a sort of the table by query-plans.test.ts; the filter contract suite holds the conditions.
 */

const ROWS = 3_000;
const FIELDS: SmartField[] = [
  { id: "f_text", type: "text" }, { id: "f_int", type: "int" }, { id: "f_enum", type: "enum", enum: "colors" }, { id: "f_date", type: "date" },
  { id: "f_multi", type: "text", multiple: true }, { id: "f_html", type: "htmltext" },
];
let store: Store;
let client: pg.Client;

beforeAll(async () => {
  const url = await freshDatabase();
  store = await openPostgresStore({ url });
  await store.transaction(async (tx) => {
    for (let i = 0; i < 3; i++) await tx.catalog.saveStructure({ name: `s${i}`, fields: FIELDS });
    // Its f_int is a text: conditions on f_int name the structures whose f_int is an int.
    await tx.catalog.saveStructure({ name: "s3", fields: [{ id: "f_int", type: "text" }, { id: "f_text", type: "text" }] });
  });
  client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`
    insert into elements (initid, revision, structure, structure_id, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key, profile)
    select i, i % 3, 's' || (i % 4), 1 + i % 4, case when i % 5 = 0 then 'N' || i end, 'title ' || (i * 7919 % 500), i % 4,
      case when i % 10 = 0 then 'deleted' else 'alive' end, i % 7 = 0, case i % 3 when 0 then null else 'e' || (i % 2) end,
      case when i % 4 = 3 then json_build_object('f_int', 'x' || (i % 9), 'f_text', 't' || (i % 13))
      else json_build_object('f_text', case when i % 11 = 0 then null else 't' || (i % 97) end, 'f_int', case when i % 13 = 0 then null else i % 50 end,
        'f_enum', 'c' || (i % 3), 'f_date', '2024-01-' || (10 + i % 20), 'f_multi', json_build_array('a' || (i % 4), 'b'),
        'f_html', '<p>Été <b>' || (i % 6) || '</b></p>') end,
      '2024-01-01T00:00:' || (10 + i % 50), '2024-02-01T00:00:' || (10 + i % 40), null,
      case when i % 3 = 0 then 'P' || (i % 10) end
    from generate_series(1, $1) as i`, [ROWS]);
  await client.query("analyze");
}, 120_000);
afterAll(async () => {
  await client?.end();
  await store?.close();
});

const by = (key: string, direction: "asc" | "desc" = "asc", kind: OrderTerm["kind"] = "property"): OrderTerm => ({ kind, key, direction });
const field = (id: string, operator: FieldCondition["operator"], values: FieldCondition["values"], extra: Partial<FieldCondition> = {}): FieldCondition => ({
  kind: "field", field: id, comparison: "text", shape: "single", operator, values, indexed: true, ...extra,
});
const property = (key: PropertyCondition["property"], operator: PropertyCondition["operator"], values: PropertyCondition["values"]): PropertyCondition => ({
  kind: "property", property: key, comparison: key === "owner" ? "number" : "text", operator, values,
});
const and = (...nodes: FilterNode[]): FilterNode => ({ kind: "group", logic: "and", nodes });
const or = (...nodes: FilterNode[]): FilterNode => ({ kind: "group", logic: "or", nodes });
const ints = ["s0", "s1", "s2"];

const FILTERS: Record<string, FilterNode> = {
  "a state": and(property("state", "eq", ["e1"])),
  "no state": and(property("state", "isempty", [])),
  "owners": and(property("owner", "in", [1, 2])),
  "a title's start": and(property("title", "startswith", ["title 1"])),
  "a range of creation": and(property("cdate", "gte", ["2024-01-01T00:00:20"]), property("cdate", "lt", ["2024-01-01T00:00:40"])),
  "an int": and(field("f_int", "eq", [7], { comparison: "number", structures: ints })),
  "a range of ints": and(field("f_int", "gte", [10], { comparison: "number", structures: ints }), field("f_int", "lt", [20], { comparison: "number", structures: ints })),
  "ints above": and(field("f_int", "gt", [45], { comparison: "number", structures: ints })),
  "a text": and(field("f_text", "eq", ["t5"])),
  "texts above": and(field("f_text", "gt", ["t50"])),
  "texts below": and(field("f_text", "lte", ["t2"])),
  "enum keys": and(field("f_enum", "in", ["c0", "c2"], { structures: ints })),
  "dates up to": and(field("f_date", "lte", ["2024-01-15"], { structures: ints })),
  "not an int": and(field("f_int", "neq", [3], { comparison: "number", structures: ints })),
  "no int": and(field("f_int", "isempty", [], { comparison: "number", structures: ints })),
  "texts holding 5": and(field("f_text", "contains", ["5"])),
  "a multiple value": and(field("f_multi", "eq", ["a1"], { shape: "list", indexed: false, structures: ints })),
  "HTML text": and(field("f_html", "startswith", ["été 3"], { comparison: "html", indexed: false, structures: ints })),
  "a state and ints below": and(property("state", "eq", ["e1"]), field("f_int", "lt", [10], { comparison: "number", structures: ints })),
  "a text or no state": and(or(field("f_text", "eq", ["t5"]), property("state", "isempty", []))),
  "an enum key and a text": and(field("f_enum", "eq", ["c1"], { structures: ints }), field("f_text", "gte", ["t3"])),
};

const ORDERS: Record<string, OrderTerm[]> = {
  "title": [by("title")],
  "mdate desc": [by("mdate", "desc")],
  "id": [],
  "id asc": [by("id")],
  "owner, title desc (grouped)": [by("owner"), by("title", "desc")],
  "state desc, mdate (grouped)": [by("state", "desc"), by("mdate")],
  "f_int (sort keys)": [by("f_int", "asc", "field")],
  "f_date desc (sort keys)": [by("f_date", "desc", "field")],
  "f_text, id asc (sort keys)": [by("f_text", "asc", "field"), by("id")],
};

const READER = { structures: ["s1"], profiles: ["P1", "P3"] };
const SCOPES: Record<string, Pick<ElementQuery, "structures" | "readable">> = {
  "the whole collection": {},
  "one structure": { structures: ["s1"] },
  "three structures": { structures: ["s0", "s1", "s2"] },
  "a reader with rights per element": { readable: READER },
  "one structure, for that reader": { structures: ["s2"], readable: READER },
};

describe.each(Object.entries(SCOPES))("filtered lists of %s", (_, scope) => {
  it.each(Object.entries(ORDERS))("ordered by %s: the unfiltered list's elements that pass, paged", async (_, orderBy) => {
    const query = { status: "alive" as const, ...scope, orderBy };
    const all = await store.elements.list({ ...query, limit: null, offset: 0 });
    for (const [name, filter] of Object.entries(FILTERS)) {
      const expected = all.filter((row) => matchesFilter(filter, row)).map((row) => row.id);
      expect(await store.elements.count({ ...query, filter }), name).toBe(expected.length);
      // From 1,000 on, a page first counts what the filter's keyed fields keep (list-statement.ts): for a list that long, the
      // page there, its last page and the one after it.
      const deep = expected.length > 1_000 ? [1_000, expected.length - 3, expected.length] : [];
      for (const offset of [0, 13, 150, ...deep]) {
        const page = await store.elements.list({ ...query, filter, limit: 10, offset });
        expect(page.map((row) => row.id), `${name} at ${offset}`).toEqual(expected.slice(offset, offset + 10));
      }
    }
  }, 120_000);
});

describe("a field order of one state", () => {
  it("follows a change of an element's state: its sort keys hold the state the element has", async () => {
    const query: ElementQuery = {
      status: "alive", structures: ["s1"], orderBy: [by("f_date", "asc", "field"), by("id")], filter: property("state", "eq", ["e9"]), limit: 10, offset: 0,
    };
    expect(await store.elements.list(query)).toEqual([]);
    const { rows } = await client.query<{ id: number }>("update elements set state = 'e9' where id = (select min(id) from elements where structure = 's1' and status = 'alive' and not fixed) returning id");
    expect((await store.elements.list(query)).map((row) => row.id)).toEqual([rows[0]!.id]);
    const { rows: keys } = await client.query<{ state: string }>("select distinct state from element_sort_keys where element_id = $1", [rows[0]!.id]);
    expect(keys).toEqual([{ state: "e9" }]);
  });
});

describe("a filtered page past what its keyed conditions keep", () => {
  interface Analyzed { "Node Type": string; "Index Name"?: string; "Actual Loops": number; Plans?: Analyzed[] }
  const scans = (node: Analyzed): Analyzed[] => [...(node["Index Name"] ? [node] : []), ...(node.Plans ?? []).flatMap(scans)];
  const analyzed = async (query: ElementQuery) => {
    const { statement, bind } = listStatement(query);
    const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: Analyzed }] }>(`explain (analyze, format json) ${statement.text}`, bind(query));
    return scans(rows[0]!["QUERY PLAN"][0].Plan);
  };

  it("reads nothing of its order's index once the count of the entries says so; a page before that offset counts nothing", async () => {
    const filter = and(field("f_text", "eq", ["t5"]));
    const query: ElementQuery = { status: "alive", structures: ["s1"], orderBy: [by("title")], filter, limit: 10, offset: 1_000 };
    const kept = await store.elements.count(query);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(1_000);
    const past = await analyzed(query);
    expect(past.filter((scan) => scan["Index Name"]!.startsWith("elements_") && scan["Actual Loops"] > 0)).toEqual([]);
    expect(past.some((scan) => scan["Index Name"]!.startsWith("element_sort_keys") && scan["Actual Loops"] > 0)).toBe(true);
    expect(await store.elements.list(query)).toEqual([]);
    // Below the offset that counts first, the page is read as PostgreSQL plans it, nothing counted before.
    expect(listStatement(query).statement.text).toContain("as counted");
    expect(listStatement({ ...query, offset: 999 }).statement.text).not.toContain("as counted");
  });
});

describe("a reader's first page of a value their rights keep much of", () => {
  interface Analyzed { "Node Type": string; "Relation Name"?: string; "Parent Relationship"?: string; "Actual Loops": number; Plans?: Analyzed[] }
  const nodes = (node: Analyzed): Analyzed[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
  /** The sort-key lookups made entry by entry (a subplan of the walk) that ran. */
  const lookedUp = async (query: ElementQuery) => {
    const { statement, bind } = listStatement(query);
    const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: Analyzed }] }>(`explain (analyze, format json) ${statement.text}`, bind(query));
    return nodes(rows[0]!["QUERY PLAN"][0].Plan).filter((node) => node["Parent Relationship"] === "SubPlan" && node["Relation Name"] === "element_sort_keys" && node["Actual Loops"] > 0);
  };
  const query = (filter: FilterNode, readable?: ElementQuery["readable"]): ElementQuery =>
    ({ status: "alive", structures: ["s1"], orderBy: [by("title")], filter, limit: 10, offset: 0, ...(readable ? { readable } : {}) });

  it("walks the order's index, looking each entry's key up, once the count of what the filter keeps for the reader says so", async () => {
    // About half the reader's elements of s1 have f_enum c0 or c2: over √(0.4 × 10 × N) of them.
    const many = query(field("f_enum", "in", ["c0", "c2"]), READER);
    expect(await store.elements.count({ ...many, countUpTo: 200 })).toBe(200);
    expect((await lookedUp(many)).length).toBeGreaterThan(0);
    // Few: PostgreSQL's own plan, which reads the value's entries first.
    expect(await lookedUp(query(field("f_text", "eq", ["t5"]), READER))).toEqual([]);
    // Every right: nothing to misjudge, nothing counted.
    expect(await lookedUp(query(field("f_enum", "in", ["c0", "c2"])))).toEqual([]);
  });
});

describe("an order's statement, kept for the next caller", () => {
  it("serves a reader with an owner's rights after a reader without them: the owner's elements are in their list", async () => {
    const owner = { structures: ["s1"], profiles: ["P1"], owned: { owner: 2, structures: ["s2"], profiles: ["P3"] } };
    const query = { status: "alive" as const, orderBy: [by("mdate", "desc")], limit: null, offset: 0 };
    const all = await store.elements.list(query);
    const key = (row: { profile: string | null; structure: string }) => (row.profile ? `p:${row.profile}` : `s:${row.structure}`);
    const mine = all.filter((row) => row.owner === 2 && ["s:s2", "p:P3"].includes(key(row)));
    expect(mine.length).toBeGreaterThan(0);
    await store.elements.list({ ...query, readable: READER });
    const page = await store.elements.list({ ...query, readable: owner });
    expect(page.map((row) => row.id)).toEqual(all.filter((row) => ["s:s1", "p:P1"].includes(key(row)) || mine.includes(row)).map((row) => row.id));
  });
});
