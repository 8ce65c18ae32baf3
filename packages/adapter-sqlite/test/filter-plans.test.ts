import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  ElementQuery, FieldCondition, FieldValue, FilterNode, FilterOperator, FilterProperty, FilterValue, NewRevision, OrderTerm, Store,
} from "@lineage/core";
import { createMemoryStore, FILTER_STRUCTURES } from "@lineage/core/testing";
import { withoutConstants } from "../src/constant-filter.ts";
import { registerFilterFunctions } from "../src/filter-functions.ts";
import { seekLookups } from "../src/filter-plan.ts";
import { filterSeeks } from "../src/filter-seeks.ts";
import { groupedPageSql, prepareGroupedPage, type GroupedPage } from "../src/grouped-page.ts";
import { listPageSql } from "../src/list-statement.ts";
import { seekPageSql } from "../src/seek-statements.ts";
import { openSqliteStore } from "../src/index.ts";

/*
 * Every way the store may read a filtered page gives the same page: the walk of the order's index
 * (one statement, merged structures, or group by group) and each seek of the filter, for orders,
 * scopes, rights and pages of every kind; and the store's own choice gives the in-memory store's
 * page (queries/filter-match.ts is the meaning), counts included. The filter contract suite checks
 * the meaning on the store's choice alone, which on its few rows is mostly a seek.
 */

const dataDir = mkdtempSync(join(tmpdir(), "lineage-sqlite-filter-plans-"));
let sqlite: Store;
let memory: Store;
let client: Database.Database;

/** A small seeded generator: the same rows and filters on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEXTS = ["Alpha", "alpha", "ÉTÉ", "été", "b", "Ωmega", ""] as const;
const KEYS = ["ai", "space", "art"] as const;
const STATES = ["draft", "review", "done"] as const;
const DATES = ["2024-01-01", "2024-02-29", "2025-06-15"] as const;
const ROWS = 300;

beforeAll(async () => {
  sqlite = openSqliteStore({ dataDir });
  memory = createMemoryStore();
  const next = random(7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const revisions: NewRevision[] = Array.from({ length: ROWS }, (_, i) => {
    const inFa = i % 3 !== 2;
    const values: Record<string, FieldValue> = inFa
      ? {
        t: next() < 0.2 ? null : pick(TEXTS), n: next() < 0.2 ? null : Math.floor(next() * 9) - 4, e: next() < 0.2 ? null : pick(KEYS),
        dt: next() < 0.2 ? null : pick(DATES), tags: Array.from({ length: Math.floor(next() * 3) }, () => pick(TEXTS)),
        cm: Array.from({ length: Math.floor(next() * 2) }, () => [pick(KEYS)]),
      }
      : { t: pick(TEXTS), n: Math.floor(next() * 9) - 4, dt: pick(TEXTS) };
    return {
      revision: i % 4, structure: inFa ? "fa" : "fb", name: next() < 0.5 ? null : `N_${i % 50}`, title: pick(TEXTS), owner: 1 + Math.floor(next() * 3),
      status: i % 11 === 0 ? "deleted" : "alive", fixed: false, state: next() < 0.2 ? null : pick(STATES),
      values,
      createdAt: new Date(Date.UTC(2024, 0, 1 + (i % 30))).toISOString(), modifiedAt: new Date(Date.UTC(2024, 1, 1 + ((i * 7) % 25))).toISOString(),
      importKey: null, ownProfile: null, profile: i % 5 === 0 ? "P1" : null,
    };
  });
  for (const store of [sqlite, memory]) {
    await store.transaction(async (tx) => {
      for (const structure of FILTER_STRUCTURES) await tx.catalog.saveStructure(structure);
      for (const revision of revisions) await tx.elements.insert(revision);
    });
  }
  client = new Database(join(dataDir, "lineage.sqlite"), { readonly: true });
  registerFilterFunctions(client);
}, 60_000);
afterAll(async () => {
  client.close();
  await sqlite.close();
  await memory.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const field = (id: string, operator: FilterOperator, values: readonly FilterValue[], extra: Partial<FieldCondition> = {}): FieldCondition => ({
  kind: "field", field: id, comparison: "text", shape: "single", operator, values, indexed: false, ...extra,
});
const property = (key: FilterProperty, operator: FilterOperator, values: readonly FilterValue[], comparison: "text" | "number" = "text"): FilterNode => ({
  kind: "property", property: key, comparison, operator, values,
});
const and = (...nodes: FilterNode[]): FilterNode => ({ kind: "group", logic: "and", nodes });
const or = (...nodes: FilterNode[]): FilterNode => ({ kind: "group", logic: "or", nodes });

/** Filters with seeks of every kind (properties, indexed fields in one structure or two, ranges, `in`), and some without. */
function filters(): FilterNode[] {
  const chosen: FilterNode[] = [
    property("state", "eq", ["review"]),
    property("owner", "in", [1, 3], "number"),
    and(property("cdate", "gte", ["2024-01-10T00:00:00.000Z"]), property("cdate", "lt", ["2024-01-20T00:00:00.000Z"])),
    field("n", "eq", [2], { comparison: "number", indexed: true }),
    field("n", "gte", [3], { comparison: "number", indexed: true }),
    field("e", "in", ["ai", "art"], { indexed: true, structures: ["fa"] }),
    and(field("dt", "eq", ["2024-02-29"], { indexed: true, structures: ["fa"] }), property("state", "neq", ["done"])),
    and(property("state", "eq", ["draft"]), field("e", "eq", ["space"], { indexed: true, structures: ["fa"] }), field("t", "contains", ["a"])),
    and(property("owner", "eq", [2], "number"), or(field("tags", "eq", ["b"], { shape: "list" }), property("title", "startswith", ["é"]))),
    and(property("fromname", "eq", ["fb"]), field("n", "lt", [0], { comparison: "number", indexed: true })),
    and(property("name", "eq", ["N_7"]), property("revision", "gte", [1], "number")),
    field("cm", "eq", ["space"], { shape: "nested" }),
    property("title", "isempty", []),
  ];
  // Random `and`s of seekable and other conditions, the kind a plan choice is about.
  const next = random(11);
  const choose = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const condition = (): FilterNode => choose<() => FilterNode>([
    () => property("state", choose(["eq", "neq", "in", "isempty"] as const), [choose(STATES)]),
    () => property("owner", choose(["eq", "in"] as const), [1 + Math.floor(next() * 3)], "number"),
    () => property("mdate", choose(["lt", "gte"] as const), [new Date(Date.UTC(2024, 1, 1 + Math.floor(next() * 25))).toISOString()]),
    () => property("title", choose(["eq", "contains", "isnotempty"] as const), [choose(TEXTS)]),
    () => field("n", choose(["eq", "lte", "gt", "neq"] as const), [Math.floor(next() * 9) - 4], { comparison: "number", indexed: true }),
    () => field("e", choose(["eq", "neq", "isempty"] as const), [choose(KEYS)], { indexed: true, structures: ["fa"] }),
    () => field("t", choose(["eq", "startswith", "doesnotcontain"] as const), [choose(TEXTS)]),
    () => field("tags", choose(["eq", "isempty", "neq"] as const), [choose(TEXTS)], { shape: "list" }),
  ])();
  const made = Array.from({ length: 8 }, () => and(...Array.from({ length: 1 + Math.floor(next() * 3) }, condition)));
  // Values of `in`, `isempty` and friends as the core types them.
  const typed = (node: FilterNode): FilterNode => {
    if (node.kind === "group") return { ...node, nodes: node.nodes.map(typed) };
    if (node.operator === "isempty" || node.operator === "isnotempty") return { ...node, values: [] };
    return node;
  };
  return [...chosen, ...made.map(typed)];
}

