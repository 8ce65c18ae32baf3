import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// The core knows nothing of HTTP, SQL or files: its sources may import only
// each other, valibot, hash-wasm, the pure stemmers of @orama/stemmers and pure node modules.
const ALLOWED = [/^\.\.?\//, /^valibot$/, /^hash-wasm$/, /^@orama\/stemmers\/[a-z]+$/, /^node:crypto$/];
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
