import { LineageError } from "../errors/lineage-error.ts";
import { compileRoutePattern } from "./route-pattern.ts";

/** A route an access token may be used on: a path pattern and the methods allowed (`*` for any). */
export interface TokenRoute {
  readonly pattern: string;
  readonly methods: readonly string[];
}

/** What callers may give for a route: the object, or the text `METHODS PATTERN` (`GET,PUT /api/v2/*`). */
export type TokenRouteInput = TokenRoute | string;

const METHODS = new Set(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "*"]);

/**
 * Parses `METHODS PATTERN` (METHODS is `*` or a comma list); a bare pattern
 * allows every method, as the original does.
 * @example
 * parseTokenRoute("GET,PUT /api/v2/smart-elements/*") // { pattern: "/api/v2/smart-elements/*", methods: ["GET", "PUT"] }
 */
export function parseTokenRoute(text: string): TokenRoute {
  const match = /^\s*([A-Za-z*]+(?:\s*,\s*[A-Za-z*]+)*)\s+(\S.*?)\s*$/.exec(text);
  if (!match?.[1] || !match[2]) return { pattern: text.trim(), methods: ["*"] };
  return { pattern: match[2], methods: match[1].split(",").map((m) => m.trim()) };
}

/**
 * Checks and normalises the routes of a new token (ROUTER0101..0109): at least
 * one route, each with a parsable pattern of 2 characters or more starting
 * with `/` and a non-empty list of known methods (upper-cased).
 */
export function normaliseTokenRoutes(routes: readonly TokenRouteInput[]): TokenRoute[] {
  if (!Array.isArray(routes) || routes.length === 0) throw new LineageError("ROUTER0105");
  return routes.map((input, index) => {
    const route = typeof input === "string" ? parseTokenRoute(input) : input;
    if (typeof route?.pattern !== "string" || route.pattern === "") throw new LineageError("ROUTER0101", [index]);
    if (route.pattern.length < 2) throw new LineageError("ROUTER0102", [route.pattern]);
    // Paths always start with /: a pattern that does not could never match.
    if (!route.pattern.startsWith("/")) throw new LineageError("ROUTER0109", [route.pattern, "a pattern starts with /, as every path does"]);
    if (!Array.isArray(route.methods) || route.methods.length === 0) throw new LineageError("ROUTER0103", [route.pattern]);
    // A non-string method (an object from a JSON body) is refused by name, never converted: String() may throw on it.
    const methods = (route.methods as readonly unknown[]).map((method) => (typeof method === "string" ? method.toUpperCase() : `(${typeof method})`));
    const unknown = methods.find((method: string) => !METHODS.has(method));
    if (unknown) throw new LineageError("ROUTER0104", [route.pattern, unknown]);
    compileRoutePattern(route.pattern);
    return { pattern: route.pattern, methods };
  });
}

/**
 * True when one of the routes allows the method on the path. The path is
 * tried as received and percent-decoded, like the original's second attempt,
 * each with and without a trailing slash: every route answers both forms, so
 * `/api/v2/smart-elements/*` allows the collection `/api/v2/smart-elements` too.
 */
export function routesAllow(routes: readonly TokenRoute[], method: string, path: string): boolean {
  const upper = method.toUpperCase();
  const paths = [path];
  try {
    const decoded = decodeURIComponent(path);
    if (decoded !== path) paths.push(decoded);
  } catch {
    // A malformed escape can only match as received.
  }
  const candidates = paths.flatMap((candidate) => [candidate, otherSlashForm(candidate)].filter((form) => form !== undefined));
  return routes.some((route) =>
    (route.methods.includes("*") || route.methods.includes(upper)) &&
    candidates.some((candidate) => compiledPattern(route.pattern).matches(candidate)));
}

/** The same path with a trailing slash added or removed; none for the root. */
function otherSlashForm(path: string): string | undefined {
  if (path === "/" || path === "") return undefined;
  return path.endsWith("/") ? path.slice(0, -1) : `${path}/`;
}

// Tokens are checked on every request they carry: compile each pattern once (bounded, patterns come from admins).
const compiled = new Map<string, ReturnType<typeof compileRoutePattern>>();
function compiledPattern(pattern: string) {
  let result = compiled.get(pattern);
  if (!result) {
    if (compiled.size >= 1000) compiled.clear();
    result = compileRoutePattern(pattern);
    compiled.set(pattern, result);
  }
  return result;
}