const by = (key: string, direction: "asc" | "desc" = "asc", kind: OrderTerm["kind"] = "property"): OrderTerm => ({ kind, key, direction });
const ORDERS: Record<string, readonly OrderTerm[]> = {
  "id": [by("id")], "title": [by("title")], "mdate desc": [by("mdate", "desc")],
  "state desc, title (grouped)": [by("state", "desc"), by("title")], "owner, mdate desc (grouped)": [by("owner"), by("mdate", "desc")],
};
const SCOPES: Record<string, Pick<ElementQuery, "structures" | "readable" | "status">> = {
  "the whole collection": { status: "alive" },
  "one structure": { status: "alive", structures: ["fa"] },
  "two structures": { status: "alive", structures: ["fa", "fb"] },
  "a reader of fb and of P1": { status: "alive", readable: { structures: ["fb"], profiles: ["P1"] } },
  "the trash": { status: "deleted" },
};
const PAGES = [{ limit: 7, offset: 0 }, { limit: 5, offset: 40 }, { limit: null, offset: 100 }];

const statements = new Map<string, Database.Statement>();
const groupedPages = new Map<string, GroupedPage>();
/** The statement of this SQL, prepared once. */
function prepared(sql: string): Database.Statement {
  const statement = statements.get(sql) ?? client.prepare(sql).pluck();
  statements.set(sql, statement);
  return statement;
}

/** The page as the walk reads it: the order's index (grouped-page.ts when it applies, else list-statement.ts). */
function walked(query: ElementQuery): number[] {
  const grouped = groupedPageSql(query);
  if (grouped) {
    const key = JSON.stringify(grouped);
    const page = groupedPages.get(key) ?? prepareGroupedPage(client, grouped);
    groupedPages.set(key, page);
    const ids = page.ids(query);
    if (ids) return ids;
  }
  const page = listPageSql(query);
  const ids = prepared(page.sql).all(...page.bind(query)) as number[];
  // With its single fields tested on their indexes (a walk of one structure), the same page.
  const probed = listPageSql(query, { hasIndex: seekLookups(client).hasIndex });
  expect(prepared(probed.sql).all(...probed.bind(query)), `probed ${probed.sql}`).toEqual(ids);
  return ids;
}

