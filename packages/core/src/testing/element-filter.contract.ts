import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ElementRevision, FieldValue, NewRevision } from "../elements/smart-element.ts";
import type { ElementQuery } from "../ports/element-repository.port.ts";
import type { Store } from "../ports/store.port.ts";
import type { StructureDefinition } from "../structures/smart-structure.ts";
import type { FieldCondition, FilterNode, FilterOperator, FilterProperty, FilterValue, PropertyCondition } from "../queries/element-filter.ts";
import { foldCase, htmlText } from "../queries/element-filter.ts";
import { matchesFilter } from "../queries/filter-match.ts";
import { date, draft } from "./store-fixtures.ts";

/*
 * What every store's list filter gives: the elements queries/filter-match.ts accepts, no more, no
 * fewer, for explicit cases and for a few hundred random filters over varied values (texts with
 * accents and other cases, HTML, numbers, dates, multiple values, array columns, empties), counts
 * included. A store compiles filters its own way; this is how it is held to the one meaning.
 */

const TEXTS = ["Alpha", "alpha", "ÉTÉ", "été", "Zèbre", "zebra", "ab", "b", "𝄞 clef", "Ωmega", "ωmega"] as const;
const HTML = ["<p>Alpha <b>beta</b></p>", "<i>été</i> x", "plain", "<p></p>"] as const;
const DATES = ["2024-01-01", "2024-02-29", "2023-12-31", "2025-06-15"] as const;
const STAMPS = ["2024-01-01T09:30:00", "2024-01-01T00:00:00", "2023-12-31T23:59:59", "2025-06-15T12:00:00"] as const;
const TIMES = ["09:30:00", "00:00:00", "23:59:59"] as const;
const KEYS = ["ai", "space", "art"] as const;
const LOGINS = ["alice", "bob", "élodie"] as const;
const STATES = ["draft", "review", "done"] as const;

/** The structures of the suite: `fa` has a field of every comparable kind, `fb` shares some ids with other types. */
export const FILTER_STRUCTURES: readonly StructureDefinition[] = [
  {
    name: "fa", fields: [
      { id: "t", type: "text" }, { id: "lt", type: "longtext" }, { id: "h", type: "htmltext" }, { id: "n", type: "int" },
      { id: "x", type: "double" }, { id: "dt", type: "date" }, { id: "ts", type: "timestamp" }, { id: "tm", type: "time" },
      { id: "e", type: "enum", enum: "cats" }, { id: "ref", type: "docid" }, { id: "who", type: "account" },
      { id: "tags", type: "text", multiple: true }, { id: "nums", type: "int", multiple: true },
      { id: "rows", type: "array", fields: [{ id: "col", type: "text" }, { id: "cm", type: "enum", enum: "cats", multiple: true }] },
      { id: "f", type: "file" },
    ],
  },
  { name: "fb", fields: [{ id: "t", type: "text" }, { id: "n", type: "int" }, { id: "dt", type: "text" }] },
];

/** A small seeded generator: the same suite on every store and every run. */
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

