import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_SLICE, parseEnumerateQuery, parseFieldsSelection, parseOffset, parseOrderBy, parseSlice, readStateChangeBody,
  type SmartStructure,
} from "@lineage/core";
import { seededPlatform } from "@lineage/core/testing";
import { createMemoryStore } from "@lineage/core/testing";
import { decodeJsonAttributes } from "../src/request-body.ts";
import { acceptsJson, splitFormat } from "../src/resource-name.ts";
import { redactedPath } from "../src/request-log.ts";
import { requestIdOf } from "../src/request-id.ts";
import { hostileJson, hostileString, parsedOrRefused } from "../src/testing/hostile-arbitraries.ts";

/*
 * Property tests of every query and body parser, without I/O: whatever a client sends,
 * a parser returns a valid value or refuses with a 4xx LineageError, never anything else.
 */

const RUNS = { numRuns: 3000 };
const seed = await seededPlatform(createMemoryStore());
const admin = await seed.principal("admin");
const article = (await seed.platform.structures.definitions()).structure("ARTICLE") as SmartStructure;

describe("list parameters", () => {
  it("slice is a page size within the cap, ALL, or a 400", () => {
    fc.assert(fc.property(hostileString(), fc.integer({ min: 1, max: 50_000 }), (raw, cap) => {
      const slice = parsedOrRefused(() => parseSlice(raw, 10, cap));
      if (slice !== undefined && slice !== "ALL") expect(Number.isSafeInteger(slice) && slice >= 1 && slice <= cap).toBe(true);
    }), RUNS);
    expect(parseSlice(String(MAX_SLICE), 10)).toBe(MAX_SLICE);
    expect(() => parseSlice(String(MAX_SLICE + 1), 10)).toThrow(expect.objectContaining({ code: "ROUTES0139", userMessage: expect.stringContaining(`at most ${MAX_SLICE}`) }));
  });

  it("offset is a safe non-negative integer or a 400", () => {
    fc.assert(fc.property(fc.oneof(hostileString(), fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String)), (raw) => {
      const offset = parsedOrRefused(() => parseOffset(raw));
      if (offset !== undefined) expect(Number.isSafeInteger(offset) && offset >= 0).toBe(true);
    }), RUNS);
  });

  it("orderBy gives known keys and directions, or a 400", () => {
    fc.assert(fc.property(hostileString(60), fc.boolean(), (raw, withStructure) => {
      const terms = parsedOrRefused(() => parseOrderBy(raw, "title:asc", withStructure ? article : undefined));
      for (const term of terms ?? []) expect(["asc", "desc"]).toContain(term.direction);
      if (terms) expect(terms.some((term) => term.key === "id")).toBe(true);
    }), RUNS);
  });

  it("fields gives a selection or a 400, in both scopes", () => {
    fc.assert(fc.property(hostileString(80), fc.constantFrom("one", "list") as fc.Arbitrary<"one" | "list">, (raw, scope) => {
      parsedOrRefused(() => parseFieldsSelection(raw, scope));
    }), RUNS);
  });
});

describe("enumerate filters", () => {
  it("keyword, operator and orderBy give parameters or a 400", async () => {
    const query = fc.record({ keyword: fc.option(hostileString(), { nil: undefined }), operator: fc.option(hostileString(12), { nil: undefined }), orderBy: fc.option(hostileString(12), { nil: undefined }) });
    fc.assert(fc.property(query, (raw) => {
      const parsed = parsedOrRefused(() => parseEnumerateQuery(raw));
      if (parsed) expect(["startswith", "contains"]).toContain(parsed.operator);
    }), RUNS);
    await fc.assert(fc.asyncProperty(hostileString(), fc.constantFrom("startswith", "contains"), fc.constantFrom("none", "key", "label"), async (keyword, operator, orderBy) => {
      const data = await seed.platform.enumerates.read(admin, { enumerate: "CATEGORIES" }, { keyword, operator, orderBy });
      expect(Array.isArray(data.enumItems)).toBe(true);
    }), { numRuns: 500 });
  });
});

