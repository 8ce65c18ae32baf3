import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { LineageError, readFilterInput, type FilterOption } from "./internals.ts";
import { seededPlatform } from "../src/testing/index.ts";

/** The code and message a promise is refused with. */
async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LineageError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("not refused");
}

describe("list filters", () => {
  const titles = (list: { documents: { properties?: Record<string, unknown> }[] }) => list.documents.map((d) => d.properties?.title);

  it("narrows a structure's list, echoes the filter as applied and counts it", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    const list = await platform.elements.list(admin, {
      family: "ARTICLE", count: true,
      filter: { logic: "and", filters: [{ field: "ar_category", operator: "in", value: ["tech", "food"] }, { field: "ar_words", operator: "gte", value: "100" }] },
    });
    expect(titles(list)).toEqual(["Hello"]);
    expect(list.requestParameters).toMatchObject({
      total: 1,
      filter: { logic: "and", filters: [{ field: "ar_category", operator: "in", value: ["tech", "food"] }, { field: "ar_words", operator: "gte", value: 100 }] },
    });
  });

  it("takes properties: state, owner by login or @me, dates, the structure's name", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    const list = (filter: unknown) => platform.elements.list(admin, { filter: JSON.stringify(filter), slice: "all" }).then(titles);
    expect(await list({ field: "state", operator: "eq", value: "draft" })).toEqual(["Apple pie", "Hello", "Zebra crossing"]);
    expect(await list({ field: "owner", operator: "eq", value: "@me" })).toHaveLength(4);
    expect(await list({ field: "owner", operator: "eq", value: "bob" })).toEqual([]);
    expect(await list({ field: "owner", operator: "eq", value: "nobody" })).toEqual([]);
    expect(await list({ field: "fromname", operator: "eq", value: "AUTHOR" })).toEqual(["Ada Lovelace"]);
    expect(await list({ field: "cdate", operator: "gte", value: "2000-01-01" })).toHaveLength(4);
    expect(await list({ field: "title", operator: "contains", value: "ZEBRA" })).toEqual(["Zebra crossing"]);
  });

  it("compares docids by initid or logical name, html by its text, multiple values by any of them", async () => {
    const { platform, principal, author } = await seededPlatform();
    const admin = await principal("admin");
    const list = (filter: FilterOption) => platform.elements.list(admin, { family: "ARTICLE", filter, slice: "all" }).then(titles);
    expect(await list({ field: "ar_author", operator: "eq", value: "AUTHOR_ADA" })).toEqual(["Hello"]);
    expect(await list({ field: "ar_author", operator: "eq", value: author.initid })).toEqual(["Hello"]);
    expect(await list({ field: "ar_author", operator: "eq", value: "NO_SUCH_NAME" })).toEqual([]);
    expect(await list({ field: "ar_tags", operator: "eq", value: "ai" })).toEqual(["Hello"]);
    expect(await list({ field: "ar_tags", operator: "isempty" })).toEqual(["Apple pie", "Zebra crossing"]);
    expect(await list({ field: "ar_link_rank", operator: "gt", value: 1 })).toEqual(["Hello"]);
    expect(await list({ field: "ar_category", operator: "neq", value: "tech" })).toEqual(["Apple pie", "Zebra crossing"]);
  });

  it("on every structure's list, holds a field condition only for elements whose structure has the field", async () => {
    const { platform, principal } = await seededPlatform();
    const list = await platform.elements.list(await principal("admin"), { filter: { field: "ar_category", operator: "isempty" }, slice: "all" });
    expect(titles(list)).toEqual(["Zebra crossing"]);
  });

  it("refuses what is not a filter with FILTER0001, naming what is wrong", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    const list = (filter: unknown) => refusal(platform.elements.list(admin, { filter: filter as FilterOption }));
    expect(await list("{not json")).toMatchObject({ code: "FILTER0001", message: "Invalid filter: the filter is not JSON" });
    expect(await list("[]")).toMatchObject({ code: "FILTER0001" });
    expect((await list({ field: "state", operator: "like", value: "x" })).message).toContain('filter.operator "like" is not one of eq, neq');
    expect((await list({ logic: "xor", filters: [] })).message).toContain('filter.logic must be "and" or "or"');
    expect((await list({ logic: "and", filters: [{ field: "state" }] })).message).toContain("filter.filters[0].operator is missing");
    let deep: unknown = { field: "state", operator: "isempty" };
    for (let i = 0; i < 9; i++) deep = { logic: "and", filters: [deep] };
    expect((await list(deep)).message).toContain("at most 8 levels");
    const many = { logic: "or", filters: Array.from({ length: 65 }, () => ({ field: "state", operator: "isempty" })) };
    expect((await list(many)).message).toContain("at most 64 conditions");
  });

  it("reads a field the caller may not see as unknown, with the message of a field that does not exist (FILTER0002)", async () => {
    const { platform, principal } = await seededPlatform();
    const alice = await principal("alice");
    const hidden = await refusal(platform.elements.list(alice, { family: "ARTICLE", filter: { field: "ar_secret", operator: "eq", value: "hidden" } }));
    const missing = await refusal(platform.elements.list(alice, { family: "ARTICLE", filter: { field: "ar_nothing", operator: "eq", value: "hidden" } }));
    expect(hidden).toEqual({ code: "FILTER0002", message: 'Filter field "ar_secret" is not known for this list' });
    expect(missing.message.replace("ar_nothing", "ar_secret")).toBe(hidden.message);
    expect((await refusal(platform.elements.list(alice, { family: "AUTHOR", filter: { field: "ar_title", operator: "isempty" } }))).code).toBe("FILTER0002");
  });

  it("refuses an operator the field's type does not take (FILTER0003) and a value it cannot hold (FILTER0004)", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    const code = (filter: unknown) => refusal(platform.elements.list(admin, { family: "ARTICLE", filter: filter as FilterOption })).then((r) => r.code);
    expect(await code({ field: "ar_words", operator: "contains", value: "1" })).toBe("FILTER0003");
    expect(await code({ field: "ar_category", operator: "lt", value: "tech" })).toBe("FILTER0003");
    expect(await code({ field: "ar_links", operator: "isempty" })).toBe("FILTER0003");
    expect(await code({ field: "fromname", operator: "contains", value: "ART" })).toBe("FILTER0003");
    expect(await code({ field: "ar_words", operator: "eq", value: "many" })).toBe("FILTER0004");
    expect(await code({ field: "ar_date", operator: "gte", value: "2024-13-01" })).toBe("FILTER0004");
    expect(await code({ field: "ar_category", operator: "eq", value: "nope" })).toBe("FILTER0004");
    expect(await code({ field: "ar_category", operator: "in", value: "tech" })).toBe("FILTER0004");
    expect(await code({ field: "ar_category", operator: "in", value: [] })).toBe("FILTER0004");
    expect(await code({ field: "ar_category", operator: "isempty", value: "tech" })).toBe("FILTER0004");
    expect(await code({ field: "ar_title", operator: "eq", value: { nested: true } })).toBe("FILTER0004");
    expect(await code({ field: "revision", operator: "eq", value: 1.5 })).toBe("FILTER0004");
  });

  it("never fails on any JSON but with a FILTER000x refusal (property)", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    const fields = fc.constantFrom("state", "title", "owner", "cdate", "ar_title", "ar_words", "ar_date", "ar_tags", "ar_author", "ar_links", "ar_secret", "nope", "");
    const operators = fc.constantFrom("eq", "neq", "lt", "gte", "in", "contains", "isempty", "like", 3);
    const condition = fc.record({ field: fields, operator: operators, value: fc.oneof(fc.jsonValue(), fc.constant("@me"), fc.constant("2026-03-04")) }, { requiredKeys: ["field", "operator"] });
    const filter = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, condition, tie("group"), fc.jsonValue()),
      group: fc.record({ logic: fc.constantFrom("and", "or", "nand"), filters: fc.array(tie("node"), { maxLength: 4 }) }),
    })).node;
    await fc.assert(fc.asyncProperty(filter, fc.boolean(), async (raw, family) => {
      try {
        await platform.elements.list(admin, { filter: JSON.stringify(raw), ...(family ? { family: "ARTICLE" } : {}) });
      } catch (error) {
        expect(error).toBeInstanceOf(LineageError);
        expect((error as LineageError).code).toMatch(/^FILTER000[1-4]$/);
      }
    }), { numRuns: 300 });
  });

  it("parses what it echoes: the echo of a filter is a filter", () => {
    expect(readFilterInput('{"logic":"and","filters":[{"field":"state","operator":"eq","value":"draft"}]}')).toEqual({
      logic: "and", filters: [{ field: "state", operator: "eq", value: "draft" }],
    });
  });
});
