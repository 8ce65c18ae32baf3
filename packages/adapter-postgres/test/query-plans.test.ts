import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPlatform, readableKeys, SORTABLE_PROPERTIES, type ElementQuery, type ElementValues, type FieldCondition, type FilterNode, type OrderTerm, type SmartField,
} from "@lineage/core";
import { groupedPage, groupedPageSql } from "../src/grouped-page.ts";
import { listPageSql, listStatement } from "../src/list-statement.ts";
import { openPostgresStore } from "../src/index.ts";
import { sqlClient } from "../src/sql-client.ts";
import { freshDatabase } from "../src/testing/fresh-database.ts";

const ROWS = 30_000;
const STRUCTURES = 10;
let url: string;
let client: pg.Client;

/** A field of each type a list may sort on through an index; the last ones have none (docs/limits.md). */
const FIELDS: SmartField[] = [
  { id: "f_text", type: "text" }, { id: "f_int", type: "int" }, { id: "f_double", type: "double" }, { id: "f_date", type: "date" },
  { id: "f_timestamp", type: "timestamp" }, { id: "f_enum", type: "enum", enum: "colors" }, { id: "f_docid", type: "docid" },
  { id: "f_long", type: "longtext" }, { id: "f_multi", type: "text", multiple: true },
];
const INDEXED_FIELDS = FIELDS.slice(0, 7).map((f) => f.id);

beforeAll(async () => {
  url = await freshDatabase();
  const store = await openPostgresStore({ url });
  await store.transaction(async (tx) => {
    for (let i = 0; i < STRUCTURES; i++) {
      // Each structure viewed by a role of its own: a reader of one structure of ten (rights in the index path).
      await tx.accounts.saveRole({ id: `r_s${i}` });
      await tx.catalog.saveProfile({ name: `PRF_s${i}`, grants: { view: [`role:r_s${i}`] } });
      await tx.catalog.saveStructure({ name: `s${i}`, profile: `PRF_s${i}`, fields: FIELDS });
    }
  });
  await store.close();
  client = new pg.Client({ connectionString: url });
  await client.connect();
  // Rows in bulk; the trigger makes their sort keys.
  await client.query(`
    insert into elements (initid, revision, structure, structure_id, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key,
      profile)
    select i, i % 3, 's' || (i % ${STRUCTURES}), 1 + i % ${STRUCTURES}, case when i % 5 = 0 then 'N' || i end, 'title ' || (i * 7919 % 1000), i % 4,
      case when i % 10 = 0 then 'deleted' else 'alive' end, i % 7 = 0, case i % 3 when 0 then null else 'e' || (i % 2) end,
      json_build_object('f_text', 't' || (i % 97), 'f_int', i % 50, 'f_double', i / 7.0, 'f_date', '2024-01-' || (10 + i % 20), 'f_enum', 'c' || (i % 3),
        'f_docid', i % 1000, 'f_long', 'long ' || i, 'f_multi', json_build_array('a', i)),
      '2024-01-01T00:00:' || (10 + i % 50), '2024-02-01T00:00:' || (10 + i % 40), null,
      -- A third of the elements under a profile of their own (or their state's): P0 to P9.
      case when i % 3 = 0 then 'P' || (i % 10) end
    from generate_series(1, $1) as i`, [ROWS]);
  await client.query("vacuum analyze");
  await settle();
}, 120_000);
afterAll(async () => {
  await client?.end();
});

const by = (key: string, direction: "asc" | "desc" = "asc", kind: OrderTerm["kind"] = "property"): OrderTerm => ({ kind, key, direction });

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  "Index Cond"?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/**
 * Vacuums the tables until their visibility maps are set, as on a settled database: only then does PostgreSQL
 * count an index-only scan as reading no row, as it does at a million. (A transaction open meanwhile, such as an
 * autovacuum's analyze of the bulk insert, keeps a vacuum from marking the pages: seen in one run of two.)
 */
async function settle(): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const { rows } = await client.query<{ unsettled: number }>(
      "select count(*)::int as unsettled from pg_class where relname in ('elements', 'element_sort_keys') and relallvisible < relpages",
    );
    if (rows[0]!.unsettled === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
    await client.query("vacuum elements, element_sort_keys");
  }
  throw new Error("the visibility maps of elements and element_sort_keys are still not set");
}

