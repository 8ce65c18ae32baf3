import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// The core knows nothing of HTTP, SQL or files: its sources may import only
// each other and a few pure libraries (valibot, hash-wasm, @noble/hashes, the
// stemmers of @orama/stemmers). Node's modules and globals are refused by the
// compiler (packages/core/tsconfig.json has no Node types); this test refuses
// the rest: an adapter, a driver or any library not listed here.
const ALLOWED = [/^\.\.?\//, /^valibot$/, /^hash-wasm$/, /^@noble\/hashes\/[a-z0-9]+\.js$/, /^@orama\/stemmers\/[a-z]+$/];
const root = join(import.meta.dirname, "../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []);
}

describe("the core's dependency rule", () => {
  it("imports nothing that does I/O", () => {
    const offenders: string[] = [];
    for (const file of sources(root)) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/(?:import|export)[^'"]*?from\s+["']([^"']+)["']|import\(["']([^"']+)["']\)/g)) {
        const target = match[1] ?? match[2] ?? "";
        // Contract suites in testing/ are vitest suites by nature.
        const contractSuite = relative(root, file).startsWith("testing/") && target === "vitest";
        if (!ALLOWED.some((rule) => rule.test(target)) && !contractSuite) offenders.push(`${relative(root, file)} -> ${target}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
