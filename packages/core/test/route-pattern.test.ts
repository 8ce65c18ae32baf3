import { describe, expect, it } from "vitest";
import { compileRoutePattern, normaliseTokenRoutes, parseTokenRoute, routesAllow } from "./internals.ts";

// pattern, path, expected: the syntax of original-notes.md 2.13 plus bundle.md's `*`.
const table: Array<[string, string, boolean]> = [
  ["/api/v2/smart-elements/{docid}.json", "/api/v2/smart-elements/1234.json", true],
  ["/api/v2/smart-elements/{docid}.json", "/api/v2/smart-elements/1234", false],
  ["/api/v2/smart-elements/{docid}.json", "/api/v2/smart-elements/12/34.json", false],
  ["/api/v2/smart-elements/{docid}[.json]", "/api/v2/smart-elements/1234", true],
  ["/api/v2/smart-elements/{docid}[.json]", "/api/v2/smart-elements/1234.json", true],
  ["/api/v2/smart-elements/{docid:\\d+}", "/api/v2/smart-elements/1234", true],
  ["/api/v2/smart-elements/{docid:\\d+}", "/api/v2/smart-elements/ART_HELLO", false],
  ["/api/v2/smart-elements/{docid:\\d{2}}", "/api/v2/smart-elements/12", true],
  ["/api/v2/smart-elements/{docid:\\d{2}}", "/api/v2/smart-elements/123", false],
  ["/a[/b[/c]]", "/a", true],
  ["/a[/b[/c]]", "/a/b", true],
  ["/a[/b[/c]]", "/a/b/c", true],
  ["/a[/b[/c]]", "/a/c", false],
  ["/api/v2/smart-elements/*", "/api/v2/smart-elements/", true],
  ["/api/v2/smart-elements/*", "/api/v2/smart-elements/12/revisions/1.json", true],
  ["/api/v2/smart-elements/*", "/api/v2/trash/12", false],
  ["/api/v2/*/history/", "/api/v2/smart-elements/12/history/", true],
  ["*", "/anything/at/all", true],
  ["/api/v2/smart-elements/", "/api/v2/smart-elements/", true],
  ["/api/v2/smart-elements/", "/api/v2/smart-elements", false],
  ["/api/v2/smart-elements/", "/api/v2/smart-elements/x", false],
  ["/api/v2/a.b", "/api/v2/aXb", false],
  ["/api/v2/(x)", "/api/v2/(x)", true],
];

describe("route patterns", () => {
  it.each(table)("%s against %s is %s", (pattern, path, expected) => {
    expect(compileRoutePattern(pattern).matches(path)).toBe(expected);
  });

  it.each([
    ["/a[/b]/c", /only occur at the end/],
    ["/a[/b", /numbers of '\[' and '\]'/],
    ["/a/{id", /never closed/],
    ["/a/{1bad}", /not a placeholder/],
    ["/a/{id:(}", /cannot be parsed/],
    ["/a[]", /empty/],
  ])("refuses %s with ROUTER0109", (pattern, why) => {
    expect(() => compileRoutePattern(pattern)).toThrow(why);
    expect(() => compileRoutePattern(pattern)).toThrow(expect.objectContaining({ code: "ROUTER0109" }));
  });
});

describe("token routes", () => {
  it("parses METHODS PATTERN, and a bare pattern allows every method", () => {
    expect(parseTokenRoute("GET,put /api/v2/*")).toEqual({ pattern: "/api/v2/*", methods: ["GET", "put"] });
    expect(parseTokenRoute("* /api/v2/*")).toEqual({ pattern: "/api/v2/*", methods: ["*"] });
    expect(parseTokenRoute("/api/v2/trash/")).toEqual({ pattern: "/api/v2/trash/", methods: ["*"] });
  });

  it("normalises routes and refuses bad ones with the original's codes", () => {
    expect(normaliseTokenRoutes(["get /api/v2/*", { pattern: "/x/{id}", methods: ["delete"] }]))
      .toEqual([{ pattern: "/api/v2/*", methods: ["GET"] }, { pattern: "/x/{id}", methods: ["DELETE"] }]);
    const code = (routes: unknown) => {
      try {
        normaliseTokenRoutes(routes as never);
      } catch (error) {
        return (error as { code: string }).code;
      }
      return "none";
    };
    expect(code([])).toBe("ROUTER0105");
    expect(code([{ methods: ["GET"] }])).toBe("ROUTER0101");
    expect(code([{ pattern: "/", methods: ["GET"] }])).toBe("ROUTER0102");
    expect(code([{ pattern: "/api", methods: [] }])).toBe("ROUTER0103");
    expect(code([{ pattern: "/api", methods: ["FETCH"] }])).toBe("ROUTER0104");
    expect(code([{ pattern: "/api[", methods: ["GET"] }])).toBe("ROUTER0109");
    expect(code(["GET api/v2/*"])).toBe("ROUTER0109");
    expect(() => normaliseTokenRoutes(["GET api/v2/*"])).toThrow('"api/v2/*" cannot be parsed: a pattern starts with /');
  });

  const routes = normaliseTokenRoutes(["GET,PUT /api/v2/smart-elements/{id}[.json]", "DELETE /api/v2/trash/*", "* /api/v2/enumerates/*"]);
  it.each([
    ["GET", "/api/v2/smart-elements/12.json", true],
    ["PUT", "/api/v2/smart-elements/12", true],
    ["get", "/api/v2/smart-elements/12", true],
    ["DELETE", "/api/v2/smart-elements/12", false],
    ["POST", "/api/v2/smart-elements/12", false],
    ["DELETE", "/api/v2/trash/12", true],
    ["GET", "/api/v2/trash/12", false],
    ["POST", "/api/v2/enumerates/CATEGORIES", true],
    ["GET", "/api/v2/smart-%65lements/12", true],
    ["GET", "/api/v2/smart-elements/12/revisions/", false],
    // Every route answers with and without its trailing slash: so do the patterns.
    ["DELETE", "/api/v2/trash", true],
    ["DELETE", "/api/v2/trash/", true],
    ["DELETE", "/api/v2/trashcan", false],
    ["GET", "/api/v2/smart-elements/12/", true],
    ["GET", "/api/v2/smart-elements/", false],
    ["GET", "/api/v2/enumerates", true],
    ["GET", "/api/v2", false],
  ])("%s %s is %s", (method, path, expected) => {
    expect(routesAllow(routes, method, path)).toBe(expected);
  });
});