/** The live revisions of each scope: ROWS alive (9 in 10), not fixed (6 in 7), in one structure or three of ten. */
const LIVE = Math.floor((ROWS * 9 * 6) / (10 * 7));

/** The plan of a page as the planner makes it, with the statistics of the table. */
async function plan(query: Pick<ElementQuery, "orderBy" | "structures" | "readable" | "filter">, offset: number): Promise<PlanNode[]> {
  const page = listPageSql({ status: "alive", ...query });
  const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
    `explain (format json) ${page.text}`, page.bind({ status: "alive", offset, limit: 10, ...query }),
  );
  return nodes(rows[0]!["QUERY PLAN"][0].Plan);
}

/** Every node reading elements walks an index, and none sorts. */
function expectWalked(steps: PlanNode[], index: RegExp): void {
  expect(steps.filter((step) => /Sort/.test(step["Node Type"])).map((step) => step["Node Type"])).toEqual([]);
  const scans = steps.filter((step) => step["Relation Name"] !== undefined);
  expect(scans.length).toBeGreaterThan(0);
  for (const scan of scans) {
    expect(scan["Node Type"]).toBe("Index Only Scan");
    expect(scan["Index Name"]).toMatch(index);
  }
}

/**
 * No element read but through an index on the structures asked: the entries of the others are skipped
 * on the index, or those structures' elements alone are read and sorted, never all of them.
 */
function expectViewedOnly(steps: PlanNode[]): void {
  const scans = steps.filter((step) => /Scan/.test(step["Node Type"]) && step["Node Type"] !== "Bitmap Heap Scan");
  expect(scans.length).toBeGreaterThan(0);
  for (const scan of scans) {
    expect(scan["Node Type"]).toMatch(/^(Index Only Scan|Index Scan|Bitmap Index Scan)$/);
    expect(scan["Index Cond"]).toMatch(/structure = ANY/);
  }
}

/** The page, and the same page as a plain sort of the table gives it. */
async function pages(query: Pick<ElementQuery, "orderBy" | "structures" | "readable">, offset: number): Promise<[number[], number[]]> {
  const page = listPageSql(query);
  const params = page.bind({ status: "alive", offset, limit: 10, ...query });
  const walked = (await client.query({ text: page.text, values: params, rowMode: "array" })).rows.map((row) => row[0] as number);
  return [walked, await plainlySorted(page.text, params)];
}

/** The whole list as a plain sort of the table gives it, each page of which a store's page is checked against. */
function sortedList(query: Pick<ElementQuery, "orderBy" | "structures" | "readable">): Promise<number[]> {
  const page = listPageSql(query);
  return plainlySorted(page.text, page.bind({ status: "alive", offset: 0, limit: null, ...query }));
}

/** The ids a list statement gives with no index to read: the table scanned and sorted. */
async function plainlySorted(text: string, values: unknown[]): Promise<number[]> {
  await client.query("begin");
  try {
    await client.query("set local enable_indexscan = off; set local enable_indexonlyscan = off; set local enable_bitmapscan = off");
    return (await client.query({ text, values, rowMode: "array" })).rows.map((row) => row[0] as number);
  } finally {
    await client.query("rollback");
  }
}

const DIRECTIONS = ["asc", "desc"] as const;
/** About one element in ten: those of s3 under its structure's profile, and those under P1 (all of s1). */
const READER = { structures: ["s3"], profiles: ["P1"] };
/** A reader of s3's elements, and of those they own (owner 1) of s5 and under P3, as a profile's owner grant lets them. */
const OWNER_READER = { structures: ["s3"], profiles: [], owned: { owner: 1, structures: ["s5"], profiles: ["P3"] } };
const SCOPES: Record<string, Pick<ElementQuery, "structures" | "readable">> = {
  "the whole collection": {},
  "one structure": { structures: ["s3"] },
  "three structures": { structures: ["s1", "s4", "s7"] },
  "the whole collection, for a reader of one element in ten (rights per element)": { readable: READER },
  "one structure, for that reader": { structures: ["s3"], readable: READER },
  "the whole collection, for a reader of s3 and of their own elements of s5 and under P3 (the owner grant)": { readable: OWNER_READER },
};
const KEYS = SORTABLE_PROPERTIES.filter((key) => key !== "id");
const GROUPED_KEYS = ["owner", "state", "revision", "name", "fromname", "fromid"];
const SECOND_KEYS = ["title", "name", "revision", "owner", "state", "cdate", "mdate", "initid"];