export function elementFilterContract(name: string, open: () => Store | Promise<Store>): void {
  describe(`Element filter contract: ${name}`, () => {
    let store: Store;
    let rows: ElementRevision[] = [];
    const next = random(20261127);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const maybe = <T>(value: () => T, empty: FieldValue = null): T | FieldValue => (next() < 0.2 ? empty : value());

    beforeAll(async () => {
      store = await open();
      rows = await store.transaction(async (tx) => {
        for (const structure of FILTER_STRUCTURES) await tx.catalog.saveStructure(structure);
        const made: ElementRevision[] = [];
        for (let i = 0; i < 160; i++) {
          const inFa = i % 4 !== 3;
          const values: Record<string, FieldValue> = inFa
            ? {
              t: maybe(() => pick(TEXTS), pick([null, ""])), lt: maybe(() => `${pick(TEXTS)} and ${pick(TEXTS)}`), h: maybe(() => pick(HTML)),
              n: maybe(() => Math.floor(next() * 21) - 10), x: maybe(() => Math.round(next() * 2000) / 100 - 5), dt: maybe(() => pick(DATES)),
              ts: maybe(() => pick(STAMPS)), tm: maybe(() => pick(TIMES)), e: maybe(() => pick(KEYS)),
              ref: maybe(() => 1 + Math.floor(next() * 5)), who: maybe(() => pick(LOGINS)),
              tags: next() < 0.3 ? [] : Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(TEXTS)),
              nums: next() < 0.3 ? [] : Array.from({ length: 1 + Math.floor(next() * 3) }, () => Math.floor(next() * 7)),
              col: next() < 0.3 ? [] : Array.from({ length: 1 + Math.floor(next() * 2) }, () => (next() < 0.2 ? null : pick(TEXTS))),
              cm: next() < 0.3 ? [] : Array.from({ length: 1 + Math.floor(next() * 2) }, () => (next() < 0.3 ? [] : [pick(KEYS), pick(KEYS)])),
              f: maybe(() => "image/png|12|a.png"),
            }
            : { t: maybe(() => pick(TEXTS)), n: maybe(() => Math.floor(next() * 21) - 10), dt: maybe(() => pick(TEXTS)) };
          const revision: NewRevision = draft({
            structure: inFa ? "fa" : "fb", title: pick(TEXTS), name: next() < 0.5 ? null : `N_${i}`, owner: 1 + Math.floor(next() * 3),
            state: next() < 0.25 ? null : pick(STATES), values, createdAt: date(1 + (i % 40)), modifiedAt: date(1 + ((i * 7) % 50)),
            revision: i % 5, status: i % 9 === 0 ? "deleted" : "alive",
          });
          made.push(await tx.elements.insert(revision));
        }
        return made;
      });
    });
    afterAll(() => store.close());

    const listed = async (filter: FilterNode, query: Partial<ElementQuery> = {}) =>
      (await store.elements.list({ status: "alive", orderBy: [{ kind: "property", key: "id", direction: "asc" }], limit: null, offset: 0, filter, ...query }))
        .map((row) => row.id);
    const expected = (filter: FilterNode, status: "alive" | "deleted" = "alive", structures?: readonly string[]) =>
      rows.filter((row) => row.status === status && (!structures || structures.includes(row.structure)) && matchesFilter(filter, row)).map((row) => row.id);
    const field = (id: string, operator: FilterOperator, values: readonly FilterValue[], extra: Partial<FieldCondition> = {}): FieldCondition => ({
      kind: "field", field: id, comparison: "text", shape: "single", operator, values, indexed: false, ...extra,
    });
    const property = (key: FilterProperty, operator: FilterOperator, values: readonly FilterValue[], comparison: "text" | "number" = "text"): PropertyCondition => ({
      kind: "property", property: key, comparison, operator, values,
    });

    it("gives what filter-match.ts accepts, for chosen conditions", async () => {
      const cases: FilterNode[] = [
        property("state", "eq", ["review"]),
        property("state", "isempty", []),
        property("title", "contains", [foldCase("ÉT")]),
        property("title", "startswith", ["ω"]),
        property("owner", "in", [1, 3], "number"),
        property("cdate", "gte", ["2024-01-20T00:00:00.000Z"]),
        property("name", "isnotempty", []),
        field("t", "eq", ["alpha"], { structures: ["fa"] }),
        field("t", "neq", ["alpha"]),
        field("t", "doesnotcontain", ["a"]),
        field("h", "contains", ["alpha beta"], { comparison: "html" }),
        field("h", "isempty", [], { comparison: "html" }),
        field("n", "gte", [0], { comparison: "number", indexed: true }),
        field("x", "lt", [1.5], { comparison: "number", indexed: true }),
        field("dt", "lte", ["2024-01-01"], { structures: ["fa"], indexed: true }),
        field("ts", "gte", ["2024-01-01T00:00:00"], { indexed: true }),
        field("e", "in", ["ai", "art"], { indexed: true }),
        field("ref", "eq", [3], { comparison: "number", indexed: true }),
        field("tags", "eq", ["b"], { shape: "list" }),
        field("tags", "neq", ["b"], { shape: "list" }),
        field("tags", "isempty", [], { shape: "list" }),
        field("nums", "gt", [4], { shape: "list", comparison: "number" }),
        field("col", "contains", [foldCase("É")], { shape: "list" }),
        field("cm", "eq", ["space"], { shape: "nested" }),
        field("cm", "isempty", [], { shape: "nested" }),
        field("f", "isnotempty", []),
        { kind: "group", logic: "and", nodes: [] },
        { kind: "group", logic: "or", nodes: [] },
        { kind: "group", logic: "or", nodes: [property("state", "eq", ["done"]), field("e", "eq", ["space"], { indexed: true })] },
        { kind: "group", logic: "and", nodes: [property("revision", "lt", [3], "number"), { kind: "group", logic: "or", nodes: [field("t", "isempty", []), property("initid", "gt", [100], "number")] }] },
      ];
      for (const filter of cases) expect(await listed(filter), JSON.stringify(filter)).toEqual(expected(filter));
    });

    it("filters the trash, one structure's list and a page alike", async () => {
      const filter = field("n", "lt", [3], { comparison: "number", indexed: true });
      expect(await listed(filter, { status: "deleted" })).toEqual(expected(filter, "deleted"));
      expect(await listed(filter, { structures: ["fa"] })).toEqual(expected(filter, "alive", ["fa"]));
      const all = expected(filter);
      expect(await listed(filter, { limit: 5, offset: 3, orderBy: [{ kind: "property", key: "id", direction: "asc" }] })).toEqual(all.slice(3, 8));
      const ordered = await store.elements.list({ status: "alive", filter, orderBy: [{ kind: "field", key: "n", direction: "desc" }, { kind: "property", key: "id", direction: "desc" }], limit: 4, offset: 0, structures: ["fa"] });
      expect(ordered.every((row) => matchesFilter(filter, row))).toBe(true);
      expect(ordered.map((row) => row.values.n)).toEqual([...ordered.map((row) => row.values.n)].sort((a, b) => Number(b) - Number(a)));
    });

    it("counts what it lists", async () => {
      const filter = { kind: "group", logic: "or", nodes: [property("state", "eq", ["draft"]), field("tags", "eq", ["alpha"], { shape: "list" })] } as const;
      expect(await store.elements.count({ status: "alive", filter })).toBe(expected(filter).length);
      expect(await store.elements.count({ status: "alive" })).toBe(expected({ kind: "group", logic: "and", nodes: [] }).length);
      expect(await store.elements.count({ status: "alive", structures: ["fb"], filter })).toBe(expected(filter, "alive", ["fb"]).length);
    });

    it("counts up to a limit when given one: the smaller of the count and the limit", async () => {
      const indexed = field("n", "lt", [3], { comparison: "number", indexed: true });
      const either = { kind: "group", logic: "or", nodes: [property("state", "eq", ["draft"]), field("tags", "eq", ["alpha"], { shape: "list" })] } as const;
      for (const filter of [undefined, indexed, either]) {
        const all = filter ? expected(filter).length : expected({ kind: "group", logic: "and", nodes: [] }).length;
        expect(all).toBeGreaterThan(2);
        const counted = (limit: number) => store.elements.count({ status: "alive", countUpTo: limit, ...(filter ? { filter } : {}) });
        expect(await counted(2)).toBe(2);
        expect(await counted(all + 5)).toBe(all);
        expect(await store.elements.count({ status: "alive", countUpTo: 1, readable: { structures: ["fb"], profiles: [] }, ...(filter ? { filter } : {}) }))
          .toBe(Math.min(1, filter ? expected(filter, "alive", ["fb"]).length : expected({ kind: "group", logic: "and", nodes: [] }, "alive", ["fb"]).length));
      }
    });

    it("keeps rights on a filtered list: the caller's readable filter still applies", async () => {
      const filter = property("state", "isnotempty", []);
      const readable = { structures: ["fb"], profiles: [] };
      expect(await listed(filter, { readable })).toEqual(expected(filter, "alive", ["fb"]));
      expect(await store.elements.count({ status: "alive", filter, readable })).toBe(expected(filter, "alive", ["fb"]).length);
    });

    it("gives what filter-match.ts accepts, for random filters", async () => {
      const gen = random(42);
      const choose = <T>(items: readonly T[]): T => items[Math.floor(gen() * items.length)]!;
      const operators = (kind: "text" | "ordered" | "keyed" | "presence"): readonly FilterOperator[] => ({
        text: ["eq", "neq", "lt", "lte", "gt", "gte", "in", "startswith", "contains", "doesnotcontain", "isempty", "isnotempty"] as const,
        ordered: ["eq", "neq", "lt", "lte", "gt", "gte", "in", "isempty", "isnotempty"] as const,
        keyed: ["eq", "neq", "in", "isempty", "isnotempty"] as const,
        presence: ["isempty", "isnotempty"] as const,
      })[kind];
      const valuesFor = (operator: FilterOperator, pool: readonly FilterValue[], fold: boolean): FilterValue[] => {
        if (operator === "isempty" || operator === "isnotempty") return [];
        if (operator === "in") return Array.from({ length: 1 + Math.floor(gen() * 3) }, () => choose(pool));
        const value = choose(pool);
        if (!fold || typeof value !== "string") return [value];
        const folded = foldCase(operator === "contains" || operator === "doesnotcontain" ? [...value].slice(0, 1 + Math.floor(gen() * 3)).join("") : value);
        return operator === "startswith" || operator === "contains" || operator === "doesnotcontain" ? [folded] : [value];
      };
      type Spec = readonly [id: string, kind: "text" | "ordered" | "keyed" | "presence", pool: readonly FilterValue[], extra: Partial<FieldCondition>];
      const fields: readonly Spec[] = [
        ["t", "text", [...TEXTS, "zz"], {}], ["t", "text", TEXTS, { structures: ["fa"] }], ["lt", "text", TEXTS, {}],
        ["h", "text", [...HTML.map(htmlText), "alpha"], { comparison: "html" }], ["n", "ordered", [-10, -3, 0, 4, 10], { comparison: "number", indexed: true }],
        ["x", "ordered", [-5, 0, 1.25, 14.99], { comparison: "number", indexed: true }], ["dt", "ordered", DATES, { structures: ["fa"], indexed: true }],
        ["ts", "ordered", [...STAMPS], { indexed: true }], ["tm", "ordered", TIMES, { indexed: true }], ["e", "keyed", KEYS, { indexed: true }],
        ["ref", "keyed", [1, 2, 3, 5], { comparison: "number", indexed: true }], ["who", "keyed", LOGINS, { indexed: true }],
        ["tags", "text", TEXTS, { shape: "list" }], ["nums", "ordered", [0, 3, 6], { shape: "list", comparison: "number" }],
        ["col", "text", TEXTS, { shape: "list" }], ["cm", "keyed", KEYS, { shape: "nested" }], ["f", "presence", [], {}],
      ];
      const properties: readonly (readonly [FilterProperty, "text" | "ordered" | "keyed", readonly FilterValue[], "text" | "number"])[] = [
        ["title", "text", TEXTS, "text"], ["name", "text", ["N_1", "N_50", "N_9"], "text"], ["state", "text", STATES, "text"],
        ["fromname", "keyed", ["fa", "fb"], "text"], ["initid", "ordered", [rows[10]!.initid, rows[80]!.initid], "number"],
        ["revision", "ordered", [0, 2, 4], "number"], ["owner", "keyed", [1, 2, 3, 9], "number"],
        ["cdate", "ordered", [date(5), date(20), "2024-01-10T00:00:00.000Z"], "text"], ["mdate", "ordered", [date(33), date(1)], "text"],
      ];
      const condition = (): FilterNode => {
        if (gen() < 0.35) {
          const [key, kind, pool, comparison] = choose(properties);
          const operator = choose(operators(kind).filter((op) => key !== "fromname" && key !== "owner" || ["eq", "neq", "in"].includes(op)));
          return property(key, operator, valuesFor(operator, pool, kind === "text"), comparison);
        }
        const [id, kind, pool, extra] = choose(fields);
        const operator = choose(operators(kind));
        return field(id, operator, valuesFor(operator, pool, kind === "text"), extra);
      };
      const node = (depth: number): FilterNode => {
        if (depth >= 3 || gen() < 0.55) return condition();
        return { kind: "group", logic: choose(["and", "or"] as const), nodes: Array.from({ length: Math.floor(gen() * 4) }, () => node(depth + 1)) };
      };
      for (let i = 0; i < 250; i++) {
        const filter = node(0);
        expect(await listed(filter), JSON.stringify(filter)).toEqual(expected(filter));
      }
    });
  });
}
