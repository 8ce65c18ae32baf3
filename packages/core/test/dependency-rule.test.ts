import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

// The core knows nothing of HTTP, SQL or files: its sources may import only
// each other and a few pure libraries (valibot, hash-wasm, @noble/hashes, the
// stemmers of @orama/stemmers). Node's modules and globals are refused by the
// compiler (packages/core/tsconfig.json has no Node types); this test refuses
// the rest: an adapter, a driver or any library not listed here.
const ALLOWED = [/^\.\.?\//, /^valibot$/, /^hash-wasm$/, /^@noble\/hashes\/[a-z0-9]+\.js$/, /^@orama\/stemmers\/[a-z]+$/];
const root = join(import.meta.dirname, "../src");

/** The core's sources by path relative to src/, with their text. */
type Sources = ReadonlyMap<string, string>;

function readSources(dir: string): [string, string][] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry): [string, string][] =>
    entry.isDirectory() ? readSources(join(dir, entry.name))
      : entry.name.endsWith(".ts") ? [[relative(root, join(dir, entry.name)), readFileSync(join(dir, entry.name), "utf8")]] : []);
}

/** Every module a source names in an import or export, type-only ones included. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:import|export)[^'"]*?from\s+["']([^"']+)["']|import\(["']([^"']+)["']\)/g)].map((m) => m[1] ?? m[2] ?? "");
}

/** The sources a source imports (relative imports only), as paths relative to src/. */
function localImports(path: string, text: string): string[] {
  return specifiers(text).filter((s) => s.startsWith(".")).map((s) => normalize(join(dirname(path), s)));
}

const isPort = (path: string) => path.startsWith("ports/") && path.endsWith(".port.ts");

/**
 * A use case: a source whose exported functions work through the store (it names the Store,
 * Repositories, a RequestScope or Transact) or answer a promise. Models (entities, values, the
 * request scope's interface) export types and functions of data only.
 */
function isUseCase(text: string): boolean {
  const exportsFunction = /export\s+(?:async\s+)?function\b|export\s+const\s+\w+\s*=\s*(?:async\s*)?\(/.test(text);
  const worksThroughStore = /\b(?:Store|Repositories|RequestScope|Transact)\b/.test(text);
  const answersPromise = /export\s+async\s+function\b|export\s+function\s+\w+[^{;]*?\)\s*:\s*Promise</.test(text);
  return exportsFunction && (worksThroughStore || answersPromise);
}

/** The import circles among the sources (Tarjan's strongly connected components of two or more, or a self-import). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** What breaks the core's layering: I/O imports, circles, ports importing use cases, platform.ts imported by other than the entry. */
function dependencyProblems(sources: Sources): string[] {
  const problems: string[] = [];
  const graph = new Map([...sources].map(([path, text]) => [path, localImports(path, text)] as const));
  for (const [path, text] of sources) {
    for (const target of specifiers(text)) {
      // Contract suites in testing/ are vitest suites by nature.
      const contractSuite = path.startsWith("testing/") && target === "vitest";
      if (!ALLOWED.some((rule) => rule.test(target)) && !contractSuite) problems.push(`${path} imports ${target}, which may do I/O`);
    }
    for (const target of graph.get(path) ?? []) {
      const targetText = sources.get(target);
      if (isPort(path) && !isPort(target) && targetText !== undefined && isUseCase(targetText)) problems.push(`port ${path} imports use case ${target}`);
      if (target === "platform.ts" && path !== "index.ts") problems.push(`${path} imports platform.ts (only the package entry may)`);
    }
  }
  for (const circle of circles(graph)) problems.push(`import circle: ${circle.join(" -> ")}`);
  return problems;
}

describe("the core's dependency rule", () => {
  const sources: Sources = new Map(readSources(root));

  it("holds for the core's sources", () => {
    expect(dependencyProblems(sources)).toEqual([]);
  });

  it("finds an import circle planted in the sources", () => {
    const planted = new Map(sources);
    planted.set("elements/smart-element.ts", `${sources.get("elements/smart-element.ts")}\nimport type { ElementView } from "./element-view.ts";\n`);
    expect(dependencyProblems(planted).filter((p) => p.startsWith("import circle"))).not.toEqual([]);
  });

  it("finds a port that imports a use case", () => {
    const planted = new Map(sources);
    planted.set("ports/clock.port.ts", `import type { ElementReading } from "../elements/read-elements.ts";\n${sources.get("ports/clock.port.ts")}`);
    expect(dependencyProblems(planted)).toEqual(["port ports/clock.port.ts imports use case elements/read-elements.ts"]);
  });

  it("finds an import of platform.ts other than the package entry's", () => {
    const planted = new Map(sources);
    planted.set("elements/read-elements.ts", `import type { Platform } from "../platform.ts";\n${sources.get("elements/read-elements.ts")}`);
    expect(dependencyProblems(planted)).toContain("elements/read-elements.ts imports platform.ts (only the package entry may)");
  });

  it("finds an import that may do I/O", () => {
    const planted = new Map(sources);
    planted.set("files/field-file.ts", `import { readFile } from "node:fs/promises";\n${sources.get("files/field-file.ts")}`);
    expect(dependencyProblems(planted)).toEqual(["files/field-file.ts imports node:fs/promises, which may do I/O"]);
  });
});