/** The page as each seek of its filter reads it. */
function sought(query: ElementQuery): number[][] {
  const seeks = filterSeeks(query, seekLookups(client));
  if (seeks === "none") return [[]];
  return seeks.map((seek) => {
    const { sql, params } = seekPageSql(query, seek);
    return prepared(sql).all(...params) as number[];
  });
}

describe("a filtered page", () => {
  it.each(Object.entries(SCOPES))("of %s is the same page walked, sought, and as the in-memory store gives it", async (_, scope) => {
    let seeks = 0;
    for (const filter of filters()) {
      const reduced = withoutConstants(filter);
      for (const [name, orderBy] of Object.entries(ORDERS)) {
        for (const page of PAGES) {
          const query: ElementQuery = { ...scope, filter, orderBy, ...page };
          const expected = (await memory.elements.list(query)).map((row) => row.id);
          const label = JSON.stringify({ filter, order: name, page });
          expect((await sqlite.elements.list(query)).map((row) => row.id), label).toEqual(expected);
          if (typeof reduced === "boolean") continue;
          const plain = { ...query, filter: reduced };
          expect(walked(plain), `walked ${label}`).toEqual(expected);
          for (const ids of sought(plain)) {
            seeks += 1;
            expect(ids, `sought ${label}`).toEqual(expected);
          }
        }
      }
      expect(await sqlite.elements.count({ ...scope, filter }), JSON.stringify(filter)).toBe(await memory.elements.count({ ...scope, filter }));
    }
    expect(seeks).toBeGreaterThan(100);
  }, 120_000);

  it("binds any number of values: 40 `in` conditions of 1,000 values each, tested in every part of a merge", async () => {
    const many = (id: string, values: FilterValue[]) => field(id, "in", values, { comparison: "number", indexed: true });
    const filter = and(...Array.from({ length: 40 }, (_, i) => many("n", Array.from({ length: 1000 }, (_, v) => v - 4 - (i % 2)))));
    for (const orderBy of [[by("title")], [by("n", "desc", "field"), by("id", "desc")]]) {
      const query: ElementQuery = { status: "alive", structures: ["fa", "fb"], filter, orderBy, limit: 10, offset: 3 };
      expect((await sqlite.elements.list(query)).map((row) => row.id)).toEqual((await memory.elements.list(query)).map((row) => row.id));
      expect(await sqlite.elements.count(query)).toBe(await memory.elements.count(query));
    }
  });

  it("of a field order, one structure's or merged from several, is the same page walked and sought", async () => {
    for (const filter of filters()) {
      const reduced = withoutConstants(filter);
      for (const structures of [["fa"], ["fa", "fb"]]) {
        for (const page of PAGES) {
          const query: ElementQuery = { status: "alive", structures, filter, orderBy: [by("n", "desc", "field"), by("id", "desc")], ...page };
          const expected = (await memory.elements.list(query)).map((row) => row.id);
          expect((await sqlite.elements.list(query)).map((row) => row.id), JSON.stringify(query)).toEqual(expected);
          if (typeof reduced === "boolean") continue;
          const plain = { ...query, filter: reduced };
          expect(walked(plain)).toEqual(expected);
          for (const ids of sought(plain)) expect(ids).toEqual(expected);
        }
      }
    }
  }, 120_000);
});

describe("a walk of one structure's order", () => {
  it("tests a single field's condition on the field's index, the row unread, and a reader without owner grants on a set of structures", () => {
    const query: ElementQuery = {
      status: "alive", structures: ["fa"], filter: field("e", "eq", ["space"], { comparison: "text", indexed: true }), orderBy: [by("title")],
      limit: 10, offset: 0, readable: { structures: ["fa"], profiles: [] },
    };
    const page = listPageSql(query, { hasIndex: seekLookups(client).hasIndex });
    const plan = (client.prepare(`explain query plan ${page.sql}`).all(...page.bind(query)) as { detail: string }[]).map((row) => row.detail);
    expect(plan.some((detail) => /^SEARCH elements USING COVERING INDEX elements_structure_by_title/.test(detail)), plan.join("\n")).toBe(true);
    expect(plan.some((detail) => /^SEARCH probe USING INDEX elements_field_\w+_idx \(status=\? AND <expr>=\? AND id=\?\)/.test(detail)), plan.join("\n")).toBe(true);
    expect(page.sql).toContain("+structure in (select value from json_each(?))");
  });
});
