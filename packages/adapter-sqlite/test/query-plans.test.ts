import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPlatform, SORTABLE_PROPERTIES, type ElementQuery, type FieldCondition, type FilterNode, type OrderTerm, type PropertyCondition, type SmartField,
} from "@lineage/core";
import { countSql } from "../src/element-count.ts";
import { BATCH_READS, PROFILES_IN_USE, STRUCTURES_OWNED } from "../src/element-repository.ts";
import { fieldIndexName } from "../src/field-indexes.ts";
import { registerFilterFunctions } from "../src/filter-functions.ts";
import { createFilterPlanner, type FilterPlanner } from "../src/filter-plan.ts";
import { compileFilter } from "../src/filter-sql.ts";
import { groupedPageSql } from "../src/grouped-page.ts";
import { listPageSql, sortExpression } from "../src/list-statement.ts";
import { READABLE_CONDITION, readableCondition, readableKeys } from "../src/readable-condition.ts";
import { seekCountSql, seekPageSql, seekProbeSql } from "../src/seek-statements.ts";
import { openSqliteStore } from "../src/index.ts";

const ROWS = 30_000;
const STRUCTURES = 10;
const dataDir = mkdtempSync(join(tmpdir(), "lineage-sqlite-plans-"));
let client: Database.Database;
let planner: FilterPlanner;

/** A field of each type a list may sort on; the last ones have no index (docs/limits.md). */
const FIELDS: SmartField[] = [
  { id: "f_text", type: "text" }, { id: "f_int", type: "int" }, { id: "f_double", type: "double" }, { id: "f_date", type: "date" },
  { id: "f_timestamp", type: "timestamp" }, { id: "f_enum", type: "enum", enum: "colors" }, { id: "f_docid", type: "docid" },
  { id: "f_long", type: "longtext" }, { id: "f_html", type: "htmltext" }, { id: "f_multi", type: "text", multiple: true },
];
const INDEXED_FIELDS = FIELDS.slice(0, 7).map((f) => f.id);
const UNINDEXED_FIELDS = FIELDS.slice(7).map((f) => f.id);

