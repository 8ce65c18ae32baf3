import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  analyzerFor, compileRoutePattern, normaliseTokenRoutes, parseImageSize, parseSearchQuery, parseTokenRoute, planResize, routesAllow,
} from "@lineage/core";
import { hostileJson, hostileString, parsedOrRefused } from "../src/testing/hostile-arbitraries.ts";

/*
 * The same property for the parsers of images (sizes, issue 6), full-text search (queries, issue 7)
 * and access tokens (route patterns, issue 3): a value or a 4xx LineageError, never a crash or a hang.
 */

const RUNS = { numRuns: 3000 };
const sizeText = fc.oneof(
  hostileString(20),
  fc.tuple(fc.oneof(fc.nat(), fc.constantFrom(0, 999999999, 1e12)), fc.oneof(fc.nat(), fc.constant(0)), fc.constantFrom("", "c", "f", "s", "x", "cc"), fc.boolean())
    .map(([w, h, mode, box]) => (box ? `${w}x${h}${mode}` : `x${w}`)),
);

describe("image sizes (issue 6)", () => {
  it("a size is parsed and planned within the original, or refused with a 400", () => {
    fc.assert(fc.property(sizeText, fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 10_000 }), (text, width, height) => {
      const size = parsedOrRefused(() => parseImageSize(text, "photo.png"));
      if (size) parsedOrRefused(() => planResize(size, { width, height }));
    }), RUNS);
  });
});

describe("search queries (issue 7)", () => {
  it("a query is parsed or refused with a 400, in every analyzer", () => {
    const query = fc.oneof(hostileString(80), fc.array(fc.constantFrom("or", "OR", "-", '"', "*", "-\"", "galaxy", "the", " ", "é", "\u0000", "x*"), { maxLength: 30 }).map((parts) => parts.join(" ")),
      fc.string({ maxLength: 1200 }));
    fc.assert(fc.property(query, fc.constantFrom("english", "french", "simple", undefined, "klingon"), (q, stem) => {
      parsedOrRefused(() => parseSearchQuery(q, analyzerFor(stem)));
    }), RUNS);
  });
});

describe("token route patterns (issue 3)", () => {
  it("a pattern compiles or is refused with a 400, and matching never throws or hangs", () => {
    const pattern = fc.oneof(hostileString(40), fc.array(fc.constantFrom("/api/v2/", "{docid}", "{id:\\d+}", "{x:(a+)+$}", "[", "]", "[/b", ".json", "{", "}", "{:}", "*", "(?<a>", "\\"), { maxLength: 8 }).map((p) => p.join("")));
    fc.assert(fc.property(pattern, hostileString(60), (source, path) => {
      const compiled = parsedOrRefused(() => compileRoutePattern(source));
      const started = performance.now();
      if (compiled) expect(typeof compiled.matches === "function" ? typeof compiled.matches(path) : "boolean").toBe("boolean");
      expect(performance.now() - started).toBeLessThan(1000);
    }), RUNS);
  });

  it("token routes (strings or objects) normalise or are refused, and routesAllow never throws", () => {
    const route = fc.oneof(hostileString(40), fc.record({ pattern: fc.oneof(hostileString(30), hostileJson), methods: fc.oneof(fc.array(fc.constantFrom("GET", "*", "put", "FLY", ""), { maxLength: 3 }), hostileJson) }, { requiredKeys: [] }));
    fc.assert(fc.property(fc.array(route, { maxLength: 3 }), fc.constantFrom("GET", "PUT", "POST", "x"), hostileString(40), (routes, method, path) => {
      const parsed = parsedOrRefused(() => normaliseTokenRoutes(routes as never));
      if (parsed) expect(typeof routesAllow(parsed, method, path)).toBe("boolean");
      parsedOrRefused(() => parseTokenRoute(typeof routes[0] === "string" ? routes[0] : "GET /x"));
    }), RUNS);
  });
});