describe("bodies", () => {
  it("a PUT body in JSON gives field values or a 400", () => {
    const wrapped = fc.oneof(hostileJson, hostileJson.map((attributes) => ({ document: { attributes } })),
      fc.dictionary(fc.constantFrom("ar_title", "ar_words", "ar_links", "__proto__", "x"), hostileJson.map((value) => ({ value }))).map((attributes) => ({ document: { attributes } })));
    fc.assert(fc.property(wrapped, (body) => {
      parsedOrRefused(() => decodeJsonAttributes(body));
    }), RUNS);
  });

  it("a lifecycle POST body gives a comment and parameters or a 400", () => {
    const body = fc.oneof(hostileJson, fc.record({ comment: hostileJson, parameters: hostileJson }, { requiredKeys: [] }));
    fc.assert(fc.property(body, (raw) => {
      const parsed = parsedOrRefused(() => readStateChangeBody(raw));
      if (parsed?.comment !== undefined) expect(typeof parsed.comment).toBe("string");
    }), RUNS);
  });

  it("a bundle document is imported or refused with BUNDLE0001, never half-imported", async () => {
    const demo = JSON.parse((await import("node:fs")).readFileSync([import.meta.dirname, "..", "..", "..", "examples/demo/bundle.json"].join("/"), "utf8"));
    /** The demo bundle with one value somewhere replaced by a hostile one. */
    const mutated = fc.tuple(fc.nat(), hostileJson).map(([pick, replacement]) => {
      const copy = structuredClone(demo);
      const holders: Array<[Record<string, unknown>, string]> = [];
      const walk = (node: unknown) => {
        if (node && typeof node === "object") for (const key of Object.keys(node)) {
          holders.push([node as Record<string, unknown>, key]);
          walk((node as Record<string, unknown>)[key]);
        }
      };
      walk(copy);
      const [holder, key] = holders[pick % holders.length] ?? [copy, "x"];
      holder[key] = replacement;
      return copy;
    });
    await fc.assert(fc.asyncProperty(fc.oneof(hostileJson, mutated), async (bundle) => {
      const store = createMemoryStore();
      const platform = (await seededPlatform(store)).platform;
      const before = (await store.elements.list({ status: "alive", orderBy: [], limit: null, offset: 0 })).length;
      try {
        await platform.bundles.import(bundle, { readFile: () => undefined });
      } catch (error) {
        expect((error as { code?: string }).code).toBe("BUNDLE0001");
        expect(await store.elements.list({ status: "alive", orderBy: [], limit: null, offset: 0 })).toHaveLength(before);
      }
    }), { numRuns: 150 });
  });
});

describe("HTTP details", () => {
  it("path segments, Accept headers and request ids never throw anything but a 4xx", () => {
    fc.assert(fc.property(hostileString(), (raw) => {
      parsedOrRefused(() => splitFormat(raw, ["json", "xml"]));
      expect(typeof acceptsJson(raw)).toBe("boolean");
      expect(requestIdOf(raw)).toMatch(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/);
    }), RUNS);
  });

  it("a logged path never holds a credential from the query", () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9]{12,40}$/);
    const name = fc.constantFrom("ank-authorization", "ANK-AUTHORIZATION", "%61nk-authorization", "password", "token", "access_token", "privateid", "session", "apikey");
    fc.assert(fc.property(hostileString(), name, secret, hostileString(), (path, key, value, other) => {
      const wellFormed = (text: string) => encodeURIComponent(text.replace(/\p{Surrogate}/gu, "?"));
      const url = `http://h/api/v2/${wellFormed(path)}?a=${wellFormed(other)}&${key}=${value}&b=1`;
      const logged = redactedPath(url);
      expect(logged).not.toContain(value);
      expect(logged.length).toBeLessThanOrEqual(2049);
    }), RUNS);
  });
});