describe("list pages", () => {
  describe.each(Object.entries(SCOPES))("of %s", (_, scope) => {
    const structures = scope.structures;
    // A page deep in the list (four fifths in): the one that would read most rows to skip them.
    const deep = Math.floor((LIVE * 4 * (structures?.length ?? STRUCTURES)) / (5 * STRUCTURES));
    /**
     * A page deep in the list walks the index of its order. Of several structures (those a caller may view), the
     * whole collection's index is walked with the others' entries skipped: a page costs (offset + slice) divided
     * by their share, so deep in the list PostgreSQL may rather sort those structures' elements (docs/limits.md).
     */
    const expectServed = async (query: Pick<ElementQuery, "orderBy">) => {
      // Rights per element: a page walks the index, the entries of others skipped on it (one in ten kept); deep in
      // the list PostgreSQL may rather sort the elements the reader may view, as for several structures.
      if (scope.readable) return expectWalked(await plan({ ...scope, ...query }, 100), /^elements_\w+_idx$/);
      if ((structures?.length ?? 1) === 1) return expectWalked(await plan({ ...scope, ...query }, deep), /^elements_\w+_idx$/);
      expectWalked(await plan({ ...scope, ...query }, 100), /^elements_\w+_idx$/);
      expectViewedOnly(await plan({ ...scope, ...query }, deep));
    };

    it.each(SORTABLE_PROPERTIES.flatMap((key) => DIRECTIONS.map((direction) => [key, direction] as const)))(
      "ordered by %s %s (then id desc) walk an index in order, no row read for the entries skipped (deep in several structures: none of the others)",
      async (key, direction) => {
        await expectServed({ orderBy: [by(key, direction)] });
      },
    );

    it.each(KEYS.flatMap((key) => DIRECTIONS.flatMap((direction) => DIRECTIONS.map((id) => [key, direction, id] as const))))(
      "ordered by %s %s, id %s walk an index in order (deep in several structures: read none of the others)",
      async (key, direction, id) => {
        await expectServed({ orderBy: [by(key, direction), by("id", id)] });
      },
    );

    it("give the page a sort of the table gives, at any offset", async () => {
      for (const orderBy of [[by("title")], [by("mdate", "desc")], [by("owner")], [by("state", "desc")], [by("name")], [by("initid", "desc")],
        [by("fromid", "desc")], [by("fromname"), by("id")], [by("revision", "desc"), by("title")], [by("owner"), by("cdate", "desc")]]) {
        for (const offset of [0, 7, 1234, 9000]) {
          const [page, sorted] = await pages({ ...scope, orderBy }, offset);
          expect(page, JSON.stringify({ orderBy, offset })).toEqual(sorted);
        }
      }
    });
  });

  describe.each(Object.entries(SCOPES))("of %s ordered by a key of few values then another", (_, scope) => {
    const structures = scope.structures;
    const grouped = GROUPED_KEYS.filter((key) => structures?.length !== 1 || (key !== "fromname" && key !== "fromid"));

    it.each(grouped.flatMap((key) => DIRECTIONS.map((direction) => [key, direction] as const)))(
      "%s %s find and count the groups on an index, and page each from an index",
      async (key, direction) => {
        for (const next of SECOND_KEYS.filter((k) => k !== key)) {
          const sql = groupedPageSql({ ...scope, orderBy: [by(key, direction), by(next, "desc")] })!;
          const base = [
            ...(structures === undefined ? ["alive"] : ["alive", structures.length === 1 ? structures[0] : structures]),
            ...(scope.readable ? [readableKeys(scope.readable)] : []),
          ];
          const value = key === "fromname" ? "s3" : ["state", "name"].includes(key) ? "e1" : 1;
          const explain = async (text: string, values: unknown[]) => {
            const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`explain (format json) ${text}`, [...base, ...values]);
            return nodes(rows[0]!["QUERY PLAN"][0].Plan);
          };
          const nulls = sql.nullable ? [[sql.firstNotNull, []], [sql.anyNull, []], [sql.countNull, [100]]] as const : [];
          for (const [text, values] of [[sql.first, []], [sql.next, [value]], [sql.count, [value, 100]], ...nulls] as const) {
            const steps = await explain(text, [...values]);
            expect(steps.filter((step) => /Sort|Seq Scan/.test(step["Node Type"])).map((step) => step["Node Type"]), text).toEqual([]);
          }
          const nullPage = sql.nullable ? [[sql.pageNull, [10, 0]]] as const : [];
          for (const [text, values] of [[sql.page, [key === "fromid" ? "s3" : value, 10, 0]], ...nullPage] as const) {
            const steps = await explain(text, [...values]);
            expect(steps.filter((step) => step["Node Type"] === "Seq Scan"), text).toEqual([]);
          }
        }
      },
    );

    it("give the page a sort of the table gives, at any offset, through the store", async () => {
      const store = await openPostgresStore({ url });
      try {
        for (const key of grouped) {
          for (const orderBy of [[by(key), by("title", "desc")], [by(key, "desc"), by("mdate")], [by(key, "desc"), by("initid", "desc")]]) {
            // One sort of the whole list per order, sliced for each offset.
            const sorted = await sortedList({ ...scope, orderBy });
            for (const offset of [0, 2995, 14_999]) {
              const query = { status: "alive" as const, ...scope, orderBy, limit: 10, offset };
              expect((await store.elements.list(query)).map((r) => r.id), JSON.stringify({ orderBy, offset })).toEqual(sorted.slice(offset, offset + 10));
            }
          }
        }
      } finally {
        await store.close();
      }
    }, 180_000);
  });

  it("read a first key whose values barely repeat (names) group by group for a few groups only, then as one sorted statement", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const sql = sqlClient(pool);
      let statements = 0;
      const counted = { ...sql, rows: (s: Parameters<typeof sql.rows>[0], values?: readonly unknown[]) => (statements++, sql.rows(s, values)) };
      const orderBy = [by("name", "desc"), by("mdate")];
      // About 4,600 live named elements, one per name: two statements per group would run to MAX_GROUPS (2,000) first.
      expect(await groupedPage({ orderBy })!.ids(counted, { status: "alive", orderBy, limit: 10, offset: 2995 })).toBeUndefined();
      expect(statements).toBeLessThan(50);
      // A key of few values is read group by group to the page.
      const byState = [by("state", "desc"), by("mdate")];
      statements = 0;
      expect(await groupedPage({ orderBy: byState })!.ids(counted, { status: "alive", orderBy: byState, limit: 10, offset: 2995 })).toHaveLength(10);
      expect(statements).toBeLessThan(10);
    } finally {
      await pool.end();
    }
  });

  it.each(INDEXED_FIELDS.flatMap((field) => DIRECTIONS.map((direction) => [field, direction] as const)))(
    "of a structure ordered by its field %s %s walk the field's sort keys in order",
    async (field, direction) => {
      expectWalked(await plan({ structures: ["s2"], orderBy: [by(field, direction, "field")] }, Math.floor((LIVE * 4) / (5 * STRUCTURES))), /^element_sort_keys_(desc_)?idx$/);
      for (const offset of [0, 150, 2000]) {
        const query = { structures: ["s2"], orderBy: [by(field, direction, "field")] };
        const [page] = await pages(query, offset);
        const sorted = listPageSql(query, { keyedField: false });
        const expected = (await client.query({ text: sorted.text, values: sorted.bind({ status: "alive", offset, limit: 10, ...query }), rowMode: "array" }))
          .rows.map((row) => row[0] as number);
        expect(page).toEqual(expected);
      }
    },
  );

  it("for a reader who may view one structure of ten: the store is asked for that structure, whose index a page walks", async () => {
    const store = await openPostgresStore({ url });
    try {
      const asked: ElementQuery[] = [];
      const list = store.elements.list.bind(store.elements);
      const platform = createPlatform({ store: { ...store, elements: { ...store.elements, list: (query) => (asked.push(query), list(query)) } } });
      await platform.accounts.add({ login: "reader", password: "reader-pw", roles: ["r_s3"] });
      const reader = (await platform.accounts.principal("reader"))!;
      // Deep in the list PostgreSQL may rather sort the reader's elements of s3 (two in three: a third are under a
      // profile of their own), a sort of what the reader may view, bounded by the structure (docs/limits.md).
      const deep = 100;
      for (const orderBy of ["mdate:desc", "title", "owner:desc", "initid"]) {
        asked.length = 0;
        const page = await platform.elements.list(reader, { slice: "10", offset: String(deep), orderBy, fields: "document.properties.fromname" });
        expect(page.documents.map((document) => document.properties?.fromname)).toEqual(Array(10).fill("s3"));
        // No element is under a profile of its own the reader may view: s3's, those under its structure's profile.
        expect(asked.map((query) => [query.structures, query.readable])).toEqual([[["s3"], { structures: ["s3"], profiles: [] }]]);
        expectWalked(await plan(asked[0]!, deep), /^elements_structure_by_\w+_idx$/);
      }
    } finally {
      await store.close();
    }
  });

  it("for a reader of the elements under a profile of their own (one in thirty): the whole collection's index, filtered on its entries", async () => {
    const store = await openPostgresStore({ url });
    try {
      await store.transaction(async (tx) => {
        await tx.accounts.saveRole({ id: "r_p1" });
        await tx.catalog.saveProfile({ name: "P1", grants: { view: ["role:r_p1"] } });
      });
      const asked: ElementQuery[] = [];
      const list = store.elements.list.bind(store.elements);
      const platform = createPlatform({ store: { ...store, elements: { ...store.elements, list: (query) => (asked.push(query), list(query)) } } });
      await platform.accounts.add({ login: "reader-p1", password: "reader-pw", roles: ["r_p1"] });
      const reader = (await platform.accounts.principal("reader-p1"))!;
      for (const orderBy of ["mdate:desc", "title", "owner:desc", "initid"]) {
        asked.length = 0;
        const page = await platform.elements.list(reader, { slice: "10", offset: "100", orderBy, fields: "document.properties.profid" });
        expect(page.documents.map((document) => document.properties?.profid)).toEqual(Array(10).fill("P1"));
        expect(asked.map((query) => [query.structures, query.readable])).toEqual([[undefined, { structures: [], profiles: ["P1"] }]]);
        expectWalked(await plan(asked[0]!, 100), /^elements_by_\w+_idx$/);
      }
    } finally {
      await store.close();
    }
  });

  it("of a structure ordered by its field, for a reader of one element in ten, walk the field's sort keys, rights filtered on their entries", async () => {
    const query = { structures: ["s3"], readable: READER, orderBy: [by("f_int", "desc", "field")] };
    expect((await plan(query, 100)).filter((step) => /Sort|Seq Scan/.test(step["Node Type"])).map((step) => [step["Node Type"], step["Relation Name"]])).toEqual([]);
    for (const offset of [0, 150, 700]) {
      const [page] = await pages(query, offset);
      const sorted = listPageSql(query, { keyedField: false });
      const expected = (await client.query({ text: sorted.text, values: sorted.bind({ status: "alive", offset, limit: 10, ...query }), rowMode: "array" }))
        .rows.map((row) => row[0] as number);
      expect(page).toEqual(expected);
    }
  });

  it("read a field's sort keys only when the structure keeps them", async () => {
    const run = async (field: string) => {
      const list = listStatement({ structures: ["s2"], orderBy: [by(field, "asc", "field")] });
      const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
        `explain (analyze, format json) ${list.statement.text}`, list.bind({ status: "alive", structures: ["s2"], orderBy: [], offset: 0, limit: 10 }),
      );
      return nodes(rows[0]!["QUERY PLAN"][0].Plan).filter((node) => (node as { "Actual Loops"?: number })["Actual Loops"] !== 0);
    };
    const keyed = await run("f_int");
    expect(keyed.some((node) => node["Relation Name"] === "element_sort_keys")).toBe(true);
    expect(keyed.filter((node) => /Sort/.test(node["Node Type"]))).toEqual([]);
    const unkept = await run("f_long");
    expect(unkept.some((node) => node["Relation Name"] === "element_sort_keys")).toBe(false);
  });
});

