import { describe, expect, it } from "vitest";
import { createMemorySearchIndex } from "../src/search/memory-search-index.ts";
import { nextBatchSize, UNPACED, type IndexPacing } from "../src/search/index-pacing.ts";
import { searchWorld } from "../src/testing/search-world.ts";

describe("index pacing", () => {
  it("halves a build's batch after a step longer than the slice, doubles it after one shorter than half, up to the largest", () => {
    const pacing: IndexPacing = { sliceMs: 8, rest: () => Promise.resolve() };
    expect(nextBatchSize(100, 20, pacing, 500)).toBe(50);
    expect(nextBatchSize(100, 6, pacing, 500)).toBe(100);
    expect(nextBatchSize(100, 1, pacing, 500)).toBe(200);
    expect(nextBatchSize(400, 1, pacing, 500)).toBe(500);
    expect(nextBatchSize(12, 50, pacing, 500)).toBe(10);
    expect(nextBatchSize(50, 1000, UNPACED, 500)).toBe(500);
  });

  it("rests between every two steps of a build, told how long the last one took, and builds the whole index", async () => {
    const rests: number[] = [];
    // A slice no step fits in: every step after the first takes the smallest batch.
    const pacing: IndexPacing = { sliceMs: 0, rest: (workedMs) => Promise.resolve(void rests.push(workedMs)) };
    const unpaced = await searchWorld({ searchIndex: createMemorySearchIndex() });
    const paced = await searchWorld({ searchIndex: createMemorySearchIndex(), searchPacing: pacing });
    const built = await paced.platform.fullsearch.engine.rebuild("news");
    expect(built).toBe(await unpaced.platform.fullsearch.engine.rebuild("news"));
    expect(rests.length).toBeGreaterThan(1);
    expect(rests[0]).toBe(0);
    expect(rests.slice(1).every((ms) => ms >= 0)).toBe(true);
  });
});
