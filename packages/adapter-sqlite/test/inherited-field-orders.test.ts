import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ElementQuery, OrderTerm } from "@lineage/core";
import { listPageSql } from "../src/list-statement.ts";
import { openSqliteStore } from "../src/index.ts";

/*
 * Field orders on inherited fields (bundle `extends`): a child's collection sorted by a field its
 * parent declares, and a parent's collection (it and its descendants) sorted by its own field, walk
 * indexes in order, as a structure's own fields do (query-plans.test.ts).
 */

const ROWS = 20_000;
const dataDir = mkdtempSync(join(tmpdir(), "lineage-sqlite-inherited-"));
let client: Database.Database;

beforeAll(async () => {
  const store = openSqliteStore({ dataDir });
  await store.transaction(async (tx) => {
    await tx.catalog.saveStructure({ name: "p", fields: [{ id: "f_int", type: "int" }, { id: "f_text", type: "text" }, { id: "f_long", type: "longtext" }] });
    await tx.catalog.saveStructure({ name: "c1", extends: "p", fields: [{ id: "c_text", type: "text" }] });
    await tx.catalog.saveStructure({ name: "c2", extends: "c1", fields: [] });
    // Another structure with a field of the same id, not of the family.
    await tx.catalog.saveStructure({ name: "x", fields: [{ id: "f_int", type: "int" }] });
  });
  await store.close();
  client = new Database(join(dataDir, "lineage.sqlite"));
  client.prepare(`
    with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
    insert into elements (initid, revision, structure, title, owner, status, fixed, "values", created_at, modified_at)
    select i, 0, case i % 4 when 0 then 'p' when 1 then 'c1' when 2 then 'c2' else 'x' end, 't' || i, 1,
      case when i % 10 = 0 then 'deleted' else 'alive' end, 0,
      json_object('f_int', i * 7919 % 500, 'f_text', 't' || (i % 97), 'c_text', 'c' || (i % 13), 'f_long', 'long ' || i),
      '2024-01-01T00:00:00', '2024-01-01T00:00:00'
    from n`).run(ROWS);
  client.exec("analyze");
});
afterAll(() => {
  client.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const by = (key: string, direction: "asc" | "desc"): OrderTerm => ({ kind: "field", key, direction });

function plan(query: Pick<ElementQuery, "orderBy" | "structures" | "readable">): string[] {
  const page = listPageSql({ ...query, limit: 10 });
  const params = page.bind({ status: "alive", offset: 0, limit: 10, ...query });
  return (client.prepare(`explain query plan ${page.sql}`).all(...params) as { detail: string }[]).map((row) => row.detail);
}

/**
 * How many times the page's program reads a column of a row of the table (rather than of an index
 * entry): none, when it walks indexes and seeks no row of the entries it skips.
 */
function rowReads(query: Pick<ElementQuery, "orderBy" | "structures" | "readable">): number {
  const page = listPageSql({ ...query, limit: 10 });
  const params = page.bind({ status: "alive", offset: 0, limit: 10, ...query });
  const root = client.prepare("select rootpage from sqlite_master where type = 'table' and name = 'elements'").pluck().get() as number;
  const program = client.prepare(`explain ${page.sql}`).all(...params) as { opcode: string; p1: number; p2: number }[];
  const tableCursors = new Set(program.filter((op) => op.opcode === "OpenRead" && op.p2 === root).map((op) => op.p1));
  return program.filter((op) => (op.opcode === "Column" || op.opcode === "Rowid") && tableCursors.has(op.p1)).length;
}

/** The page, and the same page as a plain sort of the table gives it. */
function pages(query: Pick<ElementQuery, "orderBy" | "structures" | "readable">, offset: number): [number[], number[]] {
  const page = listPageSql({ ...query, limit: 10 });
  const params = page.bind({ status: "alive", offset, limit: 10, ...query });
  const sorted = page.sql.replace(/ from elements/g, " from elements not indexed");
  return [client.prepare(page.sql).pluck().all(...params) as number[], client.prepare(sorted).pluck().all(...params) as number[]];
}

const ORDERS = ["f_int", "f_text"].flatMap((field) => (["asc", "desc"] as const).map((direction) => [field, direction] as const));

describe("inherited field orders", () => {
  it.each(ORDERS)("of a child's collection by its inherited field %s %s walk the child's index of it", (field, direction) => {
    for (const structure of ["c1", "c2"]) {
      const query = { structures: [structure], orderBy: [by(field, direction)] };
      expect(plan(query)).toEqual([expect.stringMatching(/^SEARCH elements USING INDEX elements_field_\w+ \(status=\?\)$/)]);
      expect(rowReads(query)).toBe(0);
      for (const offset of [0, 150, 3000]) {
        const [page, sorted] = pages(query, offset);
        expect(page).toHaveLength(10);
        expect(page).toEqual(sorted);
      }
    }
  });

  it.each(ORDERS)("of a parent's collection by its field %s %s merge each structure's index, in order", (field, direction) => {
    const query = { structures: ["p", "c1", "c2"], orderBy: [by(field, direction)] };
    const steps = plan(query);
    expect(steps.join("\n")).not.toMatch(/TEMP B-TREE/);
    expect(steps.filter((step) => /^SEARCH elements USING INDEX elements_field_\w+ \(status=\?\)$/.test(step))).toHaveLength(3);
    expect(rowReads(query)).toBe(0);
    for (const offset of [0, 150, 7000]) {
      const [page, sorted] = pages(query, offset);
      expect(page).toHaveLength(10);
      expect(page).toEqual(sorted);
    }
  });

  it("of a middle structure's collection by a field it declares merge its own and its descendant's index", () => {
    const query = { structures: ["c1", "c2"], orderBy: [by("c_text", "desc")] };
    const steps = plan(query);
    expect(steps.join("\n")).not.toMatch(/TEMP B-TREE/);
    expect(steps.filter((step) => /^SEARCH elements USING INDEX elements_field_/.test(step))).toHaveLength(2);
    const [page, sorted] = pages(query, 2000);
    expect(page).toEqual(sorted);
  });

  it("of a parent's collection by its field, for a reader of two of its structures, merge their indexes, rights filtered on the entries", () => {
    const query = { structures: ["p", "c2"], readable: { structures: ["p", "c2"], profiles: [] }, orderBy: [by("f_int", "desc")] };
    expect(plan(query).join("\n")).not.toMatch(/TEMP B-TREE/);
    for (const offset of [0, 3000]) {
      const [page, sorted] = pages(query, offset);
      expect(page).toHaveLength(10);
      expect(page).toEqual(sorted);
    }
  });

  it("of a field without an index sort the family's elements", () => {
    const query = { structures: ["p", "c1", "c2"], orderBy: [by("f_long", "asc")] };
    expect(plan(query).join("\n")).toMatch(/TEMP B-TREE/);
    expect(rowReads(query)).toBeGreaterThan(0);
  });
});

describe("inherited field-order indexes", () => {
  const indexes = (db: Database.Database) =>
    // Those of the system structures (DIR, SEARCH, REPORT) left out: every store has them.
    (db.prepare("select name, sql from sqlite_master where type = 'index' and name like 'elements_field_%'").all() as { name: string; sql: string }[])
      .filter((index) => !/structure = '(DIR|SEARCH|REPORT)'$/.test(index.sql)).map((index) => index.name).sort();

  it("follow a parent's fields in its descendants, in the transaction that saves it, and are kept at start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lineage-sqlite-inherited-"));
    try {
      const store = openSqliteStore({ dataDir: dir });
      const look = new Database(join(dir, "lineage.sqlite"), { readonly: true });
      await store.transaction(async (tx) => {
        await tx.catalog.saveStructure({ name: "kid", extends: "base", fields: [] });
        await tx.catalog.saveStructure({ name: "base", fields: [{ id: "a", type: "int" }] });
      });
      // base's and kid's indexes of a, both directions.
      expect(indexes(look)).toHaveLength(4);
      await expect(store.transaction(async (tx) => {
        await tx.catalog.saveStructure({ name: "base", fields: [{ id: "a", type: "int" }, { id: "b", type: "date" }] });
        throw new Error("rolled back");
      })).rejects.toThrow("rolled back");
      expect(indexes(look)).toHaveLength(4);
      await store.transaction((tx) => tx.catalog.saveStructure({ name: "base", fields: [{ id: "b", type: "date" }] }));
      const withB = indexes(look);
      expect(withB).toHaveLength(4);
      await store.close();
      await openSqliteStore({ dataDir: dir }).close();
      expect(indexes(look)).toEqual(withB);
      look.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