describe("filtered list pages", () => {
  const field = (id: string, operator: FieldCondition["operator"], values: FieldCondition["values"], comparison: FieldCondition["comparison"] = "text"): FieldCondition => ({
    kind: "field", field: id, comparison, shape: "single", operator, values, indexed: true,
  });
  const and = (...nodes: FilterNode[]): FilterNode => ({ kind: "group", logic: "and", nodes });
  /** The scans of a plan that read a table or an index, with what they read. */
  const scans = (steps: PlanNode[]) => steps.filter((step) => step["Relation Name"] !== undefined);
  // One element in ninety-seven has the text t5: a few dozen in a structure, a few hundred in all.
  const SELECTIVE = and(field("f_text", "eq", ["t5"]));

  it.each<[string, Pick<ElementQuery, "structures" | "readable">]>([
    ["one structure", { structures: ["s3"] }],
    ["three structures", { structures: ["s1", "s4", "s7"] }],
    ["one structure, for a reader of one element in ten", { structures: ["s3"], readable: READER }],
    ["the whole collection, for that reader (rights per element)", { readable: READER }],
  ])("of a selective condition on an indexed field, in %s, read its value's sort keys (rights on their entries), then those elements", async (_, scope) => {
    for (const orderBy of [[by("title")], [by("mdate", "desc")], [by("owner"), by("cdate", "desc")]]) {
      for (const offset of [0, 100]) {
        const steps = await plan({ ...scope, orderBy, filter: SELECTIVE }, offset);
        const described = JSON.stringify(scans(steps).map((step) => [step["Node Type"], step["Index Name"], step["Index Cond"], step.Filter]));
        // (The structures that keep the field, a few rows, are read whole: the whole collection names none.)
        expect(steps.filter((step) => step["Node Type"] === "Seq Scan" && step["Relation Name"] !== "structures"), described).toEqual([]);
        const keys = scans(steps).filter((step) => step["Relation Name"] === "element_sort_keys");
        expect(keys.length, described).toBe(1);
        expect(keys[0]!["Node Type"], described).toBe("Index Only Scan");
        expect(keys[0]!["Index Name"], described).toMatch(/^element_sort_keys_(desc_)?idx$/);
        expect(keys[0]!["Index Cond"], described).toMatch(/txt = 't5'/);
        // The rights on the entries: their profile (or structure) compared to the reader's.
        if (scope.readable) expect(`${keys[0]!["Index Cond"]} ${keys[0]!.Filter}`, described).toMatch(/profile = ANY/);
        // The elements found are read by their id, no list of them walked.
        for (const step of scans(steps).filter((step) => step["Relation Name"] === "elements")) expect(step["Index Cond"], described).toMatch(/\(id = sk\.element_id\)/);
      }
    }
  });

  it("of a condition keeping many elements walk the order's index, each element tested on its sort key's entry alone", async () => {
    // Two in three elements have an f_enum other than c1.
    const steps = await plan({ structures: ["s3"], orderBy: [by("title")], filter: and(field("f_enum", "neq", ["c1"])) }, 10);
    const described = JSON.stringify(scans(steps).map((step) => [step["Node Type"], step["Index Name"]]));
    expect(steps.filter((step) => /Sort|Seq Scan/.test(step["Node Type"])).map((step) => step["Node Type"]), described).toEqual([]);
    expect(scans(steps).map((step) => [step["Node Type"], step["Index Name"]]), described).toEqual([
      ["Index Only Scan", "elements_structure_by_title_idx"], ["Index Only Scan", "element_sort_keys_element_id_field_pk"],
    ]);
  });

  it("of a range of a field ordered by it read one range of its sort keys, both bounds on the index", async () => {
    const filter = and(field("f_date", "gte", ["2024-01-12"]), field("f_date", "lt", ["2024-01-14"]));
    for (const direction of DIRECTIONS) {
      const steps = await plan({ structures: ["s2"], orderBy: [by("f_date", direction, "field")], filter }, 20);
      expectWalked(steps, /^element_sort_keys_(desc_)?idx$/);
      expect(scans(steps)[0]!["Index Cond"]).toMatch(/txt >= '2024-01-12'.*txt < '2024-01-14'/);
    }
  });

  it("of a condition on a property walk the order's index, the condition tested on its entries", async () => {
    for (const scope of [{}, { structures: ["s3"] }, { readable: READER }]) {
      expectWalked(await plan({ ...scope, orderBy: [by("title")], filter: and({ kind: "property", property: "state", comparison: "text", operator: "eq", values: ["e1"] }) }, 100),
        /^elements_\w+_idx$/);
    }
  });

  it("in the order of the id, of one value of an indexed field, read that value's sort keys alone", async () => {
    for (const [scope, offset] of [[{ structures: ["s3"] }, 0], [{ structures: ["s3"] }, 100], [{ structures: ["s1", "s4", "s7"], readable: READER }, 5]] as const) {
      const steps = await plan({ ...scope, orderBy: [by("id")], filter: and(field("f_int", "eq", [7], "number")) }, offset);
      // Of several structures, their few entries may be sorted rather than merged: only the sort keys are read.
      expect(scans(steps).map((step) => [step["Node Type"], step["Index Name"]])).toEqual(scans(steps).map(() => ["Index Only Scan", expect.stringMatching(/^element_sort_keys_(desc_)?idx$/)]));
    }
  });
});

