import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ElementQuery, ElementValues, OrderTerm } from "@lineage/core";
import { listPageSql } from "../src/list-statement.ts";
import { openPostgresStore } from "../src/index.ts";
import { freshDatabase } from "../src/testing/fresh-database.ts";

/*
 * Field orders on inherited fields (bundle `extends`): a child's collection sorted by a field its
 * parent declares, and a parent's collection (it and its descendants) sorted by its own field, walk
 * the sort keys' indexes in order, as a structure's own fields do (query-plans.test.ts).
 */

const ROWS = 20_000;
let url: string;
let client: pg.Client;

beforeAll(async () => {
  url = await freshDatabase();
  const store = await openPostgresStore({ url });
  await store.transaction(async (tx) => {
    await tx.catalog.saveStructure({ name: "p", fields: [{ id: "f_int", type: "int" }, { id: "f_text", type: "text" }, { id: "f_long", type: "longtext" }] });
    await tx.catalog.saveStructure({ name: "c1", extends: "p", fields: [{ id: "c_text", type: "text" }] });
    await tx.catalog.saveStructure({ name: "c2", extends: "c1", fields: [] });
    // Another structure with a field of the same id, not of the family.
    await tx.catalog.saveStructure({ name: "x", fields: [{ id: "f_int", type: "int" }] });
  });
  await store.close();
  client = new pg.Client({ connectionString: url });
  await client.connect();
  // Rows in bulk; the trigger makes their sort keys.
  await client.query(`
    insert into elements (initid, revision, structure, title, owner, status, fixed, "values", created_at, modified_at)
    select i, 0, (array['p', 'c1', 'c2', 'x'])[1 + i % 4], 't' || i, 1, case when i % 10 = 0 then 'deleted' else 'alive' end, false,
      json_build_object('f_int', i * 7919 % 500, 'f_text', 't' || (i % 97), 'c_text', 'c' || (i % 13), 'f_long', 'long ' || i), '2024', '2024'
    from generate_series(1, $1) as i`, [ROWS]);
  await settle();
}, 120_000);
afterAll(async () => {
  await client?.end();
});

/** Vacuums until the visibility maps are set, as on a settled database (query-plans.test.ts tells why). */
async function settle(): Promise<void> {
  await client.query("vacuum analyze elements, element_sort_keys");
  for (let attempt = 0; attempt < 50; attempt++) {
    const { rows } = await client.query<{ unsettled: number }>(
      "select count(*)::int as unsettled from pg_class where relname in ('elements', 'element_sort_keys') and relallvisible < relpages",
    );
    if (rows[0]!.unsettled === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
    await client.query("vacuum element_sort_keys, elements");
  }
  throw new Error("the visibility maps of elements and element_sort_keys are still not set");
}

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Heap Fetches"?: number;
  Plans?: PlanNode[];
}

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];
const by = (key: string, direction: "asc" | "desc"): OrderTerm => ({ kind: "field", key, direction });

/** The page's plan as run (explain analyze), at an offset. */
async function plan(query: Pick<ElementQuery, "orderBy" | "structures" | "readable">, offset: number): Promise<PlanNode[]> {
  const page = listPageSql(query);
  const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
    `explain (analyze, format json) ${page.text}`, page.bind({ status: "alive", offset, limit: 10, ...query }),
  );
  return nodes(rows[0]!["QUERY PLAN"][0].Plan);
}

/** The page, and the same page as a sort of the elements gives it. */
async function pages(query: Pick<ElementQuery, "orderBy" | "structures" | "readable">, offset: number): Promise<[number[], number[]]> {
  const ids = async (sql: { text: string; bind: (q: ElementQuery) => unknown[] }) =>
    (await client.query({ text: sql.text, values: sql.bind({ status: "alive", offset, limit: 10, ...query }), rowMode: "array" })).rows.map((r) => r[0] as number);
  return [await ids(listPageSql(query)), await ids(listPageSql(query, { keyedField: false }))];
}

/** Every scan walks a sort keys' index reading no row of the table, and nothing is sorted. */
function expectWalked(steps: PlanNode[], scans: number): void {
  expect(steps.filter((step) => /Sort/.test(step["Node Type"])).map((step) => step["Node Type"])).toEqual([]);
  const reads = steps.filter((step) => step["Relation Name"] !== undefined);
  expect(reads).toHaveLength(scans);
  for (const read of reads) {
    expect(read["Node Type"]).toBe("Index Only Scan");
    expect(read["Index Name"]).toMatch(/^element_sort_keys_(desc_)?idx$/);
    expect(read["Heap Fetches"]).toBe(0);
  }
}

