import { describe, expect, it } from "vitest";
import { benchOptions, changedLoadArgs, positive } from "../bench-options.ts";
import { replaceSection } from "../benchmarks-doc.ts";
import { percentile } from "../load.ts";

describe("replaceSection", () => {
  const doc = "# Benchmarks\n\nIntro.\n\n## A\n\nold a\n\n## B\n\nold b\n";

  it("replaces its own section and keeps the others", () => {
    expect(replaceSection(doc, "## A", "## A\n\nnew a\n")).toBe("# Benchmarks\n\nIntro.\n\n## A\n\nnew a\n\n## B\n\nold b\n");
    expect(replaceSection(doc, "## B", "## B\n\nnew b\n")).toBe("# Benchmarks\n\nIntro.\n\n## A\n\nold a\n\n## B\n\nnew b\n");
    // A section printed without its last line break still leaves a blank line before the next heading.
    expect(replaceSection(doc, "## A", "## A\n\nnew a")).toBe("# Benchmarks\n\nIntro.\n\n## A\n\nnew a\n\n## B\n\nold b\n");
  });

  it("appends a missing section after one blank line", () => {
    expect(replaceSection(doc, "## C", "## C\n\nc\n")).toBe(`${doc}\n## C\n\nc\n`);
    expect(replaceSection("# Benchmarks\n\nIntro.\n", "## C", "## C\n\nc\n")).toBe("# Benchmarks\n\nIntro.\n\n## C\n\nc\n");
  });
});

describe("percentile", () => {
  it("takes the nearest rank of sorted samples", () => {
    const sorted = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 97.5)).toBe(98);
    expect(percentile(new Float64Array(0), 50)).toBeNaN();
  });
});

describe("the shared options", () => {
  it("checks their bounds and names the changed load flags", () => {
    expect(() => positive("duration", "0", 60)).toThrow('--duration takes an integer from 1 to 60, not "0"');
    const options = benchOptions({ duration: "2", warmup: "2", connections: "10", budget: "180", "no-docs": true });
    expect(options).toEqual({ duration: 2, warmup: 2, connections: 10, budget: 180, profileDir: undefined, writeDocs: false });
    expect(changedLoadArgs(options)).toEqual(["--duration 2"]);
  });
});