describe("field sort keys", () => {
  const keys = async (db: pg.Client) =>
    (await db.query<{ field: string; status: string; rank: number }>("select field, status, rank from element_sort_keys order by field, element_id")).rows
      .map((row) => `${row.field} ${row.status} ${row.rank}`);
  const revision = (values: ElementValues) => ({
    revision: 0, structure: "a", name: null, title: "t", owner: 1, status: "alive" as const, fixed: false, state: null, values,
    createdAt: "2024", modifiedAt: "2024", importKey: null, ownProfile: null, profile: null,
  });

  it("come and go with a structure's fields and its live revisions, in the transactions that write them", async () => {
    const dbUrl = await freshDatabase();
    const store = await openPostgresStore({ url: dbUrl });
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    try {
      const first = await store.transaction(async (tx) => {
        await tx.catalog.saveStructure({ name: "a", fields: [{ id: "x", type: "int" }, { id: "y", type: "longtext" }] });
        return tx.elements.insert(revision({ x: 1 }));
      });
      await store.elements.insert(revision({}));
      expect(await keys(db)).toEqual(["x alive 1", "x alive 0"]);
      await expect(store.transaction(async (tx) => {
        await tx.catalog.saveStructure({ name: "a", fields: [{ id: "z", type: "text" }] });
        throw new Error("rolled back");
      })).rejects.toThrow("rolled back");
      expect(await keys(db)).toEqual(["x alive 1", "x alive 0"]);
      await store.transaction((tx) => tx.catalog.saveStructure({ name: "a", fields: [{ id: "z", type: "text" }, { id: "x", type: "int" }] }));
      expect(await keys(db)).toEqual(["x alive 1", "x alive 0", "z alive 0", "z alive 0"]);
      await store.transaction(async (tx) => {
        await tx.elements.save({ ...first, fixed: true });
        await tx.elements.insert({ ...revision({ x: "9", z: "new" }), initid: first.initid, revision: 1 });
      });
      expect(await keys(db)).toEqual(["x alive 0", "x alive 2", "z alive 0", "z alive 2"]);
      await store.elements.setLineageStatus(first.initid, "deleted", "2025");
      expect(await keys(db)).toEqual(["x alive 0", "x deleted 2", "z alive 0", "z deleted 2"]);
    } finally {
      await db.end();
      await store.close();
    }
  });

  it("are made at start for structures saved before they existed", async () => {
    const dbUrl = await freshDatabase();
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    try {
      await db.query(`insert into structures (name, definition) values ('a', $1)`, [JSON.stringify({ name: "a", fields: [{ id: "d", type: "date" }] })]);
      await db.query(`insert into elements (initid, revision, structure, title, owner, status, fixed, "values", created_at, modified_at)
        values (1, 0, 'a', 't', 1, 'alive', false, '{"d": "2024-01-01"}', '', '')`);
      expect(await keys(db)).toEqual([]);
      await (await openPostgresStore({ url: dbUrl })).close();
      expect(await keys(db)).toEqual(["d alive 2"]);
    } finally {
      await db.end();
    }
  });
});