const ORDERS = ["f_int", "f_text"].flatMap((field) => (["asc", "desc"] as const).map((direction) => [field, direction] as const));

describe("inherited field orders", () => {
  it.each(ORDERS)("of a child's collection by its inherited field %s %s walk the child's sort keys", async (field, direction) => {
    for (const structure of ["c1", "c2"]) {
      const query = { structures: [structure], orderBy: [by(field, direction)] };
      expectWalked(await plan(query, 3000), 1);
      for (const offset of [0, 150, 3000]) {
        const [page, sorted] = await pages(query, offset);
        expect(page).toHaveLength(10);
        expect(page).toEqual(sorted);
      }
    }
  });

  it.each(ORDERS)("of a parent's collection by its field %s %s merge each structure's sort keys, in order", async (field, direction) => {
    const query = { structures: ["p", "c1", "c2"], orderBy: [by(field, direction)] };
    const steps = await plan(query, 7000);
    expect(steps.map((step) => step["Node Type"])).toContain("Merge Append");
    expectWalked(steps, 3);
    // A deep page reads the entries up to it, each once: no more than offset + slice, and no row of the table.
    const read = steps.filter((step) => step["Relation Name"] !== undefined).reduce((sum, step) => sum + step["Actual Rows"]!, 0);
    expect(read).toBeLessThanOrEqual(7010 + 3);
    for (const offset of [0, 150, 7000]) {
      const [page, sorted] = await pages(query, offset);
      expect(page).toHaveLength(10);
      expect(page).toEqual(sorted);
    }
  });

  it("of a parent's collection by its field, for a reader of two of its structures, merge their sort keys, rights filtered on the entries", async () => {
    const query = { structures: ["p", "c2"], readable: { structures: ["p", "c2"], profiles: [] }, orderBy: [by("f_int", "desc")] };
    const steps = await plan(query, 3000);
    expect(steps.map((step) => step["Node Type"])).toContain("Merge Append");
    expectWalked(steps, 2);
    for (const offset of [0, 3000]) {
      const [page, sorted] = await pages(query, offset);
      expect(page).toHaveLength(10);
      expect(page).toEqual(sorted);
    }
  });

  it("of a middle structure's collection by a field it declares merge its own and its descendant's sort keys", async () => {
    const query = { structures: ["c1", "c2"], orderBy: [by("c_text", "desc")] };
    expectWalked(await plan(query, 2000), 2);
    const [page, sorted] = await pages(query, 2000);
    expect(page).toEqual(sorted);
  });
});

describe("inherited sort keys", () => {
  const keys = async (db: pg.Client) =>
    (await db.query<{ structure: string; field: string }>("select structure, field from element_sort_keys order by structure, field, element_id")).rows
      .map((row) => `${row.structure} ${row.field}`);
  const revision = (structure: string, values: ElementValues) => ({
    revision: 0, structure, name: null, title: "t", owner: 1, status: "alive" as const, fixed: false, state: null, values,
    createdAt: "2024", modifiedAt: "2024", importKey: null, ownProfile: null, profile: null,
  });

  it("follow a parent's fields in its descendants' elements, in the transaction that saves it, and are kept at start", async () => {
    const dbUrl = await freshDatabase();
    const store = await openPostgresStore({ url: dbUrl });
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    try {
      await store.transaction(async (tx) => {
        await tx.catalog.saveStructure({ name: "kid", extends: "base", fields: [{ id: "k", type: "text" }] });
        await tx.elements.insert(revision("kid", { a: 1, b: "2024-01-01", k: "x" }));
        await tx.catalog.saveStructure({ name: "base", fields: [{ id: "a", type: "int" }] });
      });
      expect(await keys(db)).toEqual(["kid a", "kid k"]);
      await expect(store.transaction(async (tx) => {
        await tx.catalog.saveStructure({ name: "base", fields: [{ id: "a", type: "int" }, { id: "b", type: "date" }] });
        throw new Error("rolled back");
      })).rejects.toThrow("rolled back");
      expect(await keys(db)).toEqual(["kid a", "kid k"]);
      await store.transaction((tx) => tx.catalog.saveStructure({ name: "base", fields: [{ id: "b", type: "date" }] }));
      expect(await keys(db)).toEqual(["kid b", "kid k"]);
      await store.close();
      await (await openPostgresStore({ url: dbUrl })).close();
      expect(await keys(db)).toEqual(["kid b", "kid k"]);
    } finally {
      await db.end();
    }
  });
});