beforeAll(async () => {
  // The store's own migrations and structures (whose saving makes the field indexes), rows added in bulk.
  const store = openSqliteStore({ dataDir });
  await store.transaction(async (tx) => {
    for (let i = 0; i < STRUCTURES; i++) {
      // Each structure viewed by a role of its own: a reader of one structure of ten (rights in the index path).
      await tx.accounts.saveRole({ id: `r_s${i}` });
      await tx.catalog.saveProfile({ name: `PRF_s${i}`, grants: { view: [`role:r_s${i}`] } });
      await tx.catalog.saveStructure({ name: `s${i}`, profile: `PRF_s${i}`, fields: FIELDS });
    }
  });
  await store.close();
  client = new Database(join(dataDir, "lineage.sqlite"));
  client.prepare(`
    with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
    insert into elements (initid, revision, structure, structure_id, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key,
      profile)
    select i, i % 3, 's' || (i % ${STRUCTURES}), 1 + i % ${STRUCTURES}, case when i % 5 = 0 then 'N' || i end, 'title ' || (i * 7919 % 1000), i % 4,
      case when i % 10 = 0 then 'deleted' else 'alive' end, i % 7 = 0, case i % 3 when 0 then null else 'e' || (i % 2) end,
      json_object('f_text', 't' || (i % 97), 'f_int', i % 50, 'f_double', i / 7.0, 'f_date', '2024-01-' || (10 + i % 20), 'f_enum', 'c' || (i % 3),
        'f_docid', i % 1000, 'f_long', 'long ' || i, 'f_multi', json_array('a', i)),
      '2024-01-01T00:00:' || (10 + i % 50), '2024-02-01T00:00:' || (10 + i % 40), null,
      -- A third of the elements under a profile of their own (or their state's): P0 to P9.
      case when i % 3 = 0 then 'P' || (i % 10) end
    from n`).run(ROWS);
  client.exec("analyze");
  registerFilterFunctions(client);
  planner = createFilterPlanner(client);
});
afterAll(() => {
  client.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const by = (key: string, direction: "asc" | "desc" = "asc", kind: OrderTerm["kind"] = "property"): OrderTerm => ({ kind, key, direction });

function plan(query: Pick<ElementQuery, "orderBy" | "structures" | "readable">): string {
  const page = listPageSql({ ...query, limit: 10 });
  const params = page.bind({ status: "alive", offset: 0, limit: 10, ...query });
  return (client.prepare(`explain query plan ${page.sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join("\n");
}

/** The page, and the same page as a plain sort of the table gives it. */
function pages(query: Pick<ElementQuery, "orderBy" | "structures" | "readable">, offset: number): [number[], number[]] {
  const page = listPageSql({ ...query, limit: 10 });
  const params = page.bind({ status: "alive", offset, limit: 10, ...query });
  const sorted = page.sql.replace(/ from elements( indexed by \w+)?/, " from elements not indexed");
  return [client.prepare(page.sql).pluck().all(...params) as number[], client.prepare(sorted).pluck().all(...params) as number[]];
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
  "three structures, for that reader": { structures: ["s1", "s4", "s7"], readable: READER },
  "the whole collection, for a reader of s3 and of their own elements of s5 and under P3 (the owner grant)": { readable: OWNER_READER },
};
const KEYS = SORTABLE_PROPERTIES.filter((key) => key !== "id");
const GROUPED_KEYS = ["owner", "state", "revision", "name", "fromname", "fromid"];
const SECOND_KEYS = ["title", "name", "revision", "owner", "state", "cdate", "mdate", "initid"];

describe("list pages", () => {
  describe.each(Object.entries(SCOPES))("of %s", (_, scope) => {

    it.each(SORTABLE_PROPERTIES.flatMap((key) => DIRECTIONS.map((direction) => [key, direction] as const)))(
      "ordered by %s %s (then id desc) walk an index in order, no row read for the entries skipped",
      (key, direction) => {
        const steps = plan({ ...scope, orderBy: [by(key, direction)] });
        expect(steps).not.toMatch(/TEMP B-TREE/);
        // Each structure's index merged when there are several (MERGE, LEFT, RIGHT), else one index.
        const searches = steps.split("\n").filter((step) => !/^(MERGE \(UNION ALL\)|LEFT|RIGHT|LIST SUBQUERY \d+|SCAN json_each .*|CREATE BLOOM FILTER)$/.test(step));
        expect(searches.length).toBeGreaterThan(0);
        for (const step of searches) expect(step).toMatch(/^SEARCH elements USING COVERING INDEX elements_\w+ \(status=\?( AND structure=\?)?\)$/);
      },
    );

    it.each(KEYS.flatMap((key) => DIRECTIONS.flatMap((direction) => DIRECTIONS.map((id) => [key, direction, id] as const))))(
      "ordered by %s %s, id %s walk an index in order",
      (key, direction, id) => {
        const steps = plan({ ...scope, orderBy: [by(key, direction), by("id", id)] });
        expect(steps).not.toMatch(/TEMP B-TREE/);
        expect(steps).toMatch(/USING COVERING INDEX/);
      },
    );

    it.each(KEYS.flatMap((key) => DIRECTIONS.map((direction) => [key, direction] as const)))(
      "ordered by %s %s then another key sort the ties of the first key at most, never the table",
      (key, direction) => {
        for (const other of KEYS.filter((k) => k !== key)) {
          expect(plan({ ...scope, orderBy: [by(key, direction), by(other, direction === "asc" ? "desc" : "asc")] })).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
        }
      },
    );

    it("give the page a sort of the table gives, at any offset", () => {
      for (const orderBy of [[by("title")], [by("mdate", "desc")], [by("owner")], [by("state", "desc")], [by("name")], [by("initid", "desc")],
        [by("fromid", "desc")], [by("fromname"), by("id")], [by("revision", "desc"), by("title")], [by("owner"), by("cdate", "desc")]]) {
        for (const offset of [0, 7, 1234, 9000]) {
          const [page, sorted] = pages({ ...scope, orderBy }, offset);
          expect(page, JSON.stringify({ orderBy, offset })).toEqual(sorted);
        }
      }
    });
  });

  describe.each(Object.entries(SCOPES))("of %s ordered by a key of few values then another", (_, scope) => {
    const structures = scope.structures;
    const grouped = GROUPED_KEYS.filter((key) => structures?.length !== 1 || (key !== "fromname" && key !== "fromid"));

    it.each(grouped.flatMap((key) => DIRECTIONS.map((direction) => [key, direction] as const)))(
      "%s %s walk the next key's index one group at a time, a few rows sorted at most",
      (key, direction) => {
        for (const next of SECOND_KEYS.filter((k) => k !== key)) {
          const sql = groupedPageSql({ ...scope, orderBy: [by(key, direction), by(next, "desc")] })!;
          const params = {
            status: "alive", structure: "s3", structures: JSON.stringify(structures ?? []), readable: readableKeys(READER), value: 1, group: "s3", cap: 10, limit: 10, offset: 0,
          };
          const explain = (text: string) => (client.prepare(`explain query plan ${text}`).all(params) as { detail: string }[]).map((r) => r.detail).join("\n");
          for (const text of [sql.first, sql.next, sql.firstNotNull, sql.anyNull, sql.count, sql.walk]) {
            expect(explain(text), text).not.toMatch(/TEMP B-TREE/);
            expect(explain(text), text).toMatch(/USING COVERING INDEX/);
          }
          // A group of fewer than SMALL_GROUP rows, sorted: found by the key on its index, never the table.
          expect(explain(sql.sort)).toMatch(/^SEARCH elements USING (COVERING )?INDEX \w+ \(status=\? AND (structure=\? AND )?\w+=\?\)\n(.+\n)*USE TEMP B-TREE FOR ORDER BY$/);
        }
      },
    );

    it("give the page a sort of the table gives, at any offset, through the store", async () => {
      const store = openSqliteStore({ dataDir });
      try {
        for (const key of grouped) {
          for (const orderBy of [[by(key), by("title", "desc")], [by(key, "desc"), by("mdate")], [by(key, "desc"), by("initid", "desc")]]) {
            const sorted = client.prepare(listPageSql({ ...scope, orderBy, limit: 10 }).sql.replace(/ from elements( indexed by \w+)?/, " from elements not indexed")).pluck();
            for (const offset of [0, 5, 2990, 3004, 7500, 14_999, 24_000]) {
              const query = { status: "alive" as const, ...scope, orderBy, limit: 10, offset };
              const expected = sorted.all(...listPageSql(query).bind(query));
              expect((await store.elements.list(query)).map((r) => r.id), JSON.stringify({ orderBy, offset })).toEqual(expected);
            }
          }
        }
      } finally {
        await store.close();
      }
    });
  });

  it.each(INDEXED_FIELDS.flatMap((field) => DIRECTIONS.map((direction) => [field, direction] as const)))(
    "of a structure ordered by its field %s %s walk the field's index in order",
    (field, direction) => {
      const steps = plan({ structures: ["s2"], orderBy: [by(field, direction, "field")] });
      expect(steps).not.toMatch(/TEMP B-TREE/);
      expect(steps).toMatch(/^SEARCH elements USING INDEX elements_field_\w+ \(status=\?\)$/);
      for (const offset of [0, 150, 2000]) {
        const [page, sorted] = pages({ structures: ["s2"], orderBy: [by(field, direction, "field")] }, offset);
        expect(page).toEqual(sorted);
      }
    },
  );

  it.each(UNINDEXED_FIELDS)("of a structure ordered by its field %s (no index) sort that structure's revisions only", (field) => {
    expect(plan({ structures: ["s2"], orderBy: [by(field, "asc", "field")] }))
      .toMatch(/^SEARCH elements USING (COVERING )?INDEX elements_\w+ \(status=\? AND structure=\?\)\nUSE TEMP B-TREE FOR ORDER BY$/);
  });

  it("for a reader who may view one structure of ten: the store is asked for that structure, whose index a page walks", async () => {
    const store = openSqliteStore({ dataDir });
    try {
      const asked: ElementQuery[] = [];
      const list = store.elements.list.bind(store.elements);
      const platform = createPlatform({ store: { ...store, elements: { ...store.elements, list: (query) => (asked.push(query), list(query)) } } });
      await platform.accounts.add({ login: "reader", password: "reader-pw", roles: ["r_s3"] });
      const reader = (await platform.accounts.principal("reader"))!;
      for (const orderBy of ["mdate:desc", "title", "owner:desc", "initid"]) {
        asked.length = 0;
        const page = await platform.elements.list(reader, { slice: "10", offset: "500", orderBy, fields: "document.properties.fromname" });
        expect(page.documents.map((document) => document.properties?.fromname)).toEqual(Array(10).fill("s3"));
        // No element is under a profile of its own the reader may view: s3's, those under its structure's profile.
        expect(asked.map((query) => [query.structures, query.readable])).toEqual([[["s3"], { structures: ["s3"], profiles: [] }]]);
        const steps = plan(asked[0]!);
        expect(steps).not.toMatch(/TEMP B-TREE/);
        expect(steps).toMatch(/^SEARCH elements USING COVERING INDEX elements_structure_\w+ \(status=\? AND structure=\?\)$/m);
      }
    } finally {
      await store.close();
    }
  });

  it("for a reader of the elements under a profile of their own (one in thirty): the whole collection's index, filtered on its entries", async () => {
    const store = openSqliteStore({ dataDir });
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
        const page = await platform.elements.list(reader, { slice: "10", offset: "200", orderBy, fields: "document.properties.profid" });
        expect(page.documents.map((document) => document.properties?.profid)).toEqual(Array(10).fill("P1"));
        expect(asked.map((query) => [query.structures, query.readable])).toEqual([[undefined, { structures: [], profiles: ["P1"] }]]);
        const steps = plan(asked[0]!);
        expect(steps).not.toMatch(/TEMP B-TREE/);
        expect(steps).toMatch(/^SEARCH elements USING COVERING INDEX elements_by_\w+ \(status=\?\)$/m);
      }
    } finally {
      await store.close();
    }
  });

  it.each(INDEXED_FIELDS)("of a structure ordered by its field %s, for a reader of one element in ten, walk the field's index filtered", (field) => {
    const query = { structures: ["s3"], readable: READER, orderBy: [by(field, "desc", "field")] };
    expect(plan(query)).not.toMatch(/TEMP B-TREE/);
    for (const offset of [0, 150, 700]) {
      const [page, sorted] = pages(query, offset);
      expect(page).toEqual(sorted);
    }
  });

  it("write the limit out, since SQLite prepares a statement again each time its LIMIT is bound", () => {
    expect(listPageSql({ orderBy: [by("title")], limit: 10 }).sql).toMatch(/ limit 10 offset \?$/);
    expect(listPageSql({ orderBy: [by("title")], limit: null }).sql).toMatch(/ limit -1 offset \?$/);
    expect(() => listPageSql({ orderBy: [by("title")], limit: 1.5 })).toThrow(RangeError);
  });
});

describe("filtered list pages", () => {
  const field = (id: string, operator: FieldCondition["operator"], values: FieldCondition["values"], comparison: FieldCondition["comparison"] = "text"): FieldCondition => ({
    kind: "field", field: id, comparison, shape: "single", operator, values, indexed: true,
  });
  const property = (key: PropertyCondition["property"], operator: PropertyCondition["operator"], values: PropertyCondition["values"]): PropertyCondition => ({
    kind: "property", property: key, comparison: typeof values[0] === "number" ? "number" : "text", operator, values,
  });
  const query = (filter: FilterNode, rest: Partial<ElementQuery> = {}): ElementQuery => ({
    status: "alive", filter, orderBy: [by("title")], limit: 10, offset: 0, ...rest,
  });
  const explain = (sql: string, params: readonly unknown[]) =>
    (client.prepare(`explain query plan ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join("\n");
  /** True when a statement's program reads a column of `elements` from its rows, not from an index's entries. */
  const readsRows = (sql: string, params: readonly unknown[]): boolean => {
    const root = client.prepare("select rootpage from sqlite_master where type = 'table' and name = 'elements'").pluck().get();
    const program = client.prepare(`explain ${sql}`).all(...params) as { opcode: string; p1: number; p2: number }[];
    const rows = new Set(program.filter((op) => op.opcode === "OpenRead" && op.p2 === root).map((op) => op.p1));
    return program.some((op) => op.opcode === "Column" && rows.has(op.p1));
  };
  /** The page as a sort of the whole table gives it (no index, the filter tested on every row). */
  const sorted = (q: ElementQuery): number[] => {
    const filter = compileFilter(q.filter!);
    const where = ["status = ?", "fixed = 0"];
    const params: unknown[] = [q.status];
    if (q.structures) {
      where.push("structure in (select value from json_each(?))");
      params.push(JSON.stringify(q.structures));
    }
    if (q.readable) {
      where.push(READABLE_CONDITION);
      params.push(readableKeys(q.readable));
    }
    where.push(filter.sql);
    const order = [...q.orderBy, by("id", "desc")].map((term) => `${sortExpression(term)} ${term.direction}`).join(", ");
    const sql = `select id from elements not indexed where ${where.join(" and ")} order by ${order} limit ${q.limit ?? -1} offset ?`;
    return client.prepare(sql).pluck().all(...params, ...filter.params, q.offset) as number[];
  };

  it("of a structure, by a selective indexed field's equality: read from that field's index, the rights tested on its entries, then sorted", async () => {
    // f_docid = 42: 30 of s2's 3,000 elements; the reader may not view those under P2, a third of them.
    const filtered = query(field("f_docid", "eq", [42], "number"), { structures: ["s2"], readable: { structures: ["s2"], profiles: [] } });
    const plan = planner.page(filtered);
    expect(plan.kind).toBe("seek");
    if (plan.kind !== "seek") return;
    const { sql, params } = seekPageSql(filtered, plan.seek);
    expect(sql).toContain(readableCondition(filtered.readable!));
    expect(explain(sql, params)).toMatch(/^SEARCH elements USING INDEX elements_field_\w+ \(status=\? AND <expr>=\?\)\n(.+\n)*USE TEMP B-TREE FOR ORDER BY$/);
    // The probe reads the field's index alone: the value, the profile and (as its partial index's constant) the structure.
    const probe = seekProbeSql(filtered, plan.seek, 100);
    expect(probe.sql).toContain(readableCondition(filtered.readable!));
    expect(explain(probe.sql, probe.params)).toMatch(/SEARCH elements USING INDEX elements_field_\w+ \(status=\? AND <expr>=\?\)/);
    expect(readsRows(probe.sql, probe.params)).toBe(false);
    expect(readsRows(sql, params)).toBe(true);
    const store = openSqliteStore({ dataDir });
    try {
      for (const offset of [0, 5, 12]) {
        const page = { ...filtered, offset };
        const ids = (await store.elements.list(page)).map((row) => row.id);
        expect(ids).toEqual(sorted(page));
        expect(ids.length).toBeGreaterThan(0);
      }
      const all = sorted({ ...filtered, limit: null });
      expect(await store.elements.count(filtered)).toBe(all.length);
      expect(all.length).toBeLessThan(sorted({ ...filtered, readable: undefined, limit: null }).length);
    } finally {
      await store.close();
    }
  });

  it("past the end of what its seek counted: nothing read, for every element the filter keeps meets the seek's conditions", () => {
    const scope = { structures: ["s2"], readable: { structures: ["s2"], profiles: [] } };
    const whole = sorted(query(field("f_docid", "eq", [42], "number"), { ...scope, limit: null })).length;
    expect(whole).toBeGreaterThan(5);
    expect(planner.page(query(field("f_docid", "eq", [42], "number"), { ...scope, offset: whole }))).toEqual({ kind: "none" });
    expect(planner.page(query(field("f_docid", "eq", [42], "number"), { ...scope, offset: whole - 1 }))).toMatchObject({ kind: "seek" });
    // With a condition the seek does not test, the list is shorter still.
    const more = (offset: number) => query({ kind: "group", logic: "and", nodes: [field("f_docid", "eq", [42], "number"), property("owner", "eq", [2])] }, { ...scope, offset });
    expect(planner.page(more(whole))).toEqual({ kind: "none" });
    const plan = planner.page(more(0));
    expect(plan.kind).toBe("seek");
    if (plan.kind === "seek") {
      const { sql, params } = seekPageSql(more(0), plan.seek);
      expect(client.prepare(sql).pluck().all(...params)).toEqual(sorted(more(0)));
      expect(sorted(more(0)).length).toBeGreaterThan(0);
    }
  });

  it("of the whole collection, by a selective property's equality: read from that property's index, entries only, then sorted", () => {
    // A reader of s5, which holds N505 (READER may view no named element: its page would be empty, and not read).
    const filtered = query(property("name", "eq", ["N505"]), { readable: { structures: ["s5"], profiles: [] }, orderBy: [by("mdate", "desc")] });
    const plan = planner.page(filtered);
    expect(plan.kind).toBe("seek");
    if (plan.kind !== "seek") return;
    const { sql, params } = seekPageSql(filtered, plan.seek);
    expect(explain(sql, params)).toMatch(/^SEARCH elements USING INDEX elements_by_name_idx \(status=\? AND name=\?\)(\n.+)*\nUSE TEMP B-TREE FOR ORDER BY$/);
    const probe = seekProbeSql(filtered, plan.seek, 100);
    expect(explain(probe.sql, probe.params)).toMatch(/SEARCH elements USING COVERING INDEX elements_by_name_idx \(status=\? AND name=\?\)/);
  });

  it("by a condition a third of the elements pass: the order's index walked, a property tested on its entries (no row read), rights too", () => {
    const filtered = query(property("state", "eq", ["e1"]), { readable: READER });
    expect(planner.page(filtered)).toEqual({ kind: "walk" });
    const page = listPageSql(filtered);
    expect(explain(page.sql, page.bind(filtered))).toMatch(/^SEARCH elements USING COVERING INDEX elements_by_title_idx \(status=\?\)(\n|$)/);
    for (const offset of [0, 150, 1400]) expect(client.prepare(page.sql).pluck().all(...page.bind({ ...filtered, offset }))).toEqual(sorted({ ...filtered, offset }));
  });

  it("by a date range ordered by that date: the range read from the order's index, in order", () => {
    const range: FilterNode = {
      kind: "group", logic: "and", nodes: [property("cdate", "gte", ["2024-01-01T00:00:20"]), property("cdate", "lt", ["2024-01-01T00:00:30"])],
    };
    for (const scope of [{}, { structures: ["s3"] }]) {
      const filtered = query(range, { ...scope, orderBy: [by("cdate", "desc")] });
      expect(planner.page(filtered)).toEqual({ kind: "walk" });
      const page = listPageSql(filtered);
      const steps = explain(page.sql, page.bind(filtered));
      expect(steps).not.toMatch(/TEMP B-TREE/);
      expect(steps).toMatch(/^SEARCH elements USING COVERING INDEX elements_(structure_)?by_cdate_desc_idx \(status=\? AND (structure=\? AND )?created_at>\? AND created_at<\?\)/);
      for (const offset of [0, 300]) expect(client.prepare(page.sql).pluck().all(...page.bind({ ...filtered, offset }))).toEqual(sorted({ ...filtered, offset }));
    }
    // With a condition that keeps one element: read through that condition's index rather than the whole range.
    const rare = query({ kind: "group", logic: "and", nodes: [...(range.kind === "group" ? range.nodes : []), property("name", "eq", ["N505"])] }, {
      orderBy: [by("cdate", "desc")],
    });
    expect(planner.page(rare)).toMatchObject({ kind: "seek", seek: { kind: "property", property: "name" } });
  });

  it("of a structure ordered by a field, by a condition many pass: the field's index walked, not the condition's rows sorted", () => {
    const hasIndex = (name: string) => client.prepare("select 1 from sqlite_master where type = 'index' and name = ?").get(name) !== undefined;
    for (const direction of ["asc", "desc"] as const) {
      const filtered = query(property("state", "eq", ["e1"]), { structures: ["s3"], orderBy: [by("f_int", direction, "field")], readable: READER });
      expect(planner.page(filtered)).toEqual({ kind: "walk" });
      const page = listPageSql(filtered, { hasIndex });
      // Named: at a million elements SQLite's own choice was the state's index, its rows sorted (57 ms against 4 for the walk).
      expect(page.sql).toContain(`indexed by "${fieldIndexName("s3", "f_int", direction)}"`);
      expect(explain(page.sql, page.bind(filtered))).toMatch(/^SEARCH elements USING INDEX elements_field_\w+ \(status=\?\)(\n(?!.*TEMP B-TREE).*)*$/);
      for (const offset of [0, 40]) expect(client.prepare(page.sql).pluck().all(...page.bind({ ...filtered, offset }))).toEqual(sorted({ ...filtered, offset }));
    }
  });

  it("by a range on a field ordered by that field: the range bounds the walk of the field's index, no entry probed", () => {
    const range: FilterNode = {
      kind: "group", logic: "and", nodes: [field("f_date", "gte", ["2024-01-12"]), field("f_date", "lt", ["2024-01-14"])],
    };
    const filtered = query(range, { structures: ["s3"], orderBy: [by("f_date", "asc", "field")], readable: READER });
    expect(planner.page(filtered)).toEqual({ kind: "walk" });
    // As the repository reads it: with the single fields of the filter probed on their indexes (walkProbes).
    const hasIndex = (name: string) => client.prepare("select 1 from sqlite_master where type = 'index' and name = ?").get(name) !== undefined;
    const page = listPageSql(filtered, { hasIndex });
    expect(page.sql).not.toContain("probe");
    const steps = explain(page.sql, page.bind(filtered));
    expect(steps).not.toMatch(/TEMP B-TREE/);
    expect(steps).toMatch(/^SEARCH elements USING INDEX elements_field_\w+ \(status=\? AND <expr>>\? AND <expr><\?\)/);
    for (const offset of [0, 30]) {
      const ids = client.prepare(page.sql).pluck().all(...page.bind({ ...filtered, offset }));
      expect(ids).toEqual(sorted({ ...filtered, offset }));
      expect(ids.length).toBeGreaterThan(0);
    }
  });

  it("ordered by id, by an equality: the condition's index gives the id's order, nothing sorted", () => {
    for (const filter of [property("state", "eq", ["e0"]), field("f_enum", "eq", ["c1"])]) {
      const filtered = query(filter, { structures: ["s1", "s4"], orderBy: [by("id", "desc")], offset: 2000 });
      const plan = planner.page(filtered);
      expect(plan.kind).toBe("seek");
      if (plan.kind !== "seek") continue;
      const { sql, params } = seekPageSql(filtered, plan.seek);
      expect(explain(sql, params)).not.toMatch(/TEMP B-TREE/);
      expect(client.prepare(sql).pluck().all(...params)).toEqual(sorted(filtered));
    }
  });

  it("by an and whose conditions each keep many elements but together none: sought, not walked to the end", () => {
    // A third of s1 has state e1, another third f_enum c0, and no element both (both follow i % 3).
    const filtered = query({ kind: "group", logic: "and", nodes: [property("state", "eq", ["e1"]), field("f_enum", "eq", ["c0"])] }, { structures: ["s1"] });
    const plan = planner.page(filtered);
    expect(plan).toMatchObject({ kind: "seek", seek: { kind: "field", field: "f_enum" } });
    expect(sorted(filtered)).toEqual([]);
    const { sql, params } = seekPageSql(filtered, (plan as { seek: Parameters<typeof seekPageSql>[1] }).seek);
    expect(client.prepare(sql).pluck().all(...params)).toEqual([]);
  });

  it("counted on an index's entries: a property's, an indexed field's in each structure", () => {
    const byState = { status: "alive" as const, filter: property("state", "eq", ["e1"]), readable: READER };
    const statePlan = planner.count(byState);
    expect(statePlan.kind).toBe("seek");
    if (statePlan.kind !== "seek") return;
    const count = seekCountSql(byState, statePlan.seek);
    expect(explain(count.sql, count.params)).toMatch(/^SCAN CONSTANT ROW\nSCALAR SUBQUERY \d+\nSEARCH elements USING COVERING INDEX elements_by_state_idx \(status=\? AND state=\?\)/);
    const plain = countSql(byState);
    expect(client.prepare(count.sql).pluck().get(...count.params)).toBe(client.prepare(plain.sql).pluck().get(...plain.bind(byState)));
    const byEnum = { status: "alive" as const, structures: ["s1", "s4"], filter: field("f_enum", "eq", ["c2"]) };
    const plan = planner.count(byEnum);
    expect(plan.kind).toBe("seek");
    if (plan.kind !== "seek") return;
    const { sql, params } = seekCountSql(byEnum, plan.seek);
    expect(explain(sql, params).match(/SEARCH elements USING INDEX elements_field_\w+ \(status=\? AND <expr>=\?\)/g)).toHaveLength(2);
    expect(client.prepare(sql).pluck().get(...params)).toBe(sorted({ ...byEnum, orderBy: [], limit: null, offset: 0 }).length);
  });
});

describe("field-order indexes", () => {
  const indexes = (db: Database.Database) =>
    // Those of the system structures (DIR, SEARCH, REPORT) left out: every store has them.
    (db.prepare("select name, sql from sqlite_master where type = 'index' and name like 'elements_field_%'").all() as { name: string; sql: string }[])
      .filter((index) => !/structure = '(DIR|SEARCH|REPORT)'$/.test(index.sql)).map((index) => index.name).sort();

  it("come and go with a structure's fields, in the transaction that saves it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lineage-sqlite-fields-"));
    try {
      const store = openSqliteStore({ dataDir: dir });
      const look = new Database(join(dir, "lineage.sqlite"), { readonly: true });
      await store.transaction((tx) => tx.catalog.saveStructure({ name: "a", fields: [{ id: "x", type: "int" }, { id: "y", type: "longtext" }] }));
      const withX = indexes(look);
      expect(withX).toHaveLength(2);
      await expect(store.transaction(async (tx) => {
        await tx.catalog.saveStructure({ name: "a", fields: [{ id: "z", type: "text" }] });
        throw new Error("rolled back");
      })).rejects.toThrow("rolled back");
      expect(indexes(look)).toEqual(withX);
      await store.transaction((tx) => tx.catalog.saveStructure({ name: "a", fields: [{ id: "z", type: "text" }] }));
      const withZ = indexes(look);
      expect(withZ).toHaveLength(2);
      expect(withZ.some((name) => withX.includes(name))).toBe(false);
      look.close();
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("of an earlier layout (without the profile, or the owner) are dropped at start, those of now made", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lineage-sqlite-fields-"));
    try {
      const store = openSqliteStore({ dataDir: dir });
      await store.transaction((tx) => tx.catalog.saveStructure({ name: "a", fields: [{ id: "x", type: "int" }] }));
      await store.close();
      const db = new Database(join(dir, "lineage.sqlite"));
      const now = indexes(db);
      db.exec(`create index "elements_field_0123456789abcdef0123_idx" on elements (status, json_extract("values", '$."x"'), id desc) where fixed = 0 and structure = 'a'`);
      await openSqliteStore({ dataDir: dir }).close();
      expect(indexes(db)).toEqual(now);
      expect(db.prepare("select sql from sqlite_master where name = ?").pluck().get(now[0])).toMatch(/id desc, profile, owner\)/);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("are made at start for structures saved before they existed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lineage-sqlite-fields-"));
    try {
      await openSqliteStore({ dataDir: dir }).close();
      const db = new Database(join(dir, "lineage.sqlite"));
      db.prepare("insert into structures (name, definition) values ('old', ?)").run(JSON.stringify({ name: "old", fields: [{ id: "d", type: "date" }] }));
      expect(indexes(db)).toEqual([]);
      await openSqliteStore({ dataDir: dir }).close();
      expect(indexes(db)).toHaveLength(2);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

it("tells the profiles in use by a seek each on the index of the revisions under a profile of their own", () => {
  const statement = PROFILES_IN_USE;
  const steps = (client.prepare(`explain query plan ${statement}`).all('["P1"]') as { detail: string }[]).map((r) => r.detail).join("\n");
  expect(steps).toMatch(/SEARCH elements EXISTS USING COVERING INDEX elements_profile_idx \(profile=\?\)/);
  expect(client.prepare(statement).pluck().all('["P1","P9","PRF_NONE"]')).toEqual(["P1", "P9"]);
});

it("tells of which structures an account owns an element by a seek or two each on the index of one structure's owner order", () => {
  const statement = STRUCTURES_OWNED;
  const steps = (client.prepare(`explain query plan ${statement}`).all('["s1"]', 2) as { detail: string }[]).map((r) => r.detail).join("\n");
  expect(steps).toMatch(/SEARCH elements EXISTS USING COVERING INDEX elements_structure_by_owner\w*_idx \(status=\? AND structure=\? AND owner=\?\)/);
  // Owner 1 owns elements of the odd structures only (owner i % 4, structure i % 10).
  expect((client.prepare(statement).pluck().all('["s1","s2","s9","none"]', 1) as string[]).sort()).toEqual(["s1", "s9"]);
});

it("reads batches by index, each key looked up", () => {
  const planOf = (where: string) =>
    (client.prepare(`explain query plan select id from elements where ${where}`).all("[1,2,3]") as { detail: string }[]).map((r) => r.detail).join("\n");
  expect(planOf(BATCH_READS.byIds)).toMatch(/SEARCH elements USING INTEGER PRIMARY KEY/);
  for (const where of [BATCH_READS.latestMany, BATCH_READS.latestByNames]) {
    const steps = planOf(where);
    expect(steps).toMatch(/SEARCH elements USING INTEGER PRIMARY KEY/);
    expect(steps).toMatch(/SEARCH elements USING (COVERING )?INDEX elements_(initid|name)_idx/);
  }
});
