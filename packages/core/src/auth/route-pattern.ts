import { LineageError } from "../errors/lineage-error.ts";

/** A compiled route pattern: tells whether a URL path matches it, whole and anchored. */
export interface RoutePattern {
  readonly source: string;
  matches(path: string): boolean;
}

type Part = { kind: "text"; text: string } | { kind: "variable"; regex: string };

/**
 * Compiles a token route pattern: FastRoute's syntax (original-notes.md 2.13)
 * plus bundle.md's `*`. Literal text matches itself; `*` any run of characters;
 * `{name}` one path segment; `{name:regex}` what the regex matches; `[...]` an
 * optional trailing part, nestable (`/a[/b[/c]]`). Throws ROUTER0109 when the
 * pattern cannot be parsed.
 * @example
 * compileRoutePattern("/api/v2/smart-elements/{docid}[.json]").matches("/api/v2/smart-elements/12.json") // true
 */
export function compileRoutePattern(source: string): RoutePattern {
  const fail = (why: string): never => {
    throw new LineageError("ROUTER0109", [source, why]);
  };
  const withoutClosing = source.replace(/\]+$/, "");
  const optionals = source.length - withoutClosing.length;
  const segments = splitOutsideVariables(withoutClosing, "[", fail);
  if (segments.length - 1 !== optionals) {
    fail(splitOutsideVariables(withoutClosing, "]", fail).length > 1
      ? "optional parts can only occur at the end of a route"
      : "the numbers of '[' and ']' differ");
  }
  const alternatives: RegExp[] = [];
  let prefix: Part[] = [];
  segments.forEach((segment, i) => {
    if (segment === "" && i > 0) fail("an optional part is empty");
    prefix = [...prefix, ...parseSegment(segment, fail)];
    alternatives.push(toRegExp(prefix, fail));
  });
  return { source, matches: (path) => alternatives.some((regex) => regex.test(path)) };
}

/** Splits on `separator` where it stands outside `{...}` placeholders (which may nest braces one level deep, as in `{id:\d{2}}`). */
function splitOutsideVariables(text: string, separator: string, fail: (why: string) => never): string[] {
  const pieces: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "{") depth++;
    else if (char === "}") {
      if (--depth < 0) fail("a '}' closes nothing");
    } else if (char === separator && depth === 0) {
      pieces.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) fail("a '{' is never closed");
  pieces.push(text.slice(start));
  return pieces;
}

const VARIABLE = /^\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*(?::\s*(.*?))?\s*\}$/s;

function parseSegment(segment: string, fail: (why: string) => never): Part[] {
  const parts: Part[] = [];
  let text = "";
  for (let i = 0; i < segment.length; i++) {
    if (segment[i] !== "{") {
      text += segment[i];
      continue;
    }
    let depth = 0;
    let end = i;
    for (; end < segment.length; end++) {
      if (segment[end] === "{") depth++;
      else if (segment[end] === "}" && --depth === 0) break;
    }
    const match = VARIABLE.exec(segment.slice(i, end + 1));
    if (!match) fail(`"${segment.slice(i, end + 1)}" is not a placeholder {name} or {name:regex}`);
    if (text) parts.push({ kind: "text", text });
    text = "";
    parts.push({ kind: "variable", regex: match?.[2] || "[^/]+" });
    i = end;
  }
  if (text) parts.push({ kind: "text", text });
  return parts;
}

function toRegExp(parts: readonly Part[], fail: (why: string) => never): RegExp {
  const body = parts.map((part) => part.kind === "variable"
    ? `(?:${part.regex})`
    : part.text.split("*").map(escapeRegExp).join(".*")).join("");
  try {
    return new RegExp(`^${body}$`);
  } catch (error) {
    return fail((error as Error).message);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
